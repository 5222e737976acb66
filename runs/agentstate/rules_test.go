package agentstate

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// rows is a screen for rules: its lines, the blank ones at the bottom skipped by Bottom.
type rows []string

func (r rows) Top(n int) []string { return trimmed(r[:min(n, len(r))]) }

func (r rows) Bottom(n int) []string {
	last := len(r) - 1
	for last > 0 && strings.TrimSpace(r[last]) == "" {
		last--
	}
	return trimmed(r[max(0, last-n+1) : last+1])
}

// trimmed are rows as a screen gives them: without trailing spaces.
func trimmed(r rows) []string {
	out := make([]string, len(r))
	for i, l := range r {
		out[i] = strings.TrimRight(l, " ")
	}
	return out
}

// reads counts what a rule read of the screen.
type countingRows struct {
	rows
	reads int
}

func (c *countingRows) Top(n int) []string    { c.reads++; return c.rows.Top(n) }
func (c *countingRows) Bottom(n int) []string { c.reads++; return c.rows.Bottom(n) }

const testRules = `
agent = "toy"
title = "A toy agent"
commands = ["toy"]
packages = ["@corral/toy"]

[[rule]]
name = "question"
state = "waiting"
priority = 100
region = "bottom 5"
all = ['Allow\?', '^ *1\. Yes']
not = ['esc to interrupt']

[[rule]]
name = "spinner"
state = "working"
priority = 50
region = "title"
any = ['^[\x{2801}-\x{28FF}]']

[[rule]]
name = "prompt"
state = "idle"
  [[rule.when]]
  region = "bottom 3"
  any = ['^>( |$)']
  [[rule.when]]
  region = "title"
  not = ['^[\x{2801}-\x{28FF}]']
`

func toy(t *testing.T) *Agent {
	t.Helper()
	a, err := ParseRules("toy.toml", []byte(testRules))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestEvaluate(t *testing.T) {
	a := toy(t)
	for _, tt := range []struct {
		name  string
		title string
		scr   rows
		want  Verdict
	}{
		{"idle at the prompt", "toy", rows{"hello", "> ", "", ""}, Verdict{State: Idle, Rule: "prompt", Context: ">"}},
		{"working", "⠂ toy", rows{"thinking", "> "}, Verdict{State: Working, Rule: "spinner", Context: "⠂ toy"}},
		{"asks", "toy", rows{"Allow? run ls", "  1. Yes", "  2. No", ""}, Verdict{State: Waiting, Rule: "question", Context: "Allow? run ls"}},
		{"a question while it works is no question", "toy", rows{"Allow?", " 1. Yes", "esc to interrupt"}, Verdict{}},
		{"nothing known", "toy", rows{"booting"}, Verdict{}},
		{"the question alone, no answers: strict", "toy", rows{"Allow?", "> "}, Verdict{State: Idle, Rule: "prompt", Context: ">"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := a.Evaluate(Input{Signals: Signals{Title: tt.title}, Screen: tt.scr})
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// A rule over the title alone decides without reading the screen; a region is read
// once per evaluation however many rules name it.
func TestEvaluateReadsOnlyWhatItNeeds(t *testing.T) {
	a, err := ParseRules("t.toml", []byte(`
agent = "t"
[[rule]]
name = "spin"
state = "working"
priority = 9
region = "title"
any = ['^⠂']
[[rule]]
name = "a"
state = "waiting"
region = "bottom 4"
any = ['never']
[[rule]]
name = "b"
state = "idle"
region = "bottom 4"
any = ['^>']
`))
	if err != nil {
		t.Fatal(err)
	}
	scr := &countingRows{rows: rows{"> "}}
	if v := a.Evaluate(Input{Signals: Signals{Title: "⠂ x"}, Screen: scr}); v.State != Working || scr.reads != 0 {
		t.Errorf("title rule: %+v after %d screen reads", v, scr.reads)
	}
	if v := a.Evaluate(Input{Screen: scr}); v.State != Idle || scr.reads != 1 {
		t.Errorf("two rules over one region: %+v after %d reads, want 1", v, scr.reads)
	}
}

func TestExplain(t *testing.T) {
	a := toy(t)
	e := a.Explain(Input{Signals: Signals{Title: "toy"}, Screen: rows{"Allow?", "> "}})
	if e.State != Idle || e.Rule != "prompt" || len(e.Checks) != 3 {
		t.Fatalf("explain: %+v", e)
	}
	if c := e.Checks[0]; c.Matched || !strings.Contains(c.Why, `no "^ *1\\. Yes"`) {
		t.Errorf("the question's check: %+v", c)
	}
	// A rule that matched says why: each clause, the pattern and the text it matched
	// on (a box's padding squeezed), a screen row's place in its region, the
	// exclusions that found nothing.
	if c := e.Checks[2]; !c.Matched || c.Why != `bottom 3: "^>( |$)" matched ">" in its row 2; title: none of not ["^[\\x{2801}-\\x{28FF}]"]` {
		t.Errorf("the prompt's check: %+v", c)
	}
	e = a.Explain(Input{Signals: Signals{Title: "⠂ thinking"}, Screen: rows{"│ Allow?        │", "  1. Yes", "> "}})
	if c := e.Checks[0]; !c.Matched || c.Why != `bottom 5: "Allow\\?" matched "│ Allow? │" in its row 1, "^ *1\\. Yes" matched "1. Yes" in its row 2, none of not ["esc to interrupt"]` {
		t.Errorf("the question's check: %+v", c)
	}
	if c := e.Checks[1]; !c.Matched || c.Why != `title: "^[\\x{2801}-\\x{28FF}]" matched "⠂ thinking"` {
		t.Errorf("the spinner's check: %+v", c)
	}
	var regions []string
	for _, r := range e.Regions {
		regions = append(regions, r.Region)
	}
	if strings.Join(regions, ",") != "title,bottom 3,bottom 5" {
		t.Errorf("regions read: %v", regions)
	}
}

// Every mistake in a rule file is reported with its line; the file is not used.
func TestParseRulesErrors(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"agent = \"x\"\n[[rule]]\nname = \"a\"\nstate = \"busy\"\nregion = \"title\"\nany = ['x']\n", `x.toml:4: rule #1: key "state": no state "busy"`},
		{"agent = \"x\"\n[[rule]]\nname = \"a\"\nstate = \"idle\"\nregion = \"middle\"\nany = ['x']\n", `x.toml:5: rule #1: key "region": unknown region "middle"`},
		{"agent = \"x\"\n[[rule]]\nname = \"a\"\nstate = \"idle\"\nregion = \"title\"\nany = ['(']\n", `x.toml:6: rule #1: key "any": pattern "("`},
		{"agent = \"x\"\n[[rule]]\nname = \"a\"\nstate = \"idle\"\nregoin = \"title\"\n", `key "regoin": unknown key (did you mean "region"?)`},
		{"title = \"x\"\n", `x.toml:1: key "agent": missing`},
		{"agent = \"x\"\n[[rule]]\nname = \"a\"\nstate = \"idle\"\nregion = \"title\"\nnot = ['x']\n", `only exclusions`},
		{"agent = \"x\"\n[[rule]]\nname = \"a\"\nstate = \"idle\"\nregion = \"title\"\nany = ['x']\n[[rule]]\nname = \"a\"\nstate = \"idle\"\nregion = \"title\"\nany = ['y']\n", `x.toml:7: rule #2: key "name": "a" is also the name of the rule at line 2`},
		{"agent = \"x\"\n[[rule]]\nname = \"a\"\nstate = \"idle\"\nregion = \"bottom\"\nany = ['x']\n", `wants a row count`},
		{"agent = \"x\"\n[[rule]\n", `x.toml:2: TOML`},
	} {
		_, err := ParseRules("x.toml", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) || !IsRulesError(err) {
			t.Errorf("%q:\n got %v\nwant %s", tt.src, err, tt.want)
		}
	}
}

// The built-in rule files parse, and each knows its agent by command and package.
func TestBuiltinRules(t *testing.T) {
	s := Builtin()
	for _, name := range []string{"claude", "codex"} {
		a := s.Named(name)
		if a == nil || len(a.Rules) == 0 || !strings.HasPrefix(a.Source, "builtin:") {
			t.Fatalf("%s: %+v", name, a)
		}
		for i := 1; i < len(a.Rules); i++ {
			if a.Rules[i].Priority > a.Rules[i-1].Priority {
				t.Errorf("%s: rules not by priority: %s before %s", name, a.Rules[i-1].Name, a.Rules[i].Name)
			}
		}
	}
}

func TestDetectorHooks(t *testing.T) {
	a := toy(t)
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	d := NewDetector(a, t0)
	idle := Input{Signals: Signals{Title: "toy"}, Screen: rows{"> "}}
	ask := Input{Signals: Signals{Title: "toy"}, Screen: rows{"Allow?", " 1. Yes"}}
	if tr, ok := d.Update(idle, t0.Add(time.Second)); !ok || tr.State != Idle || tr.From != Unknown || !tr.Since.Equal(t0.Add(time.Second)) {
		t.Fatalf("first: %+v %v", tr, ok)
	}
	if _, ok := d.Update(idle, t0.Add(2*time.Second)); ok {
		t.Fatal("the same state again is no transition")
	}
	// The hook says it waits a little before the screen shows it: it dates the state.
	if _, ok := d.Hook(Waiting, "PermissionRequest", t0.Add(3*time.Second)); ok {
		t.Fatal("a hook alone moved the state")
	}
	tr, ok := d.Update(ask, t0.Add(3*time.Second+40*time.Millisecond))
	if !ok || tr.State != Waiting || !tr.Since.Equal(t0.Add(3*time.Second)) || tr.Rule != "question + hook PermissionRequest" {
		t.Fatalf("waiting with the hook's word: %+v", tr)
	}
	if _, ok := d.Update(ask, t0.Add(4*time.Second)); ok {
		t.Fatal("the hook's word changed the rule on the next evaluation")
	}
	// A hook for the state shown adds its word; the screen still decides.
	d.Update(idle, t0.Add(5*time.Second))
	if tr, ok := d.Hook(Idle, "Stop", t0.Add(6*time.Second)); !ok || tr.Rule != "prompt + hook Stop" || !tr.Since.Equal(t0.Add(5*time.Second)) {
		t.Fatalf("hook for the state shown: %+v %v", tr, ok)
	}
}

func TestHookPayloads(t *testing.T) {
	for payload, want := range map[string]HookReport{
		`{"hook_event_name":"Notification","notification_type":"permission_prompt","message":"Claude needs your permission to use Bash"}`: {State: Waiting, Event: "Notification/permission_prompt"},
		`{"hook_event_name":"Stop","stop_hook_active":false}`:                                                                             {State: Idle, Event: "Stop"},
		`{"hook_event_name":"UserPromptSubmit","prompt":"hi"}`:                                                                            {State: Working, Event: "UserPromptSubmit"},
		`{"hook_event_name":"Notification","message":"Claude is waiting for your input"}`:                                                 {State: Unknown, Event: "Notification/"},
		`{"type":"agent-turn-complete","turn-id":"1","last-assistant-message":"done"}`:                                                    {State: Idle, Event: "agent-turn-complete"},
	} {
		got, err := ParseHook([]byte(payload))
		if err != nil || got.State != want.State || got.Event != want.Event {
			t.Errorf("%s: %+v %v, want %+v", payload, got, err, want)
		}
	}
	// The ids a payload names come with it: Claude Code's session_id, codex's thread-id.
	got, _ := ParseHook([]byte(`{"hook_event_name":"Stop","session_id":"0d3c","cwd":"/x"}`))
	if len(got.IDs) != 1 || got.IDs["session_id"] != "0d3c" {
		t.Errorf("claude's session_id: %+v", got.IDs)
	}
	got, _ = ParseHook([]byte(`{"type":"agent-turn-complete","thread-id":"019a","turn-id":"1"}`))
	if got.IDs["thread-id"] != "019a" || got.IDs["turn-id"] != "1" {
		t.Errorf("codex's thread-id: %+v", got.IDs)
	}
	if _, err := ParseHook([]byte(`{"x":1}`)); err == nil {
		t.Error("a payload with no event was taken")
	}
}

// A rule's question and detail patterns say what a notification quotes: the row where
// one matches, or its first capture group, cleaned; a bad pattern is an error with its
// line, like any other.
func TestQuestionAndDetail(t *testing.T) {
	a, err := ParseRules("q.toml", []byte(`agent = "q"
[[rule]]
name = "ask"
state = "waiting"
region = "bottom 6"
all = ['1\. Yes']
question = ['Allow\?', 'never']
detail = ['^│ *\$ (.+?) *│$']
`))
	if err != nil {
		t.Fatal(err)
	}
	scr := rows{"╭────────────╮", "│ Allow?     │", "│ $ rm -rf x │", "│ 1. Yes     │", "╰────────────╯"}
	if v := a.Evaluate(Input{Screen: scr}); v.Context != "Allow?" || v.Detail != "rm -rf x" {
		t.Errorf("quoted %q, %q", v.Context, v.Detail)
	}
	_, err = ParseRules("bad.toml", []byte("agent = \"q\"\n[[rule]]\nname = \"ask\"\nstate = \"waiting\"\nregion = \"screen\"\nany = ['x']\nquestion = ['(']\n"))
	if err == nil || !strings.Contains(err.Error(), "bad.toml:7") {
		t.Errorf("a bad question pattern: %v", err)
	}
}

// A waiting rule's answer keys are send-keys words: kept as written, a word that is
// neither a key nor text refused with its line; the built-in agents' questions have
// theirs.
func TestAnswerKeys(t *testing.T) {
	a, err := ParseRules("x.toml", []byte("agent = \"x\"\n[[rule]]\nname = \"q\"\nstate = \"waiting\"\nregion = \"title\"\nany = ['x']\napprove = [\"y\"]\ndeny = [\"Escape\"]\n"))
	if err != nil || a.Rule("q") == nil || !slices.Equal(a.Rule("q").Approve, []string{"y"}) || !slices.Equal(a.Rule("q").Deny, []string{"Escape"}) {
		t.Fatalf("approve/deny: %+v %v", a, err)
	}
	if a.Rule("none") != nil {
		t.Error("a rule that is not there")
	}
	_, err = ParseRules("x.toml", []byte("agent = \"x\"\n[[rule]]\nname = \"q\"\nstate = \"waiting\"\nregion = \"title\"\nany = ['x']\napprove = [\"C-Foo\"]\n"))
	if err == nil || !strings.Contains(err.Error(), `x.toml:7: rule #1: key "approve"`) {
		t.Errorf("a bad key: %v", err)
	}
	s := Builtin()
	for agent, rule := range map[string]string{"claude": "permission", "codex": "approval", "gemini": "permission"} {
		if r := s.Named(agent).Rule(rule); r == nil || len(r.Approve) == 0 || len(r.Deny) == 0 {
			t.Errorf("%s's %s has no answer keys: %+v", agent, rule, r)
		}
	}
}
