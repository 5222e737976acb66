package runs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/runs/agentstate"
)

// Every attempt of a restarted service is an agent's run as a new run is: recognised
// again (from its command, from the terminal's foreground, or forced), its states
// followed and its questions told, and nothing of the previous attempt stands — the
// first attempt, killed while it asked a question, leaves no "waiting" on the second,
// whose prompt is drawn below where that question was.
func TestAgentEveryAttempt(t *testing.T) {
	shortTurns(t)
	keysAreNews(t)
	_, path := toyBin(t)
	for _, tt := range []struct {
		name string
		spec Spec
		by   string
	}{
		{"command", Spec{Argv: []string{"env", path, "toy-agent"}, PTY: true}, "from the command"},
		{"foreground", Spec{Argv: []string{"sh", "-c", "cd / && toy-agent"}, Env: []string{path}, PTY: true}, "from the foreground process "},
		{"forced", Spec{Shell: toyScript, PTY: true, Agent: "toy"}, "forced"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newSup(t, WithScreens(), WithAgents(toySet(t)), WithNotify(NotifyConfig{MinInterval: time.Millisecond}))
			_, sub := s.Subscribe()
			defer sub.Close()
			spec := tt.spec
			spec.Restart = &RestartSpec{Policy: RestartOnFailure} // at once, no limit
			id := spawn(t, s, spec)
			told := func(n int) { // the attempt's question was told
				t.Helper()
				ev, ok := eventually.Event(waitLimit, sub.C, func(ev Event) bool {
					return ev.Type == EventNotify && ev.Run.ID == id && strings.Contains(ev.Detail, "waits for you")
				})
				if !ok {
					t.Fatalf("attempt %d's question was not told", n)
				}
				if a := ev.Run.Service.attempt(); a != n {
					t.Fatalf("a question told of attempt %d, want %d", a, n)
				}
			}
			waitAgent(t, s, id, agentstate.Idle)
			for _, want := range []agentstate.State{agentstate.Working, agentstate.Waiting} {
				if err := s.Write(id, []byte("\r")); err != nil {
					t.Fatal(err)
				}
				waitAgent(t, s, id, want)
			}
			told(1)
			info, _ := s.Info(id)
			if err := syscall.Kill(info.PID, syscall.SIGKILL); err != nil { // attempt 1 dies asking
				t.Fatal(err)
			}
			// Attempt 2 is idle at its prompt, and never said waiting on the way.
			var said []string
			waitInfo(t, s, id, "attempt 2 idle", func(i Info) bool {
				if i.Service.attempt() == 2 && i.AgentState != agentstate.Unknown {
					said = append(said, i.AgentState.String())
				}
				return i.Service.attempt() == 2 && i.State == Running && i.AgentState == agentstate.Idle
			})
			for _, st := range said {
				if st != "idle" {
					t.Errorf("attempt 2 said %q before its prompt: %q", st, said)
				}
			}
			info, _ = s.Info(id)
			if info.Agent != "toy" || !strings.HasPrefix(info.AgentBy, tt.by) || info.AgentRule != "prompt" {
				t.Errorf("attempt 2: agent %q by %q rule %q, want toy %s…", info.Agent, info.AgentBy, info.AgentRule, tt.by)
			}
			for _, want := range []agentstate.State{agentstate.Working, agentstate.Waiting} {
				if err := s.Write(id, []byte("\r")); err != nil {
					t.Fatal(err)
				}
				waitAgent(t, s, id, want)
			}
			told(2)
			s.Cancel(id)
			waitEnd(t, s, id)
		})
	}
}

// The next attempt keeps a conversation its command line names (pinned or resumed),
// and forgets one learnt from the previous attempt's agent.
func TestForgetAgentKeepsOnlyANamedConversation(t *testing.T) {
	pinned := Info{SessionID: "0f3c", Spec: Spec{Argv: []string{"claude", "--session-id", "0f3c"}}, AgentStatus: AgentStatus{AgentState: agentstate.Waiting, Agent: "claude"}}
	forgetAgentLocked(&pinned)
	learnt := Info{SessionID: "77aa", Spec: Spec{Argv: []string{"codex"}}}
	forgetAgentLocked(&learnt)
	if pinned.SessionID != "0f3c" || pinned.AgentState != agentstate.Unknown || pinned.Agent != "" || learnt.SessionID != "" {
		t.Errorf("pinned %+v, learnt %q", pinned, learnt.SessionID)
	}
}

// A bell the first attempt rang is not the next attempt's: an agent whose rules say a
// bell not answered yet is a question is idle at the next attempt's prompt.
func TestAgentAttemptBellNotCarried(t *testing.T) {
	rules := testkit.ToyRules + `
[[rule]]
name = "bell"
state = "waiting"
priority = 200
region = "notice"
any = ['.']
`
	a, err := agentstate.ParseRules("toy.toml", []byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	s := newSup(t, WithScreens(), WithAgents(agentstate.NewSet(a)))
	spec := Spec{Shell: `printf '\033]0;toy\007> '; read x; printf '\a'; sleep 30`, PTY: true, Agent: "toy",
		Restart: &RestartSpec{Policy: RestartOnFailure}}
	id := spawn(t, s, spec)
	waitAgent(t, s, id, agentstate.Idle)
	if err := s.Write(id, []byte("\r")); err != nil {
		t.Fatal(err)
	}
	if info := waitAgent(t, s, id, agentstate.Waiting); info.AgentRule != "bell" {
		t.Fatalf("attempt 1 waiting by %q, want the bell", info.AgentRule)
	}
	info, _ := s.Info(id)
	if err := syscall.Kill(info.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitInfo(t, s, id, "attempt 2 idle", func(i Info) bool {
		if i.Service.attempt() == 2 && i.AgentState == agentstate.Waiting {
			t.Fatalf("attempt 2 waiting by %q: the first attempt's bell", i.AgentRule)
		}
		return i.Service.attempt() == 2 && i.State == Running && i.AgentState == agentstate.Idle
	})
	s.Cancel(id)
	waitEnd(t, s, id)
}

// sessToyScript is a toy agent that keeps conversations as Claude Code does: a
// pinned id (--session-id) it already has is refused, a resumed one (--resume) must
// exist, and a conversation is written at its first turn. It prints which it did.
const sessToyScript = `conv=$CONV; mode=$1; id=$2
case $mode in
--session-id) if [ -e "$conv/$id" ]; then echo "Error: Session ID $id is already in use."; exit 1; fi; echo "new $id";;
--resume) if [ ! -e "$conv/$id" ]; then echo "No conversation found with session ID: $id"; exit 1; fi; echo "resumed $id";;
esac
printf '\033]0;toy\007> '; read a
: > "$conv/$id"
printf '\033]0;\342\240\202 toy\007\033[2J\033[Hthinking'; read b`

// sessToySet is the toy agent with Claude Code's [session] table.
func sessToySet(t *testing.T) *agentstate.Set {
	t.Helper()
	a, err := agentstate.ParseRules("toy.toml", []byte(testkit.ToyRules+`
[session]
pin    = ["--session-id", "{id}"]
given  = ["--session-id", "--resume"]
id     = '^[0-9a-f-]{36}$'
resume = ["--resume", "{id}"]
drop   = ["--session-id=", "--resume="]
`))
	if err != nil {
		t.Fatal(err)
	}
	return agentstate.NewSet(a)
}

// A service's next attempt, and a restart of the ended run, resume the conversation
// once it has had a turn: the CLI keeps it and refuses its id pinned again, so the
// same command line would fail at once on every attempt. Before its first turn the
// pinned id is free still, and the command stays as it was.
func TestNextAttemptResumesTheConversation(t *testing.T) {
	shortTurns(t)
	dir := t.TempDir()
	conv := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "toy-agent"), []byte("#!/bin/sh\n"+sessToyScript+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := newSup(t, WithScreens(), WithAgents(sessToySet(t)))
	spec := Spec{Argv: []string{filepath.Join(dir, "toy-agent")}, PTY: true, Env: []string{"CONV=" + conv},
		Restart: &RestartSpec{Policy: RestartOnFailure}}
	id := spawn(t, s, spec)
	info := waitAgent(t, s, id, agentstate.Idle)
	sid := info.SessionID
	if sid == "" || !slices.Equal(info.Spec.Argv[1:], []string{"--session-id", sid}) || info.Conversed {
		t.Fatalf("launched as %q, session %q, conversed %v", info.Spec.Argv, sid, info.Conversed)
	}
	kill := func() {
		t.Helper()
		i, _ := s.Info(id)
		if err := syscall.Kill(i.PID, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	// Attempt 1 dies before any turn: attempt 2 pins the same id again.
	kill()
	info = waitInfo(t, s, id, "attempt 2 idle", func(i Info) bool {
		return i.Service.attempt() == 2 && i.State == Running && i.AgentState == agentstate.Idle
	})
	if !slices.Equal(info.Spec.Argv[1:], []string{"--session-id", sid}) {
		t.Errorf("attempt 2 after no turn: %q", info.Spec.Argv)
	}
	// A turn: the conversation is kept. Attempt 3 resumes it, and so does attempt 4.
	if err := s.Write(id, []byte("\r")); err != nil {
		t.Fatal(err)
	}
	waitInfo(t, s, id, "a turn", func(i Info) bool { return i.AgentState == agentstate.Working && i.Conversed })
	for n := 3; n <= 4; n++ {
		kill()
		info = waitInfo(t, s, id, fmt.Sprintf("attempt %d idle", n), func(i Info) bool {
			return i.Service.attempt() == n && i.State == Running && i.AgentState == agentstate.Idle
		})
		if !slices.Equal(info.Spec.Argv[1:], []string{"--resume", sid}) || info.SessionID != sid {
			t.Fatalf("attempt %d: %q, session %q", n, info.Spec.Argv, info.SessionID)
		}
		if scr, err := s.Screen(id); err != nil || !strings.Contains(scr.Text(), "resumed "+sid) {
			t.Fatalf("attempt %d's screen (%v):\n%s", n, err, scr.Text())
		}
	}
	// Ended, then restarted: a new run resumes it.
	s.Cancel(id)
	waitEnd(t, s, id)
	nid, err := s.Restart(id)
	if err != nil {
		t.Fatal(err)
	}
	info = waitAgent(t, s, nid, agentstate.Idle)
	if nid == id || !slices.Equal(info.Spec.Argv[1:], []string{"--resume", sid}) || info.SessionID != sid {
		t.Fatalf("the restarted run %s: %q, session %q", nid, info.Spec.Argv, info.SessionID)
	}
	// While it lives, restarting the ended run again would resume its conversation
	// twice: refused.
	if _, err := s.Restart(id); !errors.Is(err, ErrConversationHeld) {
		t.Errorf("a second restart while the first holds the conversation: %v", err)
	}
	s.Cancel(nid)
	waitEnd(t, s, nid)
}

// A restart of an ended run that would resume its conversation is refused while a
// run of another Corral on the state dir holds it (its record says so), and several
// restarts at once (the UI's and the web page's) start one run, the others refused.
func TestRestartResumesOnce(t *testing.T) {
	shortTurns(t)
	dir := t.TempDir()
	conv := t.TempDir()
	agent := filepath.Join(dir, "toy-agent")
	if err := os.WriteFile(agent, []byte("#!/bin/sh\n"+sessToyScript+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	s := regSup(t, openReg(t, state), WithScreens(), WithAgents(sessToySet(t)))
	other := regSup(t, openReg(t, state), WithScreens(), WithAgents(sessToySet(t))) // another Corral
	id := spawn(t, s, Spec{Argv: []string{agent}, PTY: true, Env: []string{"CONV=" + conv}})
	sid := waitAgent(t, s, id, agentstate.Idle).SessionID
	if err := s.Write(id, []byte("\r")); err != nil {
		t.Fatal(err)
	}
	waitInfo(t, s, id, "a turn", func(i Info) bool { return i.AgentState == agentstate.Working && i.Conversed })
	s.Cancel(id)
	waitEnd(t, s, id)
	oid := spawn(t, other, Spec{Argv: []string{agent, "--resume", sid}, PTY: true, Env: []string{"CONV=" + conv}})
	if i := waitAgent(t, other, oid, agentstate.Idle); i.SessionID != sid {
		t.Fatalf("the other Corral's run holds %q", i.SessionID)
	}
	if nid, err := s.Restart(id); !errors.Is(err, ErrConversationHeld) {
		t.Errorf("a restart while another Corral's run holds the conversation: %s, %v", nid, err)
		if err == nil {
			s.Cancel(nid)
			waitEnd(t, s, nid)
		}
	}
	other.Cancel(oid)
	waitEnd(t, other, oid)
	const n = 6
	var mu sync.Mutex
	var started []string
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			nid, err := s.Restart(id)
			if err == nil {
				mu.Lock()
				started = append(started, nid)
				mu.Unlock()
			} else if !errors.Is(err, ErrConversationHeld) {
				t.Errorf("restart: %v", err)
			}
		})
	}
	wg.Wait()
	for _, nid := range started {
		s.Cancel(nid)
		waitEnd(t, s, nid)
	}
	if len(started) != 1 {
		t.Errorf("%d restarts at once started %v, want one", n, started)
	}
}

// A question before the first prompt (Claude Code's folder trust, a login, a theme)
// is no turn: the conversation is not written yet, and a next attempt pins the same
// id again; resuming it would fail at once ("No conversation found"), every attempt.
func TestQuestionBeforeTheFirstTurnIsNoConversation(t *testing.T) {
	shortTurns(t)
	dir := t.TempDir()
	conv := t.TempDir()
	script := strings.Replace(sessToyScript, "printf '\\033]0;toy\\007> '; read a",
		"printf '\\033]0;toy\\007Allow toy to run in this folder?\\r\\n 1. Yes\\r\\n'; read q\nprintf '\\033[2J\\033[H> '; read a", 1)
	if script == sessToyScript {
		t.Fatal("the toy's first prompt was not found")
	}
	if err := os.WriteFile(filepath.Join(dir, "toy-agent"), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := newSup(t, WithScreens(), WithAgents(sessToySet(t)))
	spec := Spec{Argv: []string{filepath.Join(dir, "toy-agent")}, PTY: true, Env: []string{"CONV=" + conv},
		Restart: &RestartSpec{Policy: RestartOnFailure}}
	id := spawn(t, s, spec)
	info := waitAgent(t, s, id, agentstate.Waiting)
	sid := info.SessionID
	if info.Conversed {
		t.Errorf("conversed at a question before any turn")
	}
	if err := syscall.Kill(info.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	info = waitInfo(t, s, id, "attempt 2 at its question", func(i Info) bool {
		return i.Service.attempt() >= 2 && i.State == Running && i.AgentState == agentstate.Waiting
	})
	if info.Service.attempt() != 2 || !slices.Equal(info.Spec.Argv[1:], []string{"--session-id", sid}) {
		t.Errorf("attempt %d after a question and no turn: %q", info.Service.attempt(), info.Spec.Argv)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}
