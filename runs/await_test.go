package runs

import (
	"testing"
	"time"
)

// An agent that rang for its human is not killed for waiting at its prompt: the
// no-output deadline does not run until it gets input (issue 14.5), then it does.
func TestNoOutputWaitsForTheHuman(t *testing.T) {
	s, clk := fakeSup(t)
	s.screens = true // the UI's and corral run's: the bell is seen on the screen
	spec := childSpec(true, "bell")
	spec.NoOutputTimeout = 20 * time.Second
	id := spawn(t, s, spec)
	waitOutput(t, s, id, "waiting for you")
	waitFrozen(t, s, id, true)
	clk.Advance(time.Hour)
	if info, _ := s.Info(id); info.State != Running {
		t.Fatalf("killed while waiting for input: %s/%s", info.State, info.Reason)
	}
	if err := s.Write(id, []byte("hi\r")); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, s, id, "you said hi") // it rings again: still waiting
	waitFrozen(t, s, id, true)
	clk.Advance(time.Hour)
	if info, _ := s.Info(id); info.State != Running {
		t.Fatalf("killed while waiting again: %s/%s", info.State, info.Reason)
	}
	// Input it does not answer with a bell: the deadline runs again, and fires.
	s.Write(id, []byte{0x1b})
	waitFrozen(t, s, id, false)
	clk.Advance(21 * time.Second)
	if info := waitEnd(t, s, id); info.Reason != NoOutputTimeout {
		t.Fatalf("ended %s, want no-output-timeout", info.Reason)
	}
}

// An agent that says in its title that it waits (a spinner that stops, as Claude Code
// and codex do; neither rings at its prompt) is not killed for waiting; input, or its
// title spinning again, judges its silence again (issue 14.5, measured with the CLIs).
func TestNoOutputWaitsForAnAgentsTitle(t *testing.T) {
	s, clk := fakeSup(t)
	s.screens = true
	spec := childSpec(true, "title-agent")
	spec.NoOutputTimeout = 20 * time.Second
	id := spawn(t, s, spec)
	waitOutput(t, s, id, "ready for you")
	waitFrozen(t, s, id, true)
	clk.Advance(time.Hour)
	if info, _ := s.Info(id); info.State != Running {
		t.Fatalf("killed while waiting at its prompt: %s/%s", info.State, info.Reason)
	}
	if err := s.Write(id, []byte("task\r")); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, s, id, "done") // it worked, then said it waits again
	waitFrozen(t, s, id, true)
	clk.Advance(time.Hour)
	if info, _ := s.Info(id); info.State != Running {
		t.Fatalf("killed while waiting again: %s/%s", info.State, info.Reason)
	}
	s.Write(id, []byte{0x1b}) // input it does not answer: judged again, and fires
	waitFrozen(t, s, id, false)
	clk.Advance(21 * time.Second)
	if info := waitEnd(t, s, id); info.Reason != NoOutputTimeout {
		t.Fatalf("ended %s, want no-output-timeout", info.Reason)
	}
}

// waitFrozen waits until the run's no-output deadline is (or is no longer) frozen.
func waitFrozen(t *testing.T, s *Supervisor, id string, frozen bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := s.get(id)
		if err != nil {
			t.Fatal(err)
		}
		if r.wd.State().Frozen == frozen {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no-output deadline frozen = %v, want %v", !frozen, frozen)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
