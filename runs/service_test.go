package runs

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"corral/config"
	"corral/demo"
	"corral/watchdog"
)

// waitSvc waits, driven by events and every 50 ms (a probe's silent result is no
// event), until run id's info satisfies cond.
func waitSvc(t *testing.T, s *Supervisor, id, what string, cond func(Info) bool) Info {
	t.Helper()
	info, ok := waitRun(t, s, id, 50*time.Millisecond, cond)
	if !ok {
		t.Fatalf("timed out waiting for %s: state %s, service %+v", what, info.State, info.Service)
	}
	return info
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
	// The cancel ended no process: the run's end is the cancel's, not the last
	// attempt's exit, which its attempt keeps.
	if sum := Summary(info); info.ExitCode != nil || info.Signal != 0 || strings.Contains(sum, "exit 1") {
		t.Fatalf("cancelled while restarting, the run says %q", sum)
	}
	if a := info.Service.Attempts; len(a) != 1 || a[0].ExitCode == nil || *a[0].ExitCode != 1 {
		t.Fatalf("the ended attempt: %+v", a)
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

// Each attempt is verified empty before the next starts: attempt 1's root exits 1
// leaving a child that ignores SIGTERM; that child is gone (SIGKILLed after the
// grace) when attempt 2 begins.
func TestRestartNextAttemptOnlyAfterTheTreeIsGone(t *testing.T) {
	s := newSup(t)
	starts := make(chan struct{}, 10)
	s.startHook = func(string) { starts <- struct{}{} }
	argv, env := demo.Child("ignore-term")
	spec := Spec{Shell: fmt.Sprintf("%q %q & sleep 0.5; exit 1", argv[0], argv[1]), Env: env}
	spec.Restart = onFailure(0, 0, 1)
	id := spawn(t, s, spec)
	<-starts
	out := waitOutput(t, s, id, "ready ignore-term")
	var pid int
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "ready" {
			pid, _ = strconv.Atoi(f[2])
		}
	}
	if pid == 0 {
		t.Fatalf("no pid in %q", out)
	}
	select {
	case <-starts:
	case <-time.After(20 * time.Second):
		t.Fatal("attempt 2 never started")
	}
	assertPIDsGone(t, []int{pid}) // looked at as attempt 2 begins
	i, _ := s.Info(id)
	a := i.Service.Attempts[0]
	if a.Reason != Exit || a.ExitCode == nil || *a.ExitCode != 1 || !a.VerifiedEmpty || i.Service.Attempt != 2 {
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

// fastProbe checks every 20 ms, judging after two results either way.
func fastProbe(kind, target string) *config.Probe {
	return &config.Probe{Kind: kind, Target: target, Period: 20 * time.Millisecond, Timeout: 500 * time.Millisecond, Success: 1, Failure: 2}
}

func readyIs(want Readiness) func(Info) bool {
	return func(i Info) bool { return i.Service != nil && i.Service.Ready == want }
}

// sleepService is a run that blocks until cancelled, with readiness probe p.
func sleepService(p *config.Probe) Spec {
	spec := childSpec(false, "sleep")
	spec.Ready = p
	return spec
}

// An http probe passes on a 2xx from a real server on 127.0.0.1, not before.
func TestReadyHTTP(t *testing.T) {
	var up atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if !up.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	s := newSup(t)
	id := spawn(t, s, sleepService(fastProbe(config.ProbeHTTP, srv.URL+"/health")))
	i := waitSvc(t, s, id, "a failed check", func(i Info) bool {
		return i.Service.ReadyProbe != nil && i.Service.ReadyProbe.LastFailure != nil
	})
	if i.Service.Ready != ReadyStarting || !strings.Contains(i.Service.ReadyProbe.LastFailure.Output, "503") {
		t.Fatalf("before the server is up: %s, %+v", i.Service.Ready, i.Service.ReadyProbe)
	}
	up.Store(true)
	waitSvc(t, s, id, "ready", readyIs(ReadyOK))
	r, _ := s.get(id)
	if !r.isReady() {
		t.Fatal("isReady false on a ready run")
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// A tcp probe passes once something listens on its 127.0.0.1 port.
func TestReadyTCP(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	s := newSup(t)
	id := spawn(t, s, sleepService(fastProbe(config.ProbeTCP, addr)))
	waitSvc(t, s, id, "a refused check", func(i Info) bool {
		return i.Service.ReadyProbe != nil && i.Service.ReadyProbe.LastFailure != nil
	})
	if i, _ := s.Info(id); i.Service.Ready != ReadyStarting {
		t.Fatalf("ready with nothing listening: %s", i.Service.Ready)
	}
	l, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("port %s taken meanwhile: %v", addr, err)
	}
	defer l.Close()
	waitSvc(t, s, id, "ready", readyIs(ReadyOK))
	s.Cancel(id)
	waitEnd(t, s, id)
}

// An exec probe passes when its command exits 0; a missing command fails the probe
// with the shell's words and never ends the run.
func TestReadyExec(t *testing.T) {
	flag := filepath.Join(t.TempDir(), "up")
	s := newSup(t)
	id := spawn(t, s, sleepService(fastProbe(config.ProbeExec, "test -f "+flag)))
	missing := spawn(t, s, sleepService(fastProbe(config.ProbeExec, "corral-no-such-probe-command")))
	waitSvc(t, s, id, "a failed check", func(i Info) bool {
		return i.Service.ReadyProbe != nil && i.Service.ReadyProbe.Checks >= 2
	})
	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	waitSvc(t, s, id, "ready", readyIs(ReadyOK))
	i := waitSvc(t, s, missing, "failures", func(i Info) bool {
		return i.Service.ReadyProbe != nil && i.Service.ReadyProbe.Checks >= 4
	})
	if i.State != Running || i.Service.Ready != ReadyStarting || !strings.Contains(i.Service.ReadyProbe.LastFailure.Output, "not found") {
		t.Fatalf("missing probe command: %s %s %+v", i.State, i.Service.Ready, i.Service.ReadyProbe)
	}
	for _, x := range []string{id, missing} {
		s.Cancel(x)
		waitEnd(t, s, x)
	}
}

// A log probe passes at the first line of output matching its expression.
func TestReadyLog(t *testing.T) {
	s := newSup(t)
	p := fastProbe(config.ProbeLog, `^ready sleep [0-9]+$`)
	p.Period = time.Hour // the line itself pokes the check: no period is waited
	id := spawn(t, s, sleepService(p))
	i := waitSvc(t, s, id, "ready", readyIs(ReadyOK))
	if !strings.HasPrefix(i.Service.ReadyProbe.Last.Output, "ready sleep ") {
		t.Fatalf("log probe's result %+v", i.Service.ReadyProbe)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// A readiness that flaps moves the run between ready and unready: never ends it,
// never restarts it.
func TestReadyFlappingDoesNotKill(t *testing.T) {
	var up atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if !up.Load() {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer srv.Close()
	s := newSup(t)
	spec := sleepService(fastProbe(config.ProbeHTTP, srv.URL))
	spec.Restart = onFailure(0, 0, 0)
	id := spawn(t, s, spec)
	pid := 0
	for range 3 {
		up.Store(true)
		i := waitSvc(t, s, id, "ready", readyIs(ReadyOK))
		if pid == 0 {
			pid = i.PID
		}
		up.Store(false)
		waitSvc(t, s, id, "unready", readyIs(ReadyLost))
	}
	i, _ := s.Info(id)
	if i.State != Running || i.PID != pid || i.Service.Attempt != 1 || len(i.Service.Attempts) != 0 {
		t.Fatalf("after flapping: %s pid %d (was %d), service %+v", i.State, i.PID, pid, i.Service)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// A failed liveness probe ends the attempt (alive-failed) and another starts, even
// under restart = "no"; once the budget is spent the run is left running.
func TestAliveFailureRestarts(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	s := newSup(t)
	spec := childSpec(false, "sleep")
	spec.Alive = fastProbe(config.ProbeTCP, addr)
	spec.Restart = &RestartSpec{Policy: RestartNo}
	id := spawn(t, s, spec)
	i := waitSvc(t, s, id, "attempt 2", func(i Info) bool { return i.Service.Attempt == 2 && i.State == Running })
	a := i.Service.Attempts[0]
	if a.Reason != AliveFailed || !strings.Contains(a.Detail, "refused") {
		t.Fatalf("attempt 1 kept as %+v", a)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// A service's spec crosses JSON (records, the protocol) whole, durations in ms.
func TestServiceSpecJSON(t *testing.T) {
	spec := childSpec(false, "sleep")
	spec.Restart = &RestartSpec{Policy: RestartAlways, Backoff: 1500 * time.Millisecond, BackoffMax: time.Minute, MaxRestarts: 4, Window: time.Hour}
	spec.Ready = &config.Probe{Kind: config.ProbeHTTP, Target: "http://127.0.0.1:1/", Period: 2 * time.Second, Failure: 4}
	b, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"backoff_ms":1500`, `"window_ms":3600000`, `"period_ms":2000`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %s", b, want)
		}
	}
	var back Spec
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if *back.Restart != *spec.Restart || *back.Ready != *spec.Ready {
		t.Fatalf("back from JSON: %+v %+v", back.Restart, back.Ready)
	}
}

// With its restart budget spent, a failing liveness probe leaves the run running:
// a probe alone never ends a service for good.
func TestAliveFailureWithNoBudgetLeftLeavesItRunning(t *testing.T) {
	s := newSup(t)
	spec := childSpec(false, "sleep")
	spec.Alive = fastProbe(config.ProbeTCP, freeAddr(t))
	spec.Restart = onFailure(0, 0, 1)
	id := spawn(t, s, spec)
	i := waitSvc(t, s, id, "attempt 2 failing its probe long after its threshold", func(i Info) bool {
		return i.Service.Attempt == 2 && i.Service.AliveProbe != nil && i.Service.AliveProbe.Checks >= 8
	})
	if i.State != Running || len(i.Service.Attempts) != 1 || i.Service.Attempts[0].Reason != AliveFailed {
		t.Fatalf("with no budget left: %s, %+v", i.State, i.Service)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// freeAddr is a 127.0.0.1 address nothing listens on now.
func freeAddr(tb testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// An exec probe is the run's: in its cgroup, on the cgroup backend.
func TestExecProbeInTheRunsCgroup(t *testing.T) {
	if FindCgroups("").Dir == "" {
		t.Skip("no cgroups here")
	}
	s := newSup(t)
	out := filepath.Join(t.TempDir(), "cgroup")
	id := spawn(t, s, sleepService(fastProbe(config.ProbeExec, "cat /proc/self/cgroup > "+out)))
	i := waitSvc(t, s, id, "ready", readyIs(ReadyOK))
	b, err := os.ReadFile(out)
	if err != nil || i.Cgroup == "" || !strings.HasSuffix(strings.TrimSpace(string(b)), "/"+filepath.Base(i.Cgroup)) {
		t.Fatalf("probe's cgroup %q (%v), run's %q", b, err, i.Cgroup)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// A shutdown during a crash loop (attempts that fail at once, restarted at once) ends
// every run: an attempt that ends on its own while the shutdown is under way starts no
// other, whichever step of its loop the shutdown found it at. Once, a run whose
// attempt was ending as the shutdown passed it went on to restarting after, no
// attempt ever followed, and the shutdown waited for it until its deadline.
func TestShutdownDuringACrashLoop(t *testing.T) {
	for round := range 10 {
		s, err := New(WithDefaults(testDefaults()))
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for range 4 {
			spec := Spec{Argv: []string{"sh", "-c", "exit 1"}}
			spec.Restart = &RestartSpec{Policy: RestartOnFailure} // at once, no limit
			id, err := s.Spawn(spec)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		waitSvc(t, s, ids[0], "a few attempts", func(i Info) bool { return i.Service.attempt() >= 3+round%4 })
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		err = s.Shutdown(ctx)
		cancel()
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for _, id := range ids {
			if i, _ := s.Info(id); i.State != Exited {
				t.Fatalf("round %d: run %s is %s after the shutdown", round, id, i.State)
			}
		}
	}
}
