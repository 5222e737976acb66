package runs

import (
	"fmt"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/watchdog"
)

// An agent that waits for its human is not killed for waiting at its prompt: the
// no-output deadline does not run until it gets input, then it does. It
// says it waits by ringing, or (as Claude Code and codex do; neither rings at its
// prompt) with a title whose spinner stopped.
func TestNoOutputWaitsForTheHuman(t *testing.T) {
	tests := []struct{ child, ready, input, answer string }{
		{"bell", "waiting for you", "hi\r", "you said hi"}, // it rings again after answering
		{"title-agent", "ready for you", "task\r", "done"}, // spins, then stops again
	}
	for _, tt := range tests {
		t.Run(tt.child, func(t *testing.T) {
			s, clk := fakeSup(t)
			s.screens = true // the UI's and corral run's: what it says is seen on the screen
			spec := childSpec(true, tt.child)
			spec.NoOutputTimeout = 20 * time.Second
			id := spawn(t, s, spec)
			waitOutput(t, s, id, tt.ready)
			stillWaiting(t, s, clk, id)
			if err := s.Write(id, []byte(tt.input)); err != nil {
				t.Fatal(err)
			}
			waitOutput(t, s, id, tt.answer)
			stillWaiting(t, s, clk, id)
			// Input it does not answer: the deadline runs again, and fires. (Advanced
			// until it has: the terminal's echo of the input may come after a first
			// advance and count as output from then on.)
			s.Write(id, []byte{0x1b})
			waitFrozen(t, s, id, false)
			eventually.True(t, 20*time.Second, "the no-output deadline to end the run", func() bool {
				clk.Advance(21 * time.Second)
				i, _ := s.Info(id)
				return i.State != Running
			})
			if info := waitEnd(t, s, id); info.Reason != NoOutputTimeout {
				t.Fatalf("ended %s, want no-output-timeout", info.Reason)
			}
		})
	}
}

// stillWaiting checks that a run waiting for input is not judged: an hour of silence
// later it runs.
func stillWaiting(t *testing.T, s *Supervisor, clk *watchdog.FakeClock, id string) {
	t.Helper()
	waitFrozen(t, s, id, true)
	clk.Advance(time.Hour)
	if info, _ := s.Info(id); info.State != Running {
		t.Fatalf("killed while waiting for input: %s/%s", info.State, info.Reason)
	}
}

// waitFrozen waits until the run's no-output deadline is (or is no longer) frozen.
func waitFrozen(t *testing.T, s *Supervisor, id string, frozen bool) {
	t.Helper()
	r, err := s.get(id)
	if err != nil {
		t.Fatal(err)
	}
	eventually.True(t, 10*time.Second, fmt.Sprintf("no-output deadline frozen = %v", frozen), func() bool {
		return r.wd.State().Frozen == frozen
	})
}
