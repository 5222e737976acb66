package agentstate

import (
	"strings"
	"testing"
	"time"
)

// Claude Code's footers as 2.1.332 draws them, at its prompt.
var (
	claudeIdle = rows{"❯ ", "────", "  ⏸ manual mode on · ? for shortcuts · ← for agents"}
	claudeAuto = rows{"❯ ", "────", "  ⏵⏵ auto mode on (shift+tab to cycle) · ? for shortcuts"}
	claudeWork = rows{"✶ Boondoggling…", "❯ ", "────", "  ⏵⏵ auto mode on · esc to interrupt"}
	claudeAsk  = rows{" Do you want to proceed?", " ❯ 1. Yes", "   2. No", " Esc to cancel · Tab to amend"}
)

// A mode in which the agent will not ask is known from the command's flags, and from
// the screen where the agent shows it: its footer decides once seen at the prompt
// (shift+tab changes it), a question or a flag-only mode leaves it as it was.
func TestModeFromFlagsAndScreen(t *testing.T) {
	claude, codex, gemini := Builtin().Named("claude"), Builtin().Named("codex"), Builtin().Named("gemini")
	for _, c := range []struct {
		a    *Agent
		argv []string
		want string
	}{
		{claude, []string{"claude"}, ""},
		{claude, []string{"claude", "--permission-mode", "auto"}, "auto"},
		{claude, []string{"claude", "--permission-mode=auto"}, "auto"},
		{claude, []string{"claude", "--permission-mode", "default"}, ""},
		{claude, []string{"claude", "--dangerously-skip-permissions"}, "bypass permissions"},
		{claude, []string{"claude", "--allow-dangerously-skip-permissions"}, ""},
		{codex, []string{"codex", "-a", "never"}, "approvals off"},
		{codex, []string{"codex", "--ask-for-approval", "on-request"}, ""},
		{codex, []string{"codex", "-c", "approval_policy=never"}, "approvals off"},
		{codex, []string{"codex", "--dangerously-bypass-approvals-and-sandbox"}, "approvals off"},
		{gemini, []string{"gemini", "--yolo"}, "YOLO"},
		{gemini, []string{"gemini", "--approval-mode=yolo"}, "YOLO"},
		{gemini, []string{"gemini", "--approval-mode", "auto_edit"}, ""},
	} {
		if got := c.a.FlagMode(c.argv); got != c.want {
			t.Errorf("%s %q: mode %q, want %q", c.a.Name, c.argv, got, c.want)
		}
	}

	t0 := time.Unix(0, 0)
	d := NewDetector(claude, t0)
	d.StartMode([]string{"claude"})
	steps := []struct {
		scr   rows
		state State
		mode  string
	}{
		{claudeIdle, Idle, ""},
		{claudeAuto, Idle, "auto"}, // shift+tab: the footer says it
		{claudeWork, Working, "auto"},
		{claudeAsk, Waiting, "auto"}, // a question (another rule, a hook) leaves it
		{claudeIdle, Idle, ""},       // back to manual
	}
	for i, s := range steps {
		tr, _ := d.Update(Input{Screen: s.scr}, t0.Add(time.Duration(i)*time.Second))
		if tr.State != s.state || tr.Mode != s.mode {
			t.Errorf("step %d: %s in mode %q, want %s in %q", i, tr.State, tr.Mode, s.state, s.mode)
		}
	}
	// The mode alone changing is news: Update reports it.
	if _, changed := d.Update(Input{Screen: claudeAuto}, t0.Add(time.Minute)); !changed {
		t.Error("a mode change in the same state was not reported")
	}

	// A mode only flags tell stays whatever the screen shows.
	d = NewDetector(codex, t0)
	d.StartMode([]string{"codex", "-a", "never"})
	tr, _ := d.Update(Input{Screen: rows{"› Ask Codex to do anything", "  ? for shortcuts"},
		Signals: Signals{Title: "project"}}, t0)
	if tr.State != Idle || tr.Mode != "approvals off" {
		t.Errorf("codex -a never at its prompt: %s in mode %q", tr.State, tr.Mode)
	}
}

func TestModeRuleFile(t *testing.T) {
	a, err := ParseRules("m.toml", []byte(testRules+`
[[mode]]
name = "fast"
flags = ["--fast", "--mode fast"]
region = "bottom 2"
any = ['FAST']
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Modes) != 1 || a.FlagMode([]string{"toy", "--mode", "fast"}) != "fast" || len(a.Modes[0].When) != 1 {
		t.Fatalf("modes: %+v", a.Modes)
	}
	for src, want := range map[string]string{
		"[[mode]]\nname = \"x\"\n":                       "neither flags nor a screen clause",
		"[[mode]]\nflags = [\"--x\"]\n":                  "name",
		"[[mode]]\nname = \"x\"\nflags = [\"a b c\"]\n":  "one word or a word and its value",
		"[[mode]]\nname = \"x\"\nflag = [\"--x\"]\n":     "did you mean \"flags\"",
		"[[mode]]\nname = \"x\"\nany = ['X']\n":          "region",
		"recorded = 3\n[[mode]]\nname = \"x\"\nany = []": "want an array",
	} {
		_, err := ParseRules("m.toml", []byte("agent = \"toy\"\n"+src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error saying %q", src, err, want)
		}
	}
}

// Claude Code 2.1.332 working on an 80-column terminal, as a real-agent test saw it:
// its footer's "esc to interrupt" is cut off, the prompt box is drawn; only its title's
// spinner ("◐"/"◑" now, Braille dots in 2.1.197) says it works.
func TestClaudeNarrowWorking(t *testing.T) {
	claude := Builtin().Named("claude")
	scr := rows{"● Writing a marker file", "  ⎿  $ echo corral-ok > corral-ok.txt", "",
		"✽ Tempering… (6s · ↓ 50 tokens)", "", strings.Repeat("─", 80), "❯ ", strings.Repeat("─", 80),
		"  ⏸ manual mode on"}
	for _, title := range []string{"◐ Claude Code", "◑ Corral check", "⠂ Corral check"} {
		if v := claude.Evaluate(Input{Screen: scr, Signals: Signals{Title: title}}); v.State != Working {
			t.Errorf("title %q: %s (%s), want working", title, v.State, v.Rule)
		}
	}
	if v := claude.Evaluate(Input{Screen: scr, Signals: Signals{Title: "✳ Corral check"}}); v.State != Idle {
		t.Errorf("at rest: %s (%s), want idle", v.State, v.Rule)
	}
}

// Claude Code 2.1.332 asks once at start whether auto mode should be its default: a
// question (its "❯ Yes, …" is not the prompt box).
func TestClaudeAutoModeNudge(t *testing.T) {
	scr := rows{strings.Repeat("─", 80), "  Make auto mode your default permission mode?", "",
		"  Auto mode lets Claude handle permission prompts automatically.", "",
		"  ❯ Yes, set auto mode as my default permission mode", "    No, keep manual mode", "",
		"  Not answered yet · ↑/↓ to choose · Esc to cancel"}
	if v := Builtin().Named("claude").Evaluate(Input{Screen: scr, Signals: Signals{Title: "✳ Claude Code"}}); v.State != Waiting {
		t.Errorf("the auto-mode question: %s (%s), want waiting", v.State, v.Rule)
	}
}

// Gemini CLI 0.61.0 after Ctrl+Y: the row above its input box says YOLO, its prompt
// is "*"; Ctrl+Y again puts back "Shift+Tab to accept edits".
func TestGeminiYoloFooter(t *testing.T) {
	gemini := Builtin().Named("gemini")
	box := func(hint, prompt string) rows {
		return rows{strings.Repeat(" ", 100) + "? for shortcuts", strings.Repeat("─", 120), hint,
			strings.Repeat("▄", 120), " " + prompt + "   Type your message or @path/to/file", strings.Repeat("▀", 120),
			" workspace (/directory)        sandbox       /model", " ~/project                     no sandbox    Auto"}
	}
	d := NewDetector(gemini, time.Unix(0, 0))
	for i, s := range []struct {
		scr  rows
		mode string
	}{{box(" Shift+Tab to accept edits", ">"), ""}, {box(" YOLO Ctrl+Y", "*"), "YOLO"}, {box(" Shift+Tab to accept edits", ">"), ""}} {
		tr, _ := d.Update(Input{Screen: s.scr, Signals: Signals{Title: "◇  Ready (project)"}}, time.Unix(int64(i), 0))
		if tr.State != Idle || tr.Mode != s.mode {
			t.Errorf("step %d: %s in mode %q, want idle in %q", i, tr.State, tr.Mode, s.mode)
		}
	}
	// A prompt typed in YOLO mode: the placeholder gone, the "*" says the input box.
	typed := box(" YOLO Ctrl+Y", "*")
	typed[4] = " * fix the parser"
	if v := gemini.Evaluate(Input{Screen: typed, Signals: Signals{Title: "◇  Ready (project)"}}); v.State != Idle || v.Mode != "YOLO" {
		t.Errorf("a prompt typed in YOLO mode: %s (%s) in mode %q", v.State, v.Rule, v.Mode)
	}
}
