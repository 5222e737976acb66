package runs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs/agentstate"
	"corral/watchdog"
)

// Toy screens (testkit.ToyRules): its prompt, working, its question, and a screen no rule knows.
const (
	toyIdle    = `printf '\033]0;toy\007\033[2J\033[Hdone\r\n> '`
	toyWork    = `printf '\033]0;\342\240\202 toy\007\033[2J\033[Hthinking'`
	toyAsk     = `printf '\033]0;toy\007\033[2J\033[HAllow toy to run ls?\r\n 1. Yes\r\n 2. No\r\n'`
	toyUnknown = `printf '\033]0;toy\007\033[2J\033[Hbooting'`
)

// toySteps is a toy agent that shows each screen in turn and moves on to the next
// when the file of that name appears in dir (its own work: no input reaches the run)
// or, for "", when a line is typed.
func toySteps(dir string, steps ...[2]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "w() { while [ ! -e %q/$1 ]; do sleep 0.01; done; }\n", dir)
	for _, s := range steps {
		if s[1] == "" {
			fmt.Fprintf(&b, "%s; read x\n", s[0])
		} else {
			fmt.Fprintf(&b, "%s; w %s\n", s[0], s[1])
		}
	}
	return b.String()
}

// notifySup is a supervisor with a registry in dir, following the toy on a fake clock,
// with the default rate limit.
func notifySup(t *testing.T, dir string) (*Supervisor, *watchdog.FakeClock) {
	clk := watchdog.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := newSup(t, WithRegistry(openReg(t, dir)), WithClock(clk), WithScreens(), WithAgents(toySet(t)),
		WithNotify(NotifyConfig{MinInterval: 10 * time.Second}))
	return s, clk
}

// told is what events.jsonl in dir says of run id's notifications, in order: "sent:
// TEXT" for each one sent, the reason of each need not sent when it came.
func told(dir, id string) []string {
	b, _ := os.ReadFile(filepath.Join(dir, "events.jsonl"))
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) != nil || m["run_id"] != id {
			continue
		}
		switch m["msg"] {
		case "notify":
			out = append(out, fmt.Sprint("sent: ", m["detail"]))
		case "notify-suppressed":
			out = append(out, fmt.Sprint(m["reason"]))
		}
	}
	return out
}

// waitTold waits until told says want.
func waitTold(t *testing.T, dir, id string, want ...string) {
	t.Helper()
	got, ok := eventually.Within(10*time.Second, func() ([]string, bool) {
		got := told(dir, id)
		return got, slices.Equal(got, want)
	})
	if !ok {
		t.Fatalf("told:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A question and, 3 s later, the end of its turn under a 10 s rate limit: both are
// said, the second when the window ends. A window that holds a finished turn and a
// question still asked says both in one notification; a question answered before the
// window ends is not said. Every one held is an event with its reason, and the last
// told is in the run's record.
func TestNotifyCoalescesNeverDrops(t *testing.T) {
	dir := t.TempDir()
	s, clk := notifySup(t, dir)
	touch := func(name string) { os.WriteFile(filepath.Join(dir, name), nil, 0o600) }
	id := spawn(t, s, Spec{Name: "toy", PTY: true, Agent: "toy", Shell: toySteps(dir,
		[2]string{toyIdle, "a"}, [2]string{toyWork, "b"}, [2]string{toyAsk, ""}, [2]string{toyWork, "c"},
		[2]string{toyIdle, "d"}, [2]string{toyWork, "e"}, [2]string{toyAsk, ""}, [2]string{toyWork, "f"},
		[2]string{toyIdle, "g"}, [2]string{toyWork, "h"}, [2]string{toyAsk, ""})})
	step := func(name string, want agentstate.State) {
		t.Helper()
		if name == "" {
			s.Write(id, []byte("y\r"))
		} else {
			touch(name)
		}
		waitAgent(t, s, id, want)
	}
	waitAgent(t, s, id, agentstate.Idle)
	step("a", agentstate.Working)
	clk.Advance(2 * time.Second)
	step("b", agentstate.Waiting) // t=2: told at once
	asked := "sent: toy: toy waits for you — Allow toy to run ls?"
	waitTold(t, dir, id, asked) // before the answer: typed at once, it would be what answers the key
	clk.Advance(time.Second)
	step("", agentstate.Working) // t=3: answered
	clk.Advance(2 * time.Second)
	step("c", agentstate.Idle) // t=5: the turn ends, 3 s after the question
	waitTold(t, dir, id, asked, "coalesced")
	clk.Advance(7 * time.Second) // t=12: the window ends
	waitTold(t, dir, id, asked, "coalesced", "sent: toy: toy finished its turn")

	step("d", agentstate.Working) // t=12
	clk.Advance(2 * time.Second)
	step("e", agentstate.Waiting) // t=14: held
	waitTold(t, dir, id, asked, "coalesced", "sent: toy: toy finished its turn", "coalesced")
	clk.Advance(time.Second)
	step("", agentstate.Working) // t=15: answered while held
	clk.Advance(2 * time.Second)
	step("f", agentstate.Idle)    // t=17: a turn ends, held
	step("g", agentstate.Working) // t=17
	clk.Advance(2 * time.Second)
	step("h", agentstate.Waiting) // t=19: asked, held
	first := []string{asked, "coalesced", "sent: toy: toy finished its turn", "coalesced", "coalesced", "coalesced"}
	waitTold(t, dir, id, first...)
	clk.Advance(3 * time.Second) // t=22
	waitTold(t, dir, id, append(first, "answered", "sent: toy: toy finished its turn, then waits for you — Allow toy to run ls?")...)

	recs, err := s.reg.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if m := rec.AgentNotified; rec.ID == id && (m == nil || m.State != agentstate.Waiting ||
			m.How != "sent" || m.Episode != rec.AgentEpisode || m.Episode == 0) {
			t.Errorf("the record's last told: %+v (episode %d)", m, rec.AgentEpisode)
		}
	}
}

// What answers a key press is never announced: a question shown at once after input
// (an agent a restart left unknown, approved by a key), a turn interrupted by one.
// The same question again in its episode is a duplicate, one shown to a user who
// looks is seen. Each says why in events.jsonl, and nothing is sent.
func TestNotifyNeverForAKeyPress(t *testing.T) {
	dir := t.TempDir()
	s, clk := notifySup(t, dir)
	touch := func(name string) { os.WriteFile(filepath.Join(dir, name), nil, 0o600) }
	id := spawn(t, s, Spec{Name: "toy", PTY: true, Agent: "toy", Shell: toySteps(dir,
		[2]string{toyUnknown, ""}, [2]string{toyAsk, "a"}, [2]string{toyUnknown, "b"}, [2]string{toyAsk, ""},
		[2]string{toyWork, "c"}, [2]string{toyAsk, ""}, [2]string{toyWork, ""}, [2]string{toyIdle, ""})})
	waitOutput(t, s, id, "booting")
	s.Write(id, []byte("y\r"))
	waitAgent(t, s, id, agentstate.Waiting) // t=0, at once after the key: input
	waitTold(t, dir, id, "input")
	touch("a")
	waitAgent(t, s, id, agentstate.Unknown) // its screen redrawn, as a new server reads it
	touch("b")
	waitAgent(t, s, id, agentstate.Waiting) // the same question: duplicate
	waitTold(t, dir, id, "input", "duplicate")
	clk.Advance(2 * time.Second)
	s.Write(id, []byte("y\r"))
	waitAgent(t, s, id, agentstate.Working) // t=2
	clk.Advance(2 * time.Second)
	if err := s.Focus(id, "ui-1", true); err != nil {
		t.Fatal(err)
	}
	touch("c")
	waitAgent(t, s, id, agentstate.Waiting) // t=4, looked at: focused
	waitTold(t, dir, id, "input", "duplicate", "focused")
	s.Focus(id, "ui-1", false)
	s.Write(id, []byte("y\r"))
	waitAgent(t, s, id, agentstate.Working) // t=4
	clk.Advance(2 * time.Second)
	s.Write(id, []byte("\x1b\r"))
	waitAgent(t, s, id, agentstate.Idle) // t=6, interrupted: input
	waitTold(t, dir, id, "input", "duplicate", "focused", "input")
	clk.Advance(time.Minute)
	if got := told(dir, id); len(got) != 4 {
		t.Errorf("told: %q", got)
	}
}

// A server after this one (a crash, an upgrade) finds in the run's record what was
// told: when it reads the same question from the kept screen — unknown, then waiting,
// as the screen re-derives it — it is a duplicate, not announced again; an agent whose
// record says nothing was told is announced. (The new server is the registry opened
// again and the record's notes given to a run whose agent starts from unknown, as a
// re-adopted run's does.)
func TestNotifyNotRepeatedAfterRestart(t *testing.T) {
	dir := t.TempDir()
	s, clk := notifySup(t, dir)
	touch := func(name string) { os.WriteFile(filepath.Join(dir, name), nil, 0o600) }
	id := spawn(t, s, Spec{Name: "toy", PTY: true, Agent: "toy", Shell: toySteps(dir,
		[2]string{toyIdle, "a"}, [2]string{toyWork, "b"}, [2]string{toyAsk, ""})})
	waitAgent(t, s, id, agentstate.Idle)
	touch("a")
	waitAgent(t, s, id, agentstate.Working)
	clk.Advance(2 * time.Second)
	touch("b")
	waitAgent(t, s, id, agentstate.Waiting)
	waitTold(t, dir, id, "sent: toy: toy waits for you — Allow toy to run ls?")

	var rec Record
	eventually.True(t, 10*time.Second, "the record to keep what was told", func() bool {
		reg, err := OpenRegistry(dir, shortLeases())
		if err != nil {
			t.Fatal(err)
		}
		defer reg.Close()
		recs, _ := reg.List()
		for _, r := range recs {
			if r.ID == id {
				rec = r
			}
		}
		return rec.AgentNotified != nil
	})
	clk.Advance(time.Minute) // past the rate limit: only the episode can tell it was said
	for _, restored := range []bool{true, false} {
		gate := fmt.Sprintf("gate-%v", restored)
		again := spawn(t, s, Spec{Name: "toy", PTY: true, Agent: "toy", Shell: toySteps(dir,
			[2]string{"true", gate}, [2]string{toyAsk, ""})})
		r, err := s.get(again)
		if err != nil {
			t.Fatal(err)
		}
		if restored {
			r.restoreAgent(rec)
		}
		touch(gate)
		waitAgent(t, s, again, agentstate.Waiting)
		want := "duplicate"
		if !restored {
			want = "sent: toy: toy waits for you — Allow toy to run ls?"
		}
		waitTold(t, dir, again, want)
	}
}

// What the rate limit held when its server went (a crash, an upgrade) is said by the
// server after it, exactly once: when the old window ends, or at once if it has
// passed, by the same rules. The old run holds a finished turn and then a question
// (the record keeps both, with the window's end); one run given that record reads
// the question still on its screen (a duplicate, not a new need) and says both when
// the window ends; another, given it after the window, finds its agent working again
// and says the turn at once, the question answered. (As in the test above, the new
// server is the registry opened again and the record given to a run whose agent
// starts from unknown; restore, re-judgment and resumeNotes in the order Readopt
// calls them.)
func TestNotifyHeldSaidAfterRestart(t *testing.T) {
	dir := t.TempDir()
	s, clk := notifySup(t, dir)
	touch := func(name string) { os.WriteFile(filepath.Join(dir, name), nil, 0o600) }
	id := spawn(t, s, Spec{Name: "toy", PTY: true, Agent: "toy", Shell: toySteps(dir,
		[2]string{toyIdle, "a"}, [2]string{toyWork, "b"}, [2]string{toyIdle, "c"}, [2]string{toyWork, "d"},
		[2]string{toyIdle, "e"}, [2]string{toyWork, "f"}, [2]string{toyAsk, ""})})
	step := func(name string, want agentstate.State) {
		t.Helper()
		touch(name)
		waitAgent(t, s, id, want)
	}
	waitAgent(t, s, id, agentstate.Idle)
	step("a", agentstate.Working)
	clk.Advance(2 * time.Second)
	step("b", agentstate.Idle) // t=2: told at once
	turn := "sent: toy: toy finished its turn"
	waitTold(t, dir, id, turn)
	step("c", agentstate.Working)
	clk.Advance(2 * time.Second)
	step("d", agentstate.Idle) // t=4: held until t=12
	step("e", agentstate.Working)
	clk.Advance(2 * time.Second)
	step("f", agentstate.Waiting) // t=6: held too
	waitTold(t, dir, id, turn, "coalesced", "coalesced")

	var rec Record
	eventually.True(t, 10*time.Second, "the record to keep what is held", func() bool {
		reg, err := OpenRegistry(dir, shortLeases())
		if err != nil {
			t.Fatal(err)
		}
		defer reg.Close()
		recs, _ := reg.List()
		for _, r := range recs {
			if r.ID == id {
				rec = r
			}
		}
		return rec.AgentHeld != nil && len(rec.AgentHeld.Needs) == 2
	})
	// The old server is gone: its run's window never ends there.
	if err := s.Stop(id, ManualCancel); err != nil {
		t.Fatal(err)
	}
	waitEnd(t, s, id)
	waitTold(t, dir, id, turn, "coalesced", "coalesced", "ended", "ended")

	resumed := func(gate, screen string, want agentstate.State) string {
		t.Helper()
		again := spawn(t, s, Spec{Name: "toy", PTY: true, Agent: "toy", Shell: toySteps(dir,
			[2]string{"true", gate}, [2]string{screen, ""})})
		r, err := s.get(again)
		if err != nil {
			t.Fatal(err)
		}
		r.restoreAgent(rec)
		touch(gate)
		waitAgent(t, s, again, want)
		r.rejudgeAgent(rec)
		r.resumeNotes()
		return again
	}
	clk.Advance(2 * time.Second) // t=8: within the old window
	asked := resumed("gate-1", toyAsk, agentstate.Waiting)
	waitTold(t, dir, asked, "duplicate")
	clk.Advance(3 * time.Second) // t=11
	if got := told(dir, asked); len(got) != 1 {
		t.Fatalf("told before the window ends: %q", got)
	}
	clk.Advance(time.Second) // t=12: the old window ends
	both := "sent: toy: toy finished its turn, then waits for you — Allow toy to run ls?"
	waitTold(t, dir, asked, "duplicate", both)

	clk.Advance(time.Minute) // past the window: said at once
	working := resumed("gate-2", toyWork, agentstate.Working)
	waitTold(t, dir, working, "answered", turn)
	clk.Advance(time.Minute)
	waitTold(t, dir, asked, "duplicate", both)
	waitTold(t, dir, working, "answered", turn)

	// A run re-adopted without the agent the record names (it left while no server
	// watched): what was held is not said, and events.jsonl says so.
	gone := spawn(t, s, Spec{Name: "sh", PTY: true, Agent: AgentNone, Shell: "sleep 60"})
	r, err := s.get(gone)
	if err != nil {
		t.Fatal(err)
	}
	r.unclaimedHeld(rec, r.agent.Load())
	waitTold(t, dir, gone, "ended", "ended")
	s.Stop(gone, ManualCancel)
	waitEnd(t, s, gone)
}

// A detection whose notes were dropped (its run ended, or another agent took the
// terminal) says nothing more and leaves no timer: a transition judged just before
// the drop reaches notify after it, and a window's flush that comes after another
// agent took over does not speak for the one that left.
func TestNotifyNothingAfterDrop(t *testing.T) {
	dir := t.TempDir()
	s, clk := notifySup(t, dir)
	id := spawn(t, s, Spec{Name: "toy", PTY: true, Agent: "toy", Shell: toySteps(dir, [2]string{toyIdle, "a"})})
	waitAgent(t, s, id, agentstate.Idle)
	r, err := s.get(id)
	if err != nil {
		t.Fatal(err)
	}

	// A flush that finds another agent in the terminal: its held needs are not said.
	a := r.agent.Load()
	a.notes.mu.Lock()
	a.notes.sent = clk.Now()
	a.notes.mu.Unlock()
	turn := need{event: NotifyTurnEnded, state: agentstate.Idle, since: clk.Now()}
	s.notify(r, a, r.snapshot(), turn) // held: within the window
	waitTold(t, dir, id, "coalesced")
	r.agent.Store(r.newAgentRun(a.det.Agent())) // switchAgent's store, before its dropNotes
	s.flushNotes(r, a)                          // the window's timer, firing in between
	waitTold(t, dir, id, "coalesced", "ended")
	r.dropNotes(a)

	// A need after the drop: not sent, not held, no timer.
	ask := need{event: NotifyWaiting, state: agentstate.Waiting, since: clk.Now()}
	s.notify(r, a, r.snapshot(), ask)
	a.notes.mu.Lock()
	timer, held := a.notes.timer, len(a.notes.held)
	a.notes.mu.Unlock()
	if timer != nil || held != 0 {
		t.Errorf("after the drop: timer %v, %d held", timer, held)
	}
	clk.Advance(time.Minute)
	waitTold(t, dir, id, "coalesced", "ended", "ended")
}

// An ending run (its detection stopped) takes no new agent from its foreground: the
// detection would outlive the run's stopAgent, its timers with it.
func TestSwitchAgentWhileEnding(t *testing.T) {
	s := newSup(t, WithScreens(), WithAgents(toySet(t)))
	id := spawn(t, s, Spec{PTY: true, Shell: "read x"})
	r, err := s.get(id)
	if err != nil {
		t.Fatal(err)
	}
	if r.fg == nil {
		t.Skip("no foreground recognition here")
	}
	r.mu.Lock()
	r.ending = true
	r.mu.Unlock()
	if got := r.switchAgent(nil, toySet(t).Named("toy"), fgProc{}, "a test"); got != nil || r.agent.Load() != nil {
		got.stop()
		t.Errorf("an ending run took a new agent")
	}
	r.mu.Lock()
	r.ending = false // its end is the run's own
	r.mu.Unlock()
	s.Write(id, []byte("\r"))
	waitEnd(t, s, id)
}
