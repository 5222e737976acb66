package runs

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"corral/watchdog"
)

// waitInfo waits, driven by events, until run id's info satisfies cond.
func waitSvc(t *testing.T, s *Supervisor, id, what string, cond func(Info) bool) Info {
	t.Helper()
	_, sub := s.Subscribe()
	defer sub.Close()
	deadline := time.After(20 * time.Second)
	for {
		info, err := s.Info(id)
		if err != nil {
			t.Fatal(err)
		}
		if cond(info) {
			return info
		}
		select {
		case <-sub.C:
		case <-time.After(50 * time.Millisecond): // a probe's silent result is no event
		case <-deadline:
			t.Fatalf("timed out waiting for %s: state %s, service %+v", what, info.State, info.Service)
		}
	}
}

func restarting(n int) func(Info) bool {
	return func(i Info) bool {
		return i.State == Restarting && i.Service != nil && len(i.Service.Attempts) == n
	}
}

func onFailure(backoff, most time.Duration, maxRestarts int) *RestartSpec {
	return &RestartSpec{Policy: RestartOnFailure, Backoff: backoff, BackoffMax: most, MaxRestarts: maxRestarts, Window: time.Minute}
}

// A crash loop backs off 1 s, 2 s, 4 s (±10%) on the supervisor's clock, keeps every
// attempt's end with its reason, and gives up once its budget of three is spent.
func TestRestartCrashLoopBacksOffAndSpendsItsBudget(t *testing.T) {
	clk := watchdog.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := newSup(t, WithClock(clk))
	spec := childSpec(false, "exit", "3")
	spec.Restart = onFailure(time.Second, 4*time.Second, 3)
	id := spawn(t, s, spec)
	for n, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		i := waitSvc(t, s, id, fmt.Sprintf("restart %d", n+1), restarting(n+1))
		wait := i.Service.NextAt.Sub(clk.Now())
		if lo, hi := want*9/10, want*11/10; wait < lo || wait > hi {
			t.Fatalf("restart %d in %s, want %s ±10%%", n+1, wait, want)
		}
		if i.Service.Restarts != n+1 || i.Service.Attempt != n+1 {
			t.Fatalf("restart %d: restarts %d, attempt %d", n+1, i.Service.Restarts, i.Service.Attempt)
		}
		clk.Advance(wait - 50*time.Millisecond)
		if i, _ := s.Info(id); i.State != Restarting {
			t.Fatalf("attempt %d started before its backoff was over", n+2)
		}
		clk.Advance(50 * time.Millisecond)
	}
	info := waitEnd(t, s, id)
	svc := info.Service
	if info.Reason != Exit || *info.ExitCode != 3 || svc == nil || len(svc.Attempts) != 4 || svc.GaveUp == "" {
		t.Fatalf("after the budget: reason %s, service %+v", info.Reason, svc)
	}
	for k, a := range svc.Attempts {
		if a.N != k+1 || a.Reason != Exit || a.ExitCode == nil || *a.ExitCode != 3 || !a.VerifiedEmpty {
			t.Fatalf("attempt %d kept as %+v", k+1, a)
		}
	}
	if !strings.Contains(svc.GaveUp, "3 restarts") {
		t.Fatalf("gave up saying %q", svc.GaveUp)
	}
}

// on-failure does not restart a run that exited 0; always does.
func TestRestartOnFailureLeavesExitZero(t *testing.T) {
	s := newSup(t)
	spec := childSpec(false, "exit", "0")
	spec.Restart = onFailure(0, 0, 3)
	info := waitEnd(t, s, spawn(t, s, spec))
	if info.Reason != Exit || info.Service == nil || info.Service.Attempt != 1 || len(info.Service.Attempts) != 1 || info.Service.GaveUp != "" {
		t.Fatalf("exit 0 under on-failure: reason %s, service %+v", info.Reason, info.Service)
	}
	spec.Restart.Policy = RestartAlways
	info = waitEnd(t, s, spawn(t, s, spec))
	if len(info.Service.Attempts) != 4 {
		t.Fatalf("exit 0 under always: %d attempts, want 4 (three restarts)", len(info.Service.Attempts))
	}
}

// A cancel, while an attempt runs or while the run waits out its backoff, ends the
// run: no attempt follows.
func TestRestartCancelStopsTheLoop(t *testing.T) {
	clk := watchdog.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := newSup(t, WithClock(clk))
	spec := childSpec(false, "exit", "1")
	spec.Restart = onFailure(time.Second, 0, 0)
	id := spawn(t, s, spec)
	waitSvc(t, s, id, "restarting", restarting(1))
	if err := s.Cancel(id); err != nil {
		t.Fatal(err)
	}
	info := waitEnd(t, s, id)
	clk.Advance(time.Minute) // the backoff's timer, were it still armed
	if info.Reason != ManualCancel || info.Service.Attempt != 1 {
		t.Fatalf("cancelled while restarting: reason %s, attempt %d", info.Reason, info.Service.Attempt)
	}
	if i, _ := s.Info(id); i.State != Exited || i.Service.Attempt != 1 {
		t.Fatalf("a cancelled run started again: %s attempt %d", i.State, i.Service.Attempt)
	}

	spec = childSpec(false, "sleep")
	spec.Restart = &RestartSpec{Policy: RestartAlways}
	id = spawn(t, s, spec)
	waitOutput(t, s, id, "ready sleep")
	s.Cancel(id)
	info = waitEnd(t, s, id)
	if info.Reason != ManualCancel || len(info.Service.Attempts) != 1 {
		t.Fatalf("cancelled while running under always: reason %s, service %+v", info.Reason, info.Service)
	}
}

// Each attempt is verified empty before the next starts: a tree whose members ignore
// SIGTERM, ended by its timeout, is gone (SIGKILLed after its grace) when attempt 2
// begins.
func TestRestartNextAttemptOnlyAfterTheTreeIsGone(t *testing.T) {
	s := newSup(t)
	starts := make(chan struct{}, 10)
	s.startHook = func(string) { starts <- struct{}{} }
	spec := childSpec(false, "tree", "1", "ignore-term")
	spec.Timeout = 500 * time.Millisecond
	spec.Restart = onFailure(0, 0, 1)
	id := spawn(t, s, spec)
	<-starts
	out := waitOutput(t, s, id, "tree ready")
	var pids []int
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "member" {
			pid, _ := strconv.Atoi(f[1])
			pids = append(pids, pid)
		}
	}
	if len(pids) != 2 {
		t.Fatalf("members %v from %q", pids, out)
	}
	select {
	case <-starts:
	case <-time.After(20 * time.Second):
		t.Fatal("attempt 2 never started")
	}
	assertPIDsGone(t, pids) // checked as attempt 2 begins: its start waits on nothing
	i, _ := s.Info(id)
	a := i.Service.Attempts[0]
	if a.Reason != OverallTimeout || !a.VerifiedEmpty || i.Service.Attempt != 2 {
		t.Fatalf("attempt 1 kept as %+v; now attempt %d", a, i.Service.Attempt)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// corral restart of a live service ends its attempt and starts the next at once,
// with a full budget; of one waiting out its backoff, starts it now.
func TestRestartManual(t *testing.T) {
	clk := watchdog.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := newSup(t, WithClock(clk))
	spec := childSpec(false, "sleep")
	spec.Restart = onFailure(time.Hour, 0, 1)
	id := spawn(t, s, spec)
	waitOutput(t, s, id, "ready sleep")
	if got, err := s.Restart(id); err != nil || got != id {
		t.Fatalf("restart: %s, %v", got, err)
	}
	i := waitSvc(t, s, id, "attempt 2 running", func(i Info) bool { return i.Service.Attempt == 2 && i.State == Running })
	if a := i.Service.Attempts[0]; a.Reason != ManualRestart || i.Service.Restarts != 0 {
		t.Fatalf("after a manual restart: attempt 1 %+v, restarts %d", a, i.Service.Restarts)
	}
	s.Stop(id, NoOutputTimeout) // a failure: the policy restarts it after an hour
	waitSvc(t, s, id, "restarting", restarting(2))
	if _, err := s.Restart(id); err != nil {
		t.Fatal(err)
	}
	waitSvc(t, s, id, "attempt 3 running", func(i Info) bool { return i.Service.Attempt == 3 && i.State == Running })
	s.Cancel(id)
	info := waitEnd(t, s, id)
	newID, err := s.Restart(id) // ended: a new run of its spec
	if err != nil || newID == id {
		t.Fatalf("restart of an ended run: %q, %v", newID, err)
	}
	if info.Reason != ManualCancel {
		t.Fatalf("reason %s", info.Reason)
	}
	s.Cancel(newID)
	waitEnd(t, s, newID)
}

// Shutdown ends a restarting run without another attempt.
func TestRestartNotOnShutdown(t *testing.T) {
	s := newSup(t)
	spec := childSpec(false, "sleep")
	spec.Restart = &RestartSpec{Policy: RestartAlways}
	id := spawn(t, s, spec)
	waitOutput(t, s, id, "ready sleep")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	i, _ := s.Info(id)
	if i.State != Exited || i.Reason != SupervisorShutdown || len(i.Service.Attempts) != 1 {
		t.Fatalf("after shutdown: %s %s %+v", i.State, i.Reason, i.Service)
	}
}
