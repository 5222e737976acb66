package agentstate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func builtinAgent(t *testing.T, name string) *Agent {
	t.Helper()
	a := Builtin().Named(name)
	if a == nil || a.Session == nil {
		t.Fatalf("%s: no [session] in its rules: %+v", name, a)
	}
	return a
}

// Each CLI's [session] says how its id is pinned at launch and how it is resumed: the
// launch form gets a new id unless the command names one; the resume form drops an
// initial prompt and the options that pick another conversation, keeps the rest.
func TestSessionForms(t *testing.T) {
	const id = "0b5e3a57-9d5c-4c3e-8f0e-1a2b3c4d5e6f"
	newID := func() string { return id }
	claude := builtinAgent(t, "claude")
	for _, c := range []struct {
		argv []string
		want []string
		id   string
	}{
		{[]string{"/opt/bin/claude", "--model", "opus", "fix it"}, []string{"/opt/bin/claude", "--session-id", id, "--model", "opus", "fix it"}, id},
		{[]string{"claude", "--session-id=11111111-2222-3333-4444-555555555555"}, []string{"claude", "--session-id=11111111-2222-3333-4444-555555555555"}, "11111111-2222-3333-4444-555555555555"},
		{[]string{"claude", "--resume", "11111111-2222-3333-4444-555555555555"}, []string{"claude", "--resume", "11111111-2222-3333-4444-555555555555"}, "11111111-2222-3333-4444-555555555555"},
		{[]string{"claude", "--continue"}, []string{"claude", "--continue"}, ""},
		{[]string{"env", "A=1", "npx", "@anthropic-ai/claude-code@2"}, []string{"env", "A=1", "npx", "@anthropic-ai/claude-code@2", "--session-id", id}, id},
	} {
		got, gotID := claude.Session.Launch(claude, c.argv, newID)
		if !slices.Equal(got, c.want) || gotID != c.id {
			t.Errorf("launch %q: %q %q, want %q %q", c.argv, got, gotID, c.want, c.id)
		}
	}
	got, ok := claude.Session.ResumeArgv(claude, []string{"claude", "--session-id", "x", "--model", "opus", "--fork-session", "fix it"}, id)
	if want := []string{"claude", "--resume", id, "--model", "opus"}; !ok || !slices.Equal(got, want) {
		t.Errorf("claude resume: %q, want %q", got, want)
	}
	codex := builtinAgent(t, "codex")
	if got, gotID := codex.Session.Launch(codex, []string{"codex"}, newID); gotID != "" || !slices.Equal(got, []string{"codex"}) {
		t.Errorf("codex pins no id: %q %q", got, gotID)
	}
	got, ok = codex.Session.ResumeArgv(codex, []string{"codex", "-c", "model=x", "write tests"}, id)
	if want := []string{"codex", "resume", id, "-c", "model=x"}; !ok || !slices.Equal(got, want) {
		t.Errorf("codex resume: %q, want %q", got, want)
	}
	gemini := builtinAgent(t, "gemini")
	if _, gotID := gemini.Session.Launch(gemini, []string{"gemini", "--resume", "latest"}, newID); gotID != "" {
		t.Errorf("gemini --resume latest names no id, got %q", gotID)
	}
	got, ok = gemini.Session.ResumeArgv(gemini, []string{"gemini", "--session-id", "x", "-m", "flash", "-i", "hello"}, id)
	if want := []string{"gemini", "--resume", id, "-m", "flash"}; !ok || !slices.Equal(got, want) {
		t.Errorf("gemini resume: %q, want %q", got, want)
	}
	if _, ok := gemini.Session.ResumeArgv(gemini, []string{"node", "x.js"}, id); ok {
		t.Error("a command without the agent's program was given a resume form")
	}
}

// A [session] table with a bad key, no {id} in pin, or an unknown file layout is an
// error with its line.
func TestSessionTableErrors(t *testing.T) {
	src := "agent = \"x\"\n[[rule]]\nname = \"a\"\nstate = \"idle\"\nregion = \"title\"\nany = ['x']\n" +
		"[session]\npin = [\"--id\"]\nfiles = \"nosuch\"\nresum = [\"r\"]\n"
	_, err := ParseRules("x.toml", []byte(src))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{`x.toml:7`, `no {id}`, `x.toml:9`, `unknown layout "nosuch"`, `x.toml:10`, `did you mean "resume"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// A codex session file is the run's only when it began after the run started, in its
// directory, and no other run holds its id; two candidates are no answer.
func TestSessionFileID(t *testing.T) {
	codex := builtinAgent(t, "codex")
	home, dir, other := t.TempDir(), t.TempDir(), t.TempDir()
	start := time.Now().Add(-time.Second)
	day := filepath.Join(home, "sessions", start.Format("2006"), start.Format("01"), start.Format("02"))
	os.MkdirAll(day, 0o755)
	write := func(id, cwd string, at time.Time) {
		line := `{"timestamp":"` + at.UTC().Format(time.RFC3339Nano) + `","type":"session_meta","payload":{"id":"` + id +
			`","timestamp":"` + at.UTC().Format(time.RFC3339Nano) + `","cwd":"` + cwd + `"}}` + "\n"
		os.WriteFile(filepath.Join(day, "rollout-"+at.Format("2006-01-02T15-04-05")+"-"+id+".jsonl"), []byte(line), 0o644)
	}
	env := []string{"CODEX_HOME=" + home}
	none := func(string) bool { return false }
	unknown := func(string) FileOwner { return OwnerUnknown }
	const a, b, c = "aaaaaaaa-0000-0000-0000-000000000001", "bbbbbbbb-0000-0000-0000-000000000002", "cccccccc-0000-0000-0000-000000000003"
	write(a, dir, start.Add(-time.Hour)) // before the run: not its own
	write(b, other, time.Now())          // another directory
	if got := codex.Session.FileID(env, dir, start, none, unknown); got != "" {
		t.Fatalf("took %q", got)
	}
	write(c, dir, time.Now())
	if got := codex.Session.FileID(env, dir, start, none, unknown); got != c {
		t.Fatalf("got %q, want %q", got, c)
	}
	if got := codex.Session.FileID(env, dir, start, func(id string) bool { return id == c }, unknown); got != "" {
		t.Fatalf("took %q, held by another run", got)
	}
	write("dddddddd-0000-0000-0000-000000000004", dir, time.Now())
	if got := codex.Session.FileID(env, dir, start, none, unknown); got != "" {
		t.Fatalf("two candidates, took %q", got)
	}
	// Who holds a file open settles it: another run's file is never taken, the run's
	// own is whatever else is there.
	heldBy := func(id string, o FileOwner) func(string) FileOwner {
		return func(path string) FileOwner {
			if strings.Contains(path, id) {
				return o
			}
			return OwnerUnknown
		}
	}
	if got := codex.Session.FileID(env, dir, start, none, heldBy(c, OwnerOther)); got != "dddddddd-0000-0000-0000-000000000004" {
		t.Errorf("c held open by another run: got %q, want d", got)
	}
	if got := codex.Session.FileID(env, dir, start, none, heldBy(c, OwnerThisRun)); got != c {
		t.Errorf("c held open by this run: got %q, want c", got)
	}
}
