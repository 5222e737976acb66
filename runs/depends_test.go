package runs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"corral/config"
	"corral/demo/testkit/eventually"
	"corral/watchdog"
)

// named is a demo child spec with a name (pipes: a test writes to readline's stdin).
func named(name, mode string, args ...string) Spec {
	s := childSpec(false, mode, args...)
	s.Name = name
	return s
}

// dependent is a blocking run that waits for deps.
func dependent(name string, deps ...Dependency) Spec {
	s := named(name, "sleep")
	s.DependsOn = deps
	return s
}

// waitsFor checks the run is waiting, with no process, for exactly names.
func waitsFor(t *testing.T, s *Supervisor, id string, names ...string) {
	t.Helper()
	eventually.True(t, 10*time.Second, id+" waiting for "+names[0], func() bool {
		i, _ := s.Info(id)
		return i.Waiting() && waitingText(i.WaitingFor) == waitingText(depsNamed(names))
	})
	i, _ := s.Info(id)
	if i.PID != 0 || !i.StartedAt.IsZero() {
		t.Fatalf("a waiting run has a process: pid %d, started %v", i.PID, i.StartedAt)
	}
}

func depsNamed(names []string) []Dependency {
	out := make([]Dependency, len(names))
	for k, n := range names {
		out[k] = Dependency{Name: n}
	}
	return out
}

// awaiting counts the goroutines waiting on dependencies: none may be left behind.
func awaiting() int {
	buf := make([]byte, 1<<20)
	return bytes.Count(buf[:runtime.Stack(buf, true)], []byte("(*run).awaitDeps"))
}

func TestDependentWaitsForSucceeded(t *testing.T) {
	s := newSup(t)
	migrate := spawn(t, s, named("migrate", "readline"))
	api := spawn(t, s, dependent("api", Dependency{"migrate", CondSucceeded}))
	waitsFor(t, s, api, "migrate")
	waitOutput(t, s, migrate, "ready")
	if err := s.Write(migrate, []byte("go\n")); err != nil {
		t.Fatal(err)
	}
	if i := waitEnd(t, s, migrate); i.Reason != Exit || *i.ExitCode != 0 {
		t.Fatalf("migrate ended %s", howEnded(i))
	}
	i := waitState(t, s, api, Running)
	if i.State != Running || len(i.WaitingFor) != 0 {
		t.Fatalf("api after migrate succeeded: %s, waiting for %v", i.State, i.WaitingFor)
	}
	s.Cancel(api)
	waitEnd(t, s, api)
}

func TestDependentWaitsForStartedAndEnded(t *testing.T) {
	s := newSup(t)
	started := spawn(t, s, dependent("web", Dependency{"cache", CondStarted}))
	ended := spawn(t, s, dependent("report", Dependency{"cache", CondEnded}))
	waitsFor(t, s, started, "cache")
	waitsFor(t, s, ended, "cache")
	cache := spawn(t, s, named("cache", "sleep"))
	waitState(t, s, started, Running)
	waitsFor(t, s, ended, "cache") // the cache runs: not ended
	s.Cancel(cache)                // any end meets "ended", a cancel too
	waitEnd(t, s, cache)
	waitState(t, s, ended, Running)
	if i, _ := s.Info(started); i.State != Running {
		t.Fatalf("web, whose cache ended after it started, is %s (only on_dependency_lost ends it)", i.State)
	}
	for _, id := range []string{started, ended} {
		s.Cancel(id)
		waitEnd(t, s, id)
	}
}

func TestFailedDependencyEndsDependent(t *testing.T) {
	s := newSup(t)
	api := spawn(t, s, dependent("api", Dependency{"db", CondStarted}, Dependency{"migrate", CondSucceeded}))
	spawn(t, s, named("db", "sleep"))
	migrate := spawn(t, s, named("migrate", "exit", "3"))
	waitEnd(t, s, migrate)
	i := waitEnd(t, s, api)
	if i.Reason != DependencyFailed || i.DependencyErr != "migrate exited 3" {
		t.Fatalf("api ended %s (%q), want dependency-failed (migrate exited 3)", i.Reason, i.DependencyErr)
	}
	if i.PID != 0 || !i.StartedAt.IsZero() || len(i.WaitingFor) != 0 {
		t.Fatalf("api never started, yet: pid %d, started %v, waiting for %v", i.PID, i.StartedAt, i.WaitingFor)
	}
	if got := Summary(i); !bytes.Contains([]byte(got), []byte("dependency-failed")) {
		t.Fatalf("summary %q does not say dependency-failed", got)
	}
}

func TestDependencyFailureCascades(t *testing.T) {
	s := newSup(t)
	web := spawn(t, s, dependent("web", Dependency{"api", CondStarted}))
	api := spawn(t, s, dependent("api", Dependency{"migrate", CondSucceeded}))
	spawn(t, s, named("migrate", "exit", "2"))
	waitEnd(t, s, api)
	i := waitEnd(t, s, web)
	want := "api ended before it started: ended with dependency-failed (migrate exited 2)"
	if i.Reason != DependencyFailed || i.DependencyErr != want {
		t.Fatalf("web ended %s %q, want %q", i.Reason, i.DependencyErr, want)
	}
}

func TestCancelWaitingRunOrphansNoWait(t *testing.T) {
	s := newSup(t)
	api := spawn(t, s, dependent("api", Dependency{"db", CondStarted}))
	waitsFor(t, s, api, "db")
	if err := s.Cancel(api); err != nil {
		t.Fatal(err)
	}
	i := waitEnd(t, s, api)
	if i.Reason != ManualCancel || i.PID != 0 {
		t.Fatalf("cancelled waiting run: %s pid %d", i.Reason, i.PID)
	}
	eventually.True(t, 5*time.Second, "no wait left", func() bool { return awaiting() == 0 })
	db := spawn(t, s, named("db", "sleep"))
	waitState(t, s, db, Running)
	for _, r := range s.Snapshot() {
		if r.Name == "api" && !r.Ended() {
			t.Fatalf("a cancelled wait started api: %+v", r)
		}
	}
}

// A dependent waiting for "ready" starts once its dependency's readiness probe
// passes, not when it merely runs; a dependency that ends before it was ready ends
// the dependent with dependency-failed.
func TestReadyConditionWaitsForTheProbe(t *testing.T) {
	flag := filepath.Join(t.TempDir(), "up")
	s := newSup(t)
	dbSpec := sleepService(fastProbe(config.ProbeExec, "test -f "+flag))
	dbSpec.Name = "db"
	db := spawn(t, s, dbSpec)
	api := spawn(t, s, dependent("api", Dependency{"db", CondReady}))
	waitSvc(t, s, db, "a failed check", func(i Info) bool {
		return i.Service.ReadyProbe != nil && i.Service.ReadyProbe.Checks >= 2
	})
	if i, _ := s.Info(api); !i.Waiting() {
		t.Fatalf("api started before db was ready: %s", i.State)
	}
	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	waitState(t, s, api, Running)

	late := spawn(t, s, dependent("late", Dependency{"db2", CondReady}))
	db2Spec := sleepService(fastProbe(config.ProbeExec, "false"))
	db2Spec.Name = "db2"
	db2 := spawn(t, s, db2Spec)
	waitState(t, s, db2, Running)
	s.Cancel(db2)
	i := waitEnd(t, s, late)
	if i.Reason != DependencyFailed || i.DependencyErr != "db2 ended before it was ready: ended with manual-cancel" {
		t.Fatalf("late ended %s %q", i.Reason, i.DependencyErr)
	}
	for _, x := range []string{db, api} {
		s.Cancel(x)
		waitEnd(t, s, x)
	}
}

func TestOnDependencyLostRestart(t *testing.T) {
	s := newSup(t)
	db := spawn(t, s, named("db", "sleep"))
	spec := dependent("api", Dependency{"db", CondStarted})
	spec.OnDependencyLost = DepLostRestart
	api := spawn(t, s, spec)
	calm := spawn(t, s, dependent("calm", Dependency{"db", CondStarted}))
	waitState(t, s, api, Running)
	waitState(t, s, calm, Running)
	s.Cancel(db)
	waitEnd(t, s, db)
	i := waitEnd(t, s, api)
	if i.Reason != DependencyLost || i.DependencyErr != "db is no longer started" {
		t.Fatalf("api ended %s %q, want dependency-lost", i.Reason, i.DependencyErr)
	}
	again := eventually.Value(t, 10*time.Second, "api spawned again", func() (string, bool) {
		for _, r := range s.Snapshot() {
			if r.Name == "api" && r.ID != api {
				return r.ID, true
			}
		}
		return "", false
	})
	waitsFor(t, s, again, "db")
	spawn(t, s, named("db", "sleep"))
	waitState(t, s, again, Running)
	if i, _ := s.Info(calm); i.State != Running {
		t.Fatalf("calm, without on_dependency_lost, is %s", i.State)
	}
}

func TestShutdownStartsNoDependent(t *testing.T) {
	s := newSup(t)
	spawn(t, s, named("db", "sleep"))
	api := spawn(t, s, dependent("api", Dependency{"db", CondEnded}))
	waitsFor(t, s, api, "db")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	i, _ := s.Info(api)
	if i.Reason != SupervisorShutdown || i.PID != 0 {
		t.Fatalf("api at shutdown: %s pid %d (its dependency ended: it must not start then)", i.Reason, i.PID)
	}
	if n := awaiting(); n != 0 {
		t.Fatalf("%d waits left after shutdown", n)
	}
}

func TestDependsValidation(t *testing.T) {
	for _, c := range []struct {
		deps []Dependency
		lost string
	}{
		{deps: []Dependency{{"api", CondStarted}}},
		{deps: []Dependency{{"db", "healthy"}}},
		{deps: []Dependency{{"db", CondStarted}, {"db", CondEnded}}},
		{deps: []Dependency{{"", CondStarted}}},
		{lost: "kill"},
	} {
		spec := dependent("api", c.deps...)
		spec.OnDependencyLost = c.lost
		if err := spec.validate(); err == nil {
			t.Errorf("%v %q accepted", c.deps, c.lost)
		}
	}
	if !slices.Equal(Conditions, []Condition{"started", "ready", "succeeded", "ended"}) {
		t.Fatal(Conditions)
	}
}

// A cancel racing the dependency that lets the run start: whichever wins, the run
// ends once, verified empty, and no wait is left.
func TestCancelRacingTheStart(t *testing.T) {
	s := newSup(t)
	for round := range 20 {
		api := spawn(t, s, dependent("api", Dependency{"db", CondStarted}))
		waitsFor(t, s, api, "db")
		dbc := make(chan string, 1)
		go func() { id, _ := s.Spawn(named("db", "sleep")); dbc <- id }()
		if round%2 == 1 {
			<-s.deps.next() // the next change anywhere: db on its way
		}
		s.Cancel(api)
		i := waitEnd(t, s, api)
		if i.Reason != ManualCancel {
			t.Fatalf("round %d: api ended %s", round, i.Reason)
		}
		db := <-dbc
		s.Cancel(db)
		waitEnd(t, s, db)
		s.Remove(db)
		s.Remove(api)
	}
	eventually.True(t, 5*time.Second, "no wait left", func() bool { return awaiting() == 0 })
}

// corral restart (and R) on a run still waiting for its dependencies keeps it the
// same run, still waiting: it starts only once they hold, never at once beside its
// wait, and only one run of it ever exists.
func TestRestartWaitingRunKeepsItsWait(t *testing.T) {
	s := newSup(t)
	plain := spawn(t, s, dependent("api", Dependency{"db", CondStarted}))
	svcSpec := dependent("worker", Dependency{"db", CondStarted})
	svcSpec.Restart = onFailure(0, 0, 3)
	svc := spawn(t, s, svcSpec)
	for _, id := range []string{plain, svc} {
		waitsFor(t, s, id, "db")
		next, err := s.Restart(id)
		if err != nil || next != id {
			t.Fatalf("restart of waiting %s: %q %v, want the same run", id, next, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
		i, ok, err := s.WaitCondition(ctx, id, CondStarted)
		cancel()
		if ok || err == nil {
			t.Fatalf("%s started after a restart while db does not exist: %s pid %d", i.Name, i.State, i.PID)
		}
		waitsFor(t, s, id, "db")
	}
	db := spawn(t, s, named("db", "sleep"))
	for _, id := range []string{plain, svc} {
		waitState(t, s, id, Running)
	}
	for _, r := range s.Snapshot() {
		if (r.Name == "api" || r.Name == "worker") && r.ID != plain && r.ID != svc {
			t.Fatalf("a second %s exists: %s", r.Name, r.ID)
		}
	}
	for _, id := range []string{plain, svc, db} {
		s.Cancel(id)
		waitEnd(t, s, id)
	}
}

// on_dependency_lost = "restart" when the dependency is a service restarting in
// place (same id): the dependent ends, and its new run starts again once that same
// run is back, rather than waiting for a new run of that name forever.
func TestDependencyLostToARestartInPlace(t *testing.T) {
	s := newSup(t)
	dbSpec := named("db", "readline")
	dbSpec.Restart = &RestartSpec{Policy: RestartAlways, Backoff: 300 * time.Millisecond, MaxRestarts: 5, Window: time.Minute}
	db := spawn(t, s, dbSpec)
	spec := dependent("api", Dependency{"db", CondStarted})
	spec.OnDependencyLost = DepLostRestart
	api := spawn(t, s, spec)
	waitState(t, s, api, Running)
	waitOutput(t, s, db, "ready")
	if err := s.Write(db, []byte("go\n")); err != nil {
		t.Fatal(err)
	}
	if i := waitEnd(t, s, api); i.Reason != DependencyLost {
		t.Fatalf("api ended %s, want dependency-lost", i.Reason)
	}
	again := eventually.Value(t, 10*time.Second, "api spawned again", func() (string, bool) {
		for _, r := range s.Snapshot() {
			if r.Name == "api" && r.ID != api {
				return r.ID, true
			}
		}
		return "", false
	})
	waitSvc(t, s, db, "db back in place", func(i Info) bool { return i.State == Running && i.Service.Attempt == 2 })
	waitState(t, s, again, Running)
	for _, id := range []string{again, db} {
		s.Cancel(id)
		waitEnd(t, s, id)
	}
}

// A dependent with a restart policy: its dependencies, not its policy, decide after a
// dependency failed or was lost. No attempt starts in place without the wait.
func TestDependencyEndsAreNotRestartedInPlace(t *testing.T) {
	s := newSup(t)
	failing := dependent("api", Dependency{"migrate", CondSucceeded})
	failing.Restart = &RestartSpec{Policy: RestartAlways, MaxRestarts: 5, Window: time.Minute}
	api := spawn(t, s, failing)
	spawn(t, s, named("migrate", "exit", "3"))
	if i := waitEnd(t, s, api); i.Reason != DependencyFailed || i.PID != 0 || !i.StartedAt.IsZero() {
		t.Fatalf("api ended %s pid %d started %v, want dependency-failed, never started", i.Reason, i.PID, i.StartedAt)
	}

	db := spawn(t, s, named("db", "sleep"))
	lost := dependent("web", Dependency{"db", CondStarted})
	lost.OnDependencyLost = DepLostRestart
	lost.Restart = &RestartSpec{Policy: RestartAlways, MaxRestarts: 5, Window: time.Minute}
	web := spawn(t, s, lost)
	waitState(t, s, web, Running)
	s.Cancel(db)
	waitEnd(t, s, db)
	if i := waitEnd(t, s, web); i.Reason != DependencyLost {
		t.Fatalf("web ended %s, want dependency-lost", i.Reason)
	}
	again := eventually.Value(t, 10*time.Second, "web spawned again", func() (string, bool) {
		for _, r := range s.Snapshot() {
			if r.Name == "web" && r.ID != web {
				return r.ID, true
			}
		}
		return "", false
	})
	waitsFor(t, s, again, "db")
	s.Cancel(again)
	waitEnd(t, s, again)
}

// A dependency restarted in place faster than its dependent looks (corral restart of
// a live service: a new attempt, same id, running again) is still a loss for
// on_dependency_lost: the attempt the dependent started with is gone.
func TestDependencyLostSeesAnAttemptItMissed(t *testing.T) {
	s := newSup(t)
	dbSpec := named("db", "sleep")
	dbSpec.Restart = &RestartSpec{Policy: RestartAlways, MaxRestarts: 5, Window: time.Minute}
	db := spawn(t, s, dbSpec)
	waitState(t, s, db, Running)
	deps := []Dependency{{"db", CondStarted}}
	met := map[string]string{"db": db}
	attempts := s.attemptsOf(met)
	if name, why := s.lostDep(deps, met, attempts); why != "" {
		t.Fatalf("nothing happened to db, yet %s: %s", name, why)
	}
	if _, err := s.Restart(db); err != nil {
		t.Fatal(err)
	}
	waitSvc(t, s, db, "db's attempt 2 running", func(i Info) bool { return i.State == Running && i.Service.Attempt == 2 })
	if name, why := s.lostDep(deps, met, attempts); name != "db" || why != "db was restarted" {
		t.Fatalf("after db restarted in place: %q %q, want db was restarted", name, why)
	}
	s.Cancel(db)
	waitEnd(t, s, db)
}

// A dependency between two attempts (restarting) neither meets "started" nor fails
// it: what waits for it keeps waiting, and starts once the next attempt runs.
func TestDependentWaitsThroughADependencysBackoff(t *testing.T) {
	clk := watchdog.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := newSup(t, WithClock(clk))
	dbSpec := named("db", "sleep")
	dbSpec.Restart = &RestartSpec{Policy: RestartAlways, Backoff: time.Second, MaxRestarts: 5, Window: time.Minute}
	db := spawn(t, s, dbSpec)
	i := waitState(t, s, db, Running)
	p, err := os.FindProcess(i.PID) // db's root, which this test started
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	waitSvc(t, s, db, "db restarting", restarting(1))
	api := spawn(t, s, dependent("api", Dependency{"db", CondStarted}))
	waitsFor(t, s, api, "db")
	if i, _ := s.Info(api); i.Ended() {
		t.Fatalf("api ended while db restarts: %s %q", i.Reason, i.DependencyErr)
	}
	clk.Advance(2 * time.Second) // db's backoff ends
	waitState(t, s, api, Running)
	if i, _ := s.Info(db); i.State != Running || i.Service.Attempt != 2 {
		t.Fatalf("api started beside db %s attempt %d", i.State, i.Service.Attempt)
	}
	for _, id := range []string{api, db} {
		s.Cancel(id)
		waitEnd(t, s, id)
	}
}
