package runs

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"corral/runs/agentstate"
)

const fileToyRules = `agent = "filetoy"
commands = ["filetoy"]

[[rule]]
name = "busy"
state = "working"
region = "bottom 2"
any = ['^busy']

[[rule]]
name = "prompt"
state = "idle"
region = "bottom 2"
any = ['^>']

[session]
id     = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
resume = ["resume", "{id}"]
files  = "codex"
`

// Two codex-like runs started in one directory at the same moment: the first goes idle
// while only the second's session file is there, begun after it started, in its
// directory — by time and place it could be the first's. The second holds it open,
// so it is never taken by the first; each learns its own (the one it holds).
func TestSessionFileOfAnotherRunNeverTaken(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("who holds a file open is read on Linux only")
	}
	toy, err := agentstate.ParseRules("filetoy.toml", []byte(fileToyRules))
	if err != nil {
		t.Fatal(err)
	}
	s := newSup(t, WithScreens(), WithAgents(agentstate.Builtin().With(toy)))
	home, dir := t.TempDir(), t.TempDir()
	at := time.Now()
	day := filepath.Join(home, "sessions", at.Format("2006"), at.Format("01"), at.Format("02"))
	if err := os.MkdirAll(day, 0o755); err != nil {
		t.Fatal(err)
	}
	const idA, idB = "aaaaaaaa-1111-4000-8000-00000000000a", "bbbbbbbb-2222-4000-8000-00000000000b"
	file := func(id string) string {
		return filepath.Join(day, "rollout-"+at.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
	}
	meta := func(id string) string {
		ts := at.UTC().Format(time.RFC3339Nano)
		return `{"timestamp":"` + ts + `","type":"session_meta","payload":{"id":"` + id + `","timestamp":"` + ts + `","cwd":"` + dir + `"}}`
	}
	env := func(id string) []string {
		return []string{"CODEX_HOME=" + home, "MYFILE=" + file(id), "META=" + meta(id), "OTHER=" + file(idB)}
	}
	// The first: idle once the other's file is there, then (told) busy, then its own
	// file, held open, and idle again.
	a := spawn(t, s, Spec{Name: "a", Dir: dir, PTY: true, Agent: "filetoy", Env: env(idA), Shell: `
while [ ! -e "$OTHER" ]; do sleep 0.02; done
printf '> '
read x
printf '\r\nbusy\r\n'
read x
exec 3>>"$MYFILE"; printf '%s\n' "$META" >&3
printf '\r\n\r\n> '
exec sleep 30`})
	// The second: its file at once, held open; idle when told.
	b := spawn(t, s, Spec{Name: "b", Dir: dir, PTY: true, Agent: "filetoy", Env: env(idB), Shell: `
exec 3>>"$MYFILE"; printf '%s\n' "$META" >&3
read x
printf '> '
exec sleep 30`})
	waitAgent(t, s, a, agentstate.Idle)
	s.Write(a, []byte("\r"))
	// Learning on the idle change is done once the next change is seen (one
	// goroutine evaluates the run's screen); this one looked again too.
	waitAgent(t, s, a, agentstate.Working)
	if info, _ := s.Info(a); info.SessionID != "" {
		t.Fatalf("the first run took conversation %q from a file only the second holds", info.SessionID)
	}
	s.Write(a, []byte("\r"))
	waitInfo(t, s, a, "the first run to learn its own conversation", func(i Info) bool { return i.SessionID == idA })
	s.Write(b, []byte("\r"))
	waitInfo(t, s, b, "the second run to learn its own conversation", func(i Info) bool { return i.SessionID == idB })
	for _, id := range []string{a, b} {
		s.Cancel(id)
		waitEnd(t, s, id)
	}
}
