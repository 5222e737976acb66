package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/runs/agentstate"
)

// toyScript is the toy agent (its rules: testkit.ToyRules): idle, working, asking,
// working, idle, a line each.
const toyScript = `printf '\033]0;toy\007> '; read a
printf '\033]0;\342\240\202 toy\007\033[2J\033[Hthinking'; read b
printf '\033]0;toy\007\033[2J\033[HAllow toy to run ls?\r\n 1. Yes\r\n 2. No\r\n'; read c
printf '\033]0;\342\240\202 toy\007\033[2J\033[Hrunning ls'; read d
printf '\033]0;toy\007\033[2J\033[Hdone\r\n> '; read e`

func toySet(t *testing.T) *agentstate.Set {
	t.Helper()
	a, err := agentstate.ParseRules("toy.toml", []byte(testkit.ToyRules))
	if err != nil {
		t.Fatal(err)
	}
	return agentstate.NewSet(a)
}

// waitAgent waits (driven by events) until the run's agent is in state want.
func waitAgent(t *testing.T, s *Supervisor, id string, want agentstate.State) Info {
	t.Helper()
	return waitInfo(t, s, id, "agent state "+want.String(), func(i Info) bool { return i.AgentState == want })
}

// waitInfo waits (driven by events) until the run's info satisfies ok; a run that
// ends first fails the test at once.
func waitInfo(t *testing.T, s *Supervisor, id, what string, ok func(Info) bool) Info {
	t.Helper()
	info, _ := waitRun(t, s, id, 0, func(i Info) bool { return ok(i) || i.Ended() })
	switch {
	case ok(info):
		return info
	case info.Ended():
		t.Fatalf("ended before %s: %+v", what, info)
	default:
		t.Fatalf("no %s: agent %q (%s, %s) by %q", what, info.Agent, info.AgentState, orNone(info.AgentRule), info.AgentBy)
	}
	return info
}

// An agent's run goes through its states as its screen shows them, each published
// with its rule; entering waiting and ending a working turn tell a user who is not
// looking, once each, and not one who is.
func TestAgentStates(t *testing.T) {
	shortTurns(t)
	keysAreNews(t) // the toy answers each key at once
	dir := t.TempDir()
	log := filepath.Join(dir, "notified")
	s := newSup(t, WithScreens(), WithAgents(toySet(t)),
		WithNotify(NotifyConfig{Command: "cat >> " + log, MinInterval: time.Millisecond}))
	_, sub := s.Subscribe()
	defer sub.Close()
	id := spawn(t, s, Spec{Name: "toy", Shell: toyScript, PTY: true, Agent: "toy"})
	info := waitAgent(t, s, id, agentstate.Idle)
	if info.Agent != "toy" || info.AgentRule != "prompt" || info.AgentStateSince.IsZero() {
		t.Fatalf("idle: %+v", info)
	}
	for _, step := range []struct {
		want agentstate.State
		rule string
	}{{agentstate.Working, "spinner"}, {agentstate.Waiting, "question"}, {agentstate.Working, "spinner"}, {agentstate.Idle, "prompt"}} {
		if err := s.Write(id, []byte("\r")); err != nil {
			t.Fatal(err)
		}
		if info = waitAgent(t, s, id, step.want); info.AgentRule != step.rule {
			t.Fatalf("%s by rule %q, want %q", step.want, info.AgentRule, step.rule)
		}
	}
	var texts []string
	for len(texts) < 2 {
		ev, ok := eventually.Event(waitLimit, sub.C, func(ev Event) bool { return ev.Type == EventNotify && ev.Run.ID == id })
		if !ok {
			t.Fatalf("notifications: %q", texts)
		}
		texts = append(texts, ev.Detail)
	}
	if texts[0] != "toy: toy waits for you — Allow toy to run ls?" || texts[1] != "toy: toy finished its turn" {
		t.Errorf("notifications: %q", texts)
	}
	lines := waitLines(t, log, 2)
	var n Notification
	if err := json.Unmarshal([]byte(lines[0]), &n); err != nil || n.RunID != id || n.Event != "waiting" || n.Context != "Allow toy to run ls?" {
		t.Errorf("the command's JSON: %s (%v)", lines[0], err)
	}
}

// shortTurns counts any return from working to idle as a turn that ended.
func shortTurns(t *testing.T) {
	old := minTurn
	minTurn = 0
	t.Cleanup(func() { minTurn = old })
}

// keysAreNews announces what an agent shows right after input too.
func keysAreNews(t *testing.T) {
	old := inputWindow
	inputWindow = 0
	t.Cleanup(func() { inputWindow = old })
}

// waitLines waits until the file has n lines.
func waitLines(t *testing.T, path string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(b) > 0 && len(lines) >= n {
			return lines
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s has %q, want %d lines", path, b, n)
		}
		time.Sleep(10 * time.Millisecond) // another process writes the file: no event to wait on
	}
}

// A user who looks at the run is not told; a hook's word dates the state the screen
// then shows.
func TestAgentLookedAtAndHooks(t *testing.T) {
	s := newSup(t, WithScreens(), WithAgents(toySet(t)), WithNotify(NotifyConfig{MinInterval: time.Millisecond}))
	_, sub := s.Subscribe()
	defer sub.Close()
	id := spawn(t, s, Spec{Name: "toy", Shell: toyScript, PTY: true, Agent: "toy"})
	waitAgent(t, s, id, agentstate.Idle)
	if err := s.Focus(id, "ui-1", true); err != nil {
		t.Fatal(err)
	}
	s.Write(id, []byte("\r"))
	waitAgent(t, s, id, agentstate.Working)
	hookAt := time.Now()
	if err := s.Hook(id, agentstate.HookReport{State: agentstate.Waiting, Event: "PermissionRequest"}); err != nil {
		t.Fatal(err)
	}
	s.Write(id, []byte("\r"))
	info := waitAgent(t, s, id, agentstate.Waiting)
	if info.AgentRule != "question + hook PermissionRequest" || info.AgentStateSince.After(hookAt.Add(time.Second)) {
		t.Errorf("waiting with the hook: %q since %s (hook at %s)", info.AgentRule, info.AgentStateSince, hookAt)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
	for {
		select {
		case ev := <-sub.C:
			if ev.Type == EventNotify {
				t.Fatalf("a run looked at was notified: %s", ev.Detail)
			}
		default:
			return
		}
	}
}

// An app that asks for focus reports hears where it stands: unfocused while nobody
// looks, focused when a viewer does, unfocused when the last one leaves.
func TestFocusReachesTheApp(t *testing.T) {
	s := newSup(t, WithScreens())
	id := spawn(t, s, childSpec(true, "keys", "focus"))
	waitOutput(t, s, id, "got 1b5b4f") // ESC [ O: nobody looks
	s.Focus(id, "ui-1", true)
	waitOutput(t, s, id, "got 1b5b49") // ESC [ I
	s.Focus(id, "ui-2", true)
	s.Unfocus("ui-1")
	s.Focus(id, "ui-2", false)
	out := string(waitOutput(t, s, id, "1b5b49\r\ngot 1b5b4f"))
	if strings.Count(out, "1b5b49") != 1 {
		t.Errorf("one focus-in for two viewers: %q", out)
	}
}

// A run names its agent, or its command does; a name no rules know is refused, and
// a run that is no agent has no state.
func TestAgentOfARun(t *testing.T) {
	s := newSup(t, WithScreens(), WithAgents(toySet(t)))
	if _, err := s.Spawn(Spec{Shell: "true", PTY: true, Agent: "nope"}); err == nil || !strings.Contains(err.Error(), `no agent "nope"`) {
		t.Errorf("unknown agent: %v", err)
	}
	id, _ := s.Spawn(Spec{Argv: []string{"toy-agent"}, PTY: true}) // recognised, though it fails to start
	if info, _ := s.Info(id); info.Agent != "toy" {
		t.Errorf("recognised by command: %q", info.Agent)
	}
	id = spawn(t, s, Spec{Shell: "sleep 5", PTY: true})
	if info, _ := s.Info(id); info.Agent != "" || info.AgentState != agentstate.Unknown {
		t.Errorf("not an agent: %+v", info)
	}
	if _, err := s.Explain(id); err == nil {
		t.Error("explain of a run that is no agent")
	}
	s.Cancel(id)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s.Wait(ctx, id)
}

// slowStart prints its start-up in pieces over about 1.2 s, throws away what was
// typed meanwhile, then echoes the first line it reads as "got …". Its screen
// matches none of the toy's rules.
const slowStart = `printf 'starting'; for i in 1 2 3; do sleep 0.4; printf .; done
while read -t 0.05 -r junk; do :; done
printf '\r\nready: '; read -r line; printf '\r\ngot %s\r\n' "$line"; sleep 60`

// A submit to a run that is no agent, and to an agent whose state is unknown, waits
// until the start-up output has gone quiet (typed at once, the text was thrown away)
// and says so; one to a run that never goes quiet gives up with ErrNotReady, saying
// what it waited for, and types nothing.
func TestSubmitReadyQuietFallback(t *testing.T) {
	s := newSup(t, WithScreens(), WithAgents(toySet(t)))
	for _, c := range []struct {
		agent, raw, ready string
		after             time.Duration
	}{
		{AgentNone, "", "output quiet 3s (no known agent, terminal in line mode)", 3500 * time.Millisecond},
		{"toy", "", "output quiet 3s (agent state unknown, terminal in line mode)", 3500 * time.Millisecond},
		// A full-screen app takes its keys in raw mode: a quiet second then does.
		{"toy", "stty -icanon -echo; ", "output quiet 1s (agent state unknown)", 1500 * time.Millisecond},
	} {
		id := spawn(t, s, Spec{Name: "slow", Shell: c.raw + slowStart, PTY: true, Agent: c.agent})
		res, err := s.SubmitReady(context.Background(), id, "hello", 20*time.Second)
		if err != nil || res.Ready != c.ready || res.Waited < c.after {
			t.Fatalf("agent %q: %+v %v", c.agent, res, err)
		}
		waitOutput(t, s, id, "got hello")
		if info, _ := s.Info(id); info.AgentState != agentstate.Unknown {
			t.Errorf("agent %q: state %s", c.agent, info.AgentState)
		}
	}
	id := spawn(t, s, Spec{Name: "busy", PTY: true,
		Shell: `(while :; do echo tick; sleep 0.1; done) & read -r line; echo "got $line"; sleep 60`})
	_, err := s.SubmitReady(context.Background(), id, "never", 3500*time.Millisecond)
	if !errors.Is(err, ErrNotReady) || !strings.Contains(err.Error(), "waited for its output to be quiet for 3s (no known agent, terminal in line mode)") {
		t.Errorf("a run that never goes quiet: %v", err)
	}
	if out, _ := s.Log(id); strings.Contains(string(out.Bytes()), "never") {
		t.Error("the text was typed into a run that was not ready")
	}
}

// A known agent that has printed nothing is starting, however long it is silent: a
// submit waits for its screen (here past readySilentStart, as a loaded machine kept a
// toy silent), and the text lands at its prompt instead of in what it throws away.
func TestSubmitWaitsForASilentAgentsScreen(t *testing.T) {
	s := newSup(t, WithScreens(), WithAgents(toySet(t)))
	silent := fmt.Sprintf("sleep %.1f; %s", (readySilentStart + time.Second).Seconds(), slowStart)
	id := spawn(t, s, Spec{Name: "silent", Shell: silent, PTY: true, Agent: "toy"})
	res, err := s.SubmitReady(context.Background(), id, "hello", 20*time.Second)
	if err != nil {
		t.Fatalf("%+v %v", res, err)
	}
	waitOutput(t, s, id, "got hello")
}

// The record (corral ls) says the rule Info does, also when only the rule changed (a
// hook's word on the state shown).
func TestAgentRuleInTheRecord(t *testing.T) {
	reg := openReg(t, t.TempDir())
	s := regSup(t, reg, WithScreens(), WithAgents(toySet(t)))
	id := spawn(t, s, Spec{Name: "toy", Shell: toyScript, PTY: true, Agent: "toy"})
	waitAgent(t, s, id, agentstate.Idle)
	if err := s.Hook(id, agentstate.HookReport{State: agentstate.Idle, Event: "Stop"}); err != nil {
		t.Fatal(err)
	}
	info, _ := s.Info(id)
	if info.AgentRule != "prompt + hook Stop" {
		t.Fatalf("rule %q", info.AgentRule)
	}
	rec, ok := eventually.Within(5*time.Second, func() (Record, bool) {
		rec, err := reg.record(id)
		return rec, err == nil && rec.AgentRule == info.AgentRule && rec.AgentState == info.AgentState
	})
	if !ok {
		t.Errorf("record: %s by %q; info: %s by %q", rec.AgentState, rec.AgentRule, info.AgentState, info.AgentRule)
	}
}
