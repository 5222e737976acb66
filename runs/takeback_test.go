package runs

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/demo/testkit/gittest"
	"corral/watchdog"
)

func init() { roles["idle"] = roleIdle }

// roleIdle is a Corral with a run waiting for "db" (started) and a service between
// two attempts (a 3 s backoff): it prints "run <waiting id> <service id>" once both
// records say so, then waits to be killed.
func roleIdle(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()), WithLogDir(dir+"/logs"))
	if err != nil {
		return err
	}
	api, err := s.Spawn(dependent("api", Dependency{Name: "db", Condition: CondStarted}))
	if err != nil {
		return err
	}
	svc := childSpec(false, "exit", "3")
	svc.Name, svc.Restart = "svc", &RestartSpec{Policy: RestartAlways, Backoff: 3 * time.Second, BackoffMax: 3 * time.Second,
		MaxRestarts: 5, Window: time.Minute}
	sid, err := s.Spawn(svc)
	if err != nil {
		return err
	}
	for {
		rec, err := reg.record(sid)
		if err == nil && rec.State == Restarting {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Printf("run %s %s\n", api, sid)
	select {}
}

// A Corral killed while a run waits for its dependency and a service waits out its
// backoff leaves their records: a reconcile by anyone but a server leaves them alone
// (it could not go on with them), and a server takes them over — the same runs, their
// ids, the service's attempts, budget and backoff's end kept — and goes on: the wait
// ends in a start once its dependency has started (one process), the backoff in the
// next attempt no sooner than its end.
func TestTakeBackAfterCrash(t *testing.T) {
	dir := t.TempDir()
	cmd, stderr := startRole(t, "idle", dir)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	if !sc.Scan() {
		t.Fatalf("role: %s", stderr)
	}
	f := strings.Fields(sc.Text())
	api, svc := f[1], f[2]
	cmd.Process.Kill()
	cmd.Wait()

	reg := openReg(t, dir)
	before, err := reg.record(svc)
	if err != nil || before.Service == nil || len(before.Service.RestartTimes) != 1 || before.Service.NextAt.IsZero() {
		t.Fatalf("the service's record: %+v, %v", before.Service, err)
	}
	if rec, _ := reg.record(api); !processless(rec) || len(rec.WaitingFor) != 1 || rec.WaitingFor[0].Name != "db" {
		t.Fatalf("the waiting run's record: %+v", rec)
	}

	other := regSup(t, reg) // not a server: it leaves them alone
	ds, err := other.Reconcile(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Decision != VerdictLeftAlone || !strings.Contains(d.Detail, "the state dir's server takes it over") {
			t.Errorf("%s: %s (%s), want left alone", d.ID, d.Decision, d.Detail)
		}
	}

	// The server's clock is a fake one, 3 s before the backoff's end whatever the time
	// now: how long the above took on a loaded machine does not move the attempt.
	clk := watchdog.NewFakeClock(before.Service.NextAt.Add(-3 * time.Second))
	srv := regSup(t, openReg(t, dir), WithTakeBack(), WithClock(clk))
	if n := srv.TakeBack(); n != 2 {
		t.Fatalf("took back %d runs, want 2", n)
	}
	waitsFor(t, srv, api, "db")
	i, _ := srv.Info(svc)
	if i.State != Restarting || !i.Service.NextAt.Equal(before.Service.NextAt) || len(i.Service.RestartTimes) != 1 ||
		len(i.Service.Attempts) != 1 || i.Service.Attempts[0].Reason != Exit {
		t.Fatalf("the service taken back: %s %+v", i.State, i.Service)
	}
	db := spawn(t, srv, named("db", "sleep"))
	eventually.True(t, 10*time.Second, "api started", func() bool {
		i, _ := srv.Info(api)
		return i.State == Running
	})
	if rec, _ := srv.reg.record(api); rec.State != Running || rec.PID == 0 || rec.OwnerInstanceID != srv.reg.Instance() {
		t.Fatalf("api's record: %s pid %d owner %s", rec.State, rec.PID, rec.OwnerInstanceID)
	}
	clk.Advance(3*time.Second - time.Millisecond) // not yet
	if i, _ := srv.Info(svc); i.State != Restarting || len(i.Service.Attempts) != 1 {
		t.Fatalf("the service before its backoff's end: %s %+v", i.State, i.Service)
	}
	clk.Advance(time.Millisecond)
	eventually.True(t, 10*time.Second, "the service's attempt 2", func() bool {
		i, _ := srv.Info(svc)
		return len(i.Service.Attempts) >= 2
	})
	i, _ = srv.Info(svc)
	if a := i.Service.Attempts[1]; a.N != 2 || a.StartedAt.Before(before.Service.NextAt) {
		t.Fatalf("attempt 2 %+v started before the backoff's end %v", a, before.Service.NextAt)
	}
	for _, id := range []string{api, db, svc} {
		srv.Cancel(id)
		waitEnd(t, srv, id)
	}
}

// A record written before runs without a process had one (no restart_times, no
// waiting_for) still loads: a service's budget is then empty, and it is judged as
// before. The new fields round-trip.
func TestIdleRecordFieldsCompat(t *testing.T) {
	old := `{"run_id":"r0123456789ab","name":"svc","backend":"pipe","spec":{"argv":["true"]},"pid":0,"pgid":0,"sid":0,
		"fingerprint":{},"state":"restarting","exit_code":3,"created_at":"2026-11-20T10:00:00Z","updated_at":"2026-11-20T10:00:01Z",
		"last_output_at":"0001-01-01T00:00:00Z","owner_instance_id":"idead","lease_epoch":2,"lease_expires_at":"2026-11-20T10:00:30Z",
		"cleanup_mode":"session","cleanup":{},"agent_state":"unknown",
		"service":{"policy":"always","attempt":1,"restarts":1,"max_restarts":5,"next_at":"2026-11-20T10:00:02Z"}}`
	var rec Record
	if err := json.Unmarshal([]byte(old), &rec); err != nil {
		t.Fatal(err)
	}
	if !processless(rec) || rec.Service.RestartTimes != nil || rec.WaitingFor != nil || rec.Service.Restarts != 1 {
		t.Fatalf("old record: %+v %+v", rec, rec.Service)
	}
	at := time.Date(2026, 11, 20, 10, 0, 1, 0, time.UTC)
	rec.Service.RestartTimes = []time.Time{at}
	rec.State, rec.WaitingFor, rec.DependencyErr = Starting, []Dependency{{Name: "db", Condition: CondReady}}, ""
	b, _ := json.Marshal(rec)
	var back Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Service.RestartTimes) != 1 || !back.Service.RestartTimes[0].Equal(at) || len(back.WaitingFor) != 1 ||
		back.WaitingFor[0] != rec.WaitingFor[0] || !processless(back) {
		t.Fatalf("round trip: %s", b)
	}
	// A record whose new field is corrupt is set aside like any corrupt record.
	dir := t.TempDir()
	reg := openReg(t, dir)
	bad := strings.Replace(old, `"service":{`, `"waiting_for":5,"service":{`, 1)
	if err := os.WriteFile(reg.recordPath("r0123456789ab"), []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	recs, err := reg.List()
	if err != nil || len(recs) != 0 || len(reg.Warnings()) != 1 {
		t.Fatalf("corrupt record: listed %d, warnings %q, %v", len(recs), reg.Warnings(), err)
	}
}

// A run without a process recorded during another boot is not taken over: the
// reboot ended what it waited for as it ended every run, and it is closed lost like
// them; one of this boot is.
func TestIdleRecordOfAnotherBootClosedLost(t *testing.T) {
	dir := t.TempDir()
	reg := openReg(t, dir)
	plant := func(id, boot string) {
		rec := Record{ID: id, Name: id, Backend: KindPipe, Spec: dependent(id, Dependency{Name: "db", Condition: CondStarted}),
			State: Starting, WaitingFor: []Dependency{{Name: "db", Condition: CondStarted}}, OwnerInstanceID: "idead",
			LeaseEpoch: 1, CreatedAt: time.Now(), BootID: boot}
		b, _ := json.Marshal(rec)
		if err := os.WriteFile(reg.recordPath(id), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	plant("r0000000000a1", "another-boot")
	plant("r0000000000a2", thisBoot())
	srv := regSup(t, reg, WithTakeBack())
	if n := srv.TakeBack(); n != 1 {
		t.Fatalf("took back %d, want 1 (this boot's)", n)
	}
	waitsFor(t, srv, "r0000000000a2", "db")
	ds, err := srv.Reconcile(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.ID == "r0000000000a1" && d.Decision != VerdictLost {
			t.Fatalf("another boot's waiting run: %s (%s), want lost", d.Decision, d.Detail)
		}
	}
	if rec, _ := reg.record("r0000000000a1"); rec.State != Exited || rec.Reason != Lost {
		t.Fatalf("its record: %s %s", rec.State, rec.Reason)
	}
	srv.Cancel("r0000000000a2")
	waitEnd(t, srv, "r0000000000a2")
}

func init() { roles["waitwt"] = roleWaitWorktree }

// roleWaitWorktree is a Corral with a worktree run (in $CORRAL_TEST_REPO, with one
// setup step) waiting for "db": it prints "run <id>" once the record says so, then
// waits to be killed.
func roleWaitWorktree(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()), WithLogDir(dir+"/logs"))
	if err != nil {
		return err
	}
	spec := worktreeSpec(os.Getenv("CORRAL_TEST_REPO"), dir+"/worktrees", "echo program-ran", "echo setup-step-ran")
	spec.Name, spec.DependsOn = "api", []Dependency{{Name: "db", Condition: CondStarted}}
	id, err := s.Spawn(spec)
	if err != nil {
		return err
	}
	for {
		if rec, err := reg.record(id); err == nil && processless(rec) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Printf("run %s\n", id)
	select {}
}

// A worktree run taken back while it waited never started: its worktree's setup
// steps run when it starts under the server that took it, before its program.
func TestTakeBackRunsTheWorktreeSetup(t *testing.T) {
	dir := t.TempDir()
	cmd, stderr := startRole(t, "waitwt", dir)
	cmd.Env = append(cmd.Env, "CORRAL_TEST_REPO="+gittest.Repo(t))
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	if !sc.Scan() {
		t.Fatalf("role: %s", stderr)
	}
	api := strings.Fields(sc.Text())[1]
	cmd.Process.Kill()
	cmd.Wait()

	srv := regSup(t, openReg(t, dir), WithTakeBack())
	if n := srv.TakeBack(); n != 1 {
		t.Fatalf("took back %d runs, want 1", n)
	}
	waitsFor(t, srv, api, "db")
	db := spawn(t, srv, named("db", "sleep"))
	info := waitEnd(t, srv, api)
	got := string(waitOutput(t, srv, api, "program-ran"))
	if info.Reason != Exit || !strings.Contains(got, "\nsetup-step-ran\nprogram-ran") {
		t.Fatalf("%s: %q", info.Reason, got)
	}
	srv.Cancel(db)
	waitEnd(t, srv, db)
}

// Whether a keeper's server left runs without a process is only looked at: a state
// dir without a runs dir (one being removed as its server ends) gets none made.
func TestPendingMakesNothing(t *testing.T) {
	dir := t.TempDir()
	if Pending(dir, os.Getpid()) {
		t.Fatal("pending in an empty state dir")
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("the look made %v", names)
	}
}
