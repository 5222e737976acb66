package runs

import (
	"context"
	"testing"
	"time"
)

// A process that leaves its run's session after a shutdown began, while the runs are
// being stopped, is still found by the shutdown's one look for escapees and ended
// with its run: the look is taken after every run was stopped, not before.
func TestShutdownLooksAfterStopping(t *testing.T) {
	s, err := New(WithDefaults(testDefaults()), WithLogDir(t.TempDir()), WithEscapeDetection(), sessions())
	if err != nil {
		t.Fatal(err)
	}
	id := spawn(t, s, childSpec(true, "escape-later", "700ms"))
	waitState(t, s, id, Running)
	var escapee int
	s.shutdownHook = func() { // the run leaves its session now
		pids := pidsAfter(waitOutput(t, s, id, "escapee "), "escapee")
		if len(pids) != 1 {
			t.Fatalf("escapee pids %v", pids)
		}
		escapee = pids[0]
		killReapLater(t, pids) // if it outlived the shutdown, the test does not leave it
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	info, _ := s.Info(id)
	if info.State != Exited || !info.Cleanup.VerifiedEmpty {
		t.Fatalf("run %s, verified empty %v", info.State, info.Cleanup.VerifiedEmpty)
	}
	assertPIDsGone(t, []int{escapee})
	if info.Escapees < 1 {
		t.Errorf("escapees %d, want the one that left after the shutdown began", info.Escapees)
	}
}
