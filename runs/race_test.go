package runs

import (
	"fmt"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/reaper"
	"corral/watchdog"
)

func fakeSup(t *testing.T) (*Supervisor, *watchdog.FakeClock) {
	clk := watchdog.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	return newSup(t, WithClock(clk)), clk
}

// waitTimers waits until the fake clock has at least n pending timers, i.e. the run's
// watchdog armed. Driven by events: arming happens on the move to running.
func waitArmed(t *testing.T, s *Supervisor, id string, clk *watchdog.FakeClock) {
	t.Helper()
	waitState(t, s, id, Running)
	if clk.Timers() == 0 {
		t.Fatal("watchdog not armed after running")
	}
}

// Exit observed first, deadline after: the reason is exit. The finalize hook holds the
// run in exiting while the overall deadline passes.
func TestExitBeforeTimeout(t *testing.T) {
	s, clk := fakeSup(t)
	inFinalize, release := make(chan struct{}), make(chan struct{})
	s.finalizeHook = func(string) { close(inFinalize); <-release }
	spec := childSpec(false, "exit", "0")
	spec.Timeout = 10 * time.Second
	id := spawn(t, s, spec)
	<-inFinalize
	if info, _ := s.Info(id); info.State != Exiting || info.Reason != Exit {
		t.Fatalf("in finalize: %s/%s, want exiting/exit", info.State, info.Reason)
	}
	clk.Advance(11 * time.Second) // the deadline fires now, after the exit was observed
	close(release)
	info := waitEnd(t, s, id)
	if info.Reason != Exit {
		t.Fatalf("reason %s, want exit", info.Reason)
	}
}

// Deadline first, exit after: the reason is the timeout, even though the child then
// exits (here with status 0 after SIGTERM's default action… or killed).
func TestTimeoutBeforeExit(t *testing.T) {
	s, clk := fakeSup(t)
	spec := childSpec(false, "readline")
	spec.Timeout = 10 * time.Second
	spec.NoOutputTimeout = -1 // else the derived 9 s no-output deadline comes first
	id := spawn(t, s, spec)
	waitArmed(t, s, id, clk)
	clk.Advance(11 * time.Second)
	info := waitEnd(t, s, id)
	if info.Reason != OverallTimeout {
		t.Fatalf("reason %s, want overall-timeout", info.Reason)
	}
}

func TestDuplicateCancelAndFinalize(t *testing.T) {
	s := newSup(t)
	_, sub := s.Subscribe()
	defer sub.Close()
	id := spawn(t, s, childSpec(false, "sleep"))
	waitOutput(t, s, id, "ready")
	s.Cancel(id)
	s.Cancel(id)
	s.Stop(id, OverallTimeout)
	info := waitEnd(t, s, id)
	if info.Reason != ManualCancel {
		t.Fatalf("reason %s, want the first cause, manual-cancel", info.Reason)
	}
	// After exit: cancel and a second finalize change nothing.
	s.Cancel(id)
	r, _ := s.get(id)
	closed := make(chan struct{})
	close(closed)
	r.finalize(closed)
	if again, _ := s.Info(id); again.Seq != info.Seq || again.Reason != ManualCancel {
		t.Fatalf("info changed after exit: seq %d→%d reason %s", info.Seq, again.Seq, again.Reason)
	}
	cancels, exits := 0, 0
	for ev := range sub.C {
		if ev.Run.ID != id {
			continue
		}
		switch ev.Type {
		case EventCancel:
			cancels++
		case EventExit:
			exits++
		}
		if exits == 1 {
			break
		}
	}
	if cancels != 1 || exits != 1 {
		t.Fatalf("cancel events %d, exit events %d; want 1 and 1", cancels, exits)
	}
}

// A cancel while the run is starting ends it without ever starting the process.
func TestCancelWhileStarting(t *testing.T) {
	s := newSup(t)
	s.startHook = func(id string) {
		if err := s.Cancel(id); err != nil {
			t.Error(err)
		}
	}
	id, err := s.Spawn(childSpec(false, "sleep"))
	if err != nil {
		t.Fatal(err)
	}
	info := waitEnd(t, s, id)
	if info.Reason != ManualCancel || info.PID != 0 {
		t.Fatalf("reason %s pid %d, want manual-cancel and no process", info.Reason, info.PID)
	}
}

// Pause freezes the no-output deadline but not the overall one; the paused processes
// are really stopped; resume restores the remaining no-output time.
func TestPauseResume(t *testing.T) {
	kinds(t, func(t *testing.T, pty bool) {
		s, clk := fakeSup(t)
		spec := childSpec(pty, "silent")
		spec.NoOutputTimeout = 10 * time.Second
		spec.Timeout = 60 * time.Second
		id := spawn(t, s, spec)
		waitArmed(t, s, id, clk)
		waitOutput(t, s, id, "silent")
		if err := s.Pause(id); err != nil {
			t.Fatal(err)
		}
		info, _ := s.Info(id)
		waitPaused(t, info)
		clk.Advance(30 * time.Second) // three no-output spans: frozen, nothing fires
		if info, _ := s.Info(id); info.State != Running || !info.Watchdog.Frozen {
			t.Fatalf("after pause: %s frozen=%v", info.State, info.Watchdog.Frozen)
		}
		if err := s.Resume(id); err != nil {
			t.Fatal(err)
		}
		clk.Advance(11 * time.Second)
		if info := waitEnd(t, s, id); info.Reason != NoOutputTimeout {
			t.Fatalf("reason %s, want no-output-timeout after resume", info.Reason)
		}
	})
}

func TestOverallFiresWhilePaused(t *testing.T) {
	s, clk := fakeSup(t)
	spec := childSpec(false, "tree", "1")
	spec.Timeout = 10 * time.Second
	id := spawn(t, s, spec)
	waitArmed(t, s, id, clk)
	out := waitOutput(t, s, id, "tree ready")
	if err := s.Pause(id); err != nil {
		t.Fatal(err)
	}
	clk.Advance(11 * time.Second)
	info := waitEnd(t, s, id)
	if info.Reason != OverallTimeout {
		t.Fatalf("reason %s, want overall-timeout", info.Reason)
	}
	if info.Cleanup.Hard != 0 {
		t.Errorf("a paused run needed SIGKILL: SIGCONT must follow SIGTERM (%+v)", info.Cleanup)
	}
	assertPIDsGone(t, pidsAfter(out, "member"))
}

// waitProcState waits for a process to reach a scheduler state. The kernel sends no
// event for this, so it polls /proc against a deadline.
func waitProcState(t *testing.T, pid int, want byte) {
	t.Helper()
	eventually.True(t, 10*time.Second, fmt.Sprintf("pid %d in state %c", pid, want), func() bool {
		p, err := reaper.ReadProc(pid)
		return err == nil && p.State == want
	})
}

// waitPaused waits until a paused run's processes are stopped: its cgroup frozen, or
// its root in state T (SIGSTOP takes effect asynchronously).
func waitPaused(t *testing.T, info Info) {
	t.Helper()
	if info.Cgroup == "" {
		waitProcState(t, info.PID, 'T')
		return
	}
	cg := &reaper.Cgroup{Path: info.Cgroup}
	eventually.True(t, 10*time.Second, "the run's cgroup frozen", func() bool {
		f, err := cg.Frozen()
		return err == nil && f
	})
}
