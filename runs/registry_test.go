package runs

import (
	"bufio"
	"context"
	"corral/demo/testkit/eventually"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func openReg(t *testing.T, dir string) *Registry {
	t.Helper()
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	return reg
}

// recordPath is run id's record file, for tests that plant or inspect one.
func (r *Registry) recordPath(id string) string { return r.runs.Join(id + ".json") }

func regSup(t *testing.T, reg *Registry, opts ...Option) *Supervisor {
	return newSup(t, append([]Option{WithRegistry(reg), WithDefaults(shortLeases())}, opts...)...)
}

func TestRecordLifecycleIsDurable(t *testing.T) {
	dir := t.TempDir()
	reg := openReg(t, dir)
	s := regSup(t, reg)
	id := spawn(t, s, childSpec(false, "exit", "2"))
	waitEnd(t, s, id)
	rec, err := reg.record(id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.State != Exited || rec.Reason != Exit || *rec.ExitCode != 2 || rec.OwnerInstanceID != reg.Instance() ||
		rec.LeaseEpoch != 1 || rec.Fingerprint.StartTime == 0 || rec.PGID != rec.PID || len(rec.Logs) != 2 {
		t.Fatalf("record %+v", rec)
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("state dir mode %v", st.Mode().Perm())
	}
}

func TestCorruptRecordAndTempFileAtOpen(t *testing.T) {
	dir := t.TempDir()
	openReg(t, dir).Close()
	os.WriteFile(filepath.Join(dir, "runs", "rbad.json"), []byte("{not json"), 0o600)
	os.WriteFile(filepath.Join(dir, "runs", "rgood.123.tmp"), []byte("{"), 0o600)
	reg := openReg(t, dir)
	if w := reg.Warnings(); len(w) != 1 || !strings.Contains(w[0], "rbad.json") {
		t.Fatalf("warnings %q, want one naming rbad.json", w)
	}
	if _, err := os.Stat(filepath.Join(dir, "runs", "rgood.123.tmp")); !os.IsNotExist(err) {
		t.Error("temp file left")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "runs", "corrupt", "rbad.json.*")); len(m) != 1 {
		t.Error("corrupt record not set aside")
	}
	if recs, err := reg.List(); err != nil || len(recs) != 0 {
		t.Fatalf("list %v %v", recs, err)
	}
}

// A writer SIGKILLed at arbitrary points mid-write never leaves a corrupt record.
func TestKilledWriterNeverCorrupts(t *testing.T) {
	dir := t.TempDir()
	openReg(t, dir).Close()
	for i := 0; i < 25; i++ {
		cmd, _ := startRole(t, "writer", dir)
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		for n := 0; n <= i%5 && sc.Scan(); n++ { // vary where in the loop the kill lands
		}
		cmd.Process.Kill()
		cmd.Wait()
	}
	reg := openReg(t, dir)
	if w := reg.Warnings(); len(w) != 0 {
		t.Fatalf("corruption after killed writers: %q", w)
	}
	if _, err := reg.record("rwriter"); err != nil {
		t.Fatal(err)
	}
}

func TestInstanceLiveness(t *testing.T) {
	dir := t.TempDir()
	a, b := openReg(t, dir), openReg(t, dir)
	if !b.InstanceAlive(a.Instance()) {
		t.Fatal("a live instance reads as dead")
	}
	a.Close()
	if b.InstanceAlive(a.Instance()) {
		t.Fatal("a closed instance reads as alive")
	}
}

// A healthy instance's runs are left alone by another instance, and a run of ours
// is kept.
func TestLiveInstanceLeftAlone(t *testing.T) {
	dir := t.TempDir()
	owner := regSup(t, openReg(t, dir))
	id := spawn(t, owner, childSpec(false, "sleep"))
	waitOutput(t, owner, id, "ready")
	other := regSup(t, openReg(t, dir))
	ds, err := other.Reconcile(context.Background())
	if err != nil || len(ds) != 1 || ds[0].Decision != VerdictLeftAlone {
		t.Fatalf("decisions %+v %v", ds, err)
	}
	if info, _ := owner.Info(id); info.State != Running {
		t.Fatalf("the owner's run is %s", info.State)
	}
	if ds, _ := owner.Reconcile(context.Background()); len(ds) != 1 || ds[0].Decision != VerdictKept {
		t.Fatalf("owner's own decision %+v", ds)
	}
	owner.Cancel(id)
	waitEnd(t, owner, id)
}

// events.jsonl records the whole lifecycle of a run, and the counters agree.
func TestEventsAndMetrics(t *testing.T) {
	dir := t.TempDir()
	reg := openReg(t, dir)
	s := regSup(t, reg)
	id := spawn(t, s, childSpec(false, "tree", "1"))
	waitOutput(t, s, id, "tree ready")
	s.Cancel(id)
	waitEnd(t, s, id)
	c := eventCounts(t, dir)[id]
	for _, msg := range []string{"spawn", "state", "cancel", "escalation", "cleanup", "exit"} {
		if c[msg] == 0 {
			t.Errorf("no %q event for the run: %v", msg, c)
		}
	}
	m := s.Metrics()
	if m.SpawnTotal != 1 || m.ExitTotal["manual-cancel"] != 1 || m.CleanupKillTotal["term"] != 2 {
		t.Errorf("metrics %+v", m)
	}
	s.heartbeat()
	if tot := reg.Totals(); tot.SpawnTotal != 1 {
		t.Errorf("persisted totals %+v", tot)
	}
}

// A record that cannot be written (removed from under us, a full disk, a lost lease)
// never stops a cancel from reaching the process.
func TestCancelWhenPersistFails(t *testing.T) {
	reg := openReg(t, t.TempDir())
	s := regSup(t, reg)
	id := spawn(t, s, childSpec(false, "sleep"))
	waitState(t, s, id, Running)
	if err := os.Remove(reg.recordPath(id)); err != nil {
		t.Fatal(err)
	}
	s.Cancel(id)
	if info := waitEnd(t, s, id); info.Reason != ManualCancel {
		t.Fatalf("reason %s", info.Reason)
	}
}

// A shutdown whose deadline passes cuts the grace short: the run is still ended and
// verified, not abandoned.
func TestShutdownDeadlineCutsGrace(t *testing.T) {
	d := testDefaults()
	d.Grace = time.Hour
	s, err := New(WithDefaults(d))
	if err != nil {
		t.Fatal(err)
	}
	id := spawn(t, s, childSpec(false, "tree", "1", "ignore-term"))
	out := waitOutput(t, s, id, "tree ready")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	info, _ := s.Info(id)
	if info.State != Exited || info.Reason != SupervisorShutdown || info.Cleanup.Hard != 2 {
		t.Fatalf("%s %s %+v", info.State, info.Reason, info.Cleanup)
	}
	assertGone(t, info)
	assertPIDsGone(t, pidsAfter(out, "member"))
}

// A heartbeat renews the instance's lease (every run's at once) only once less than
// half of it is left; the renewal reaches the runs' Info and what a reconcile judges by
// (Registry.LeaseExpiry), and a run that printed nothing keeps its record as it was
// written: an idle Corral rewrites no record. One that printed gets its last output
// time written.
func TestLeaseRenewedAtHalfLife(t *testing.T) {
	d := testDefaults()
	d.LeaseHeartbeat, d.LeaseExpiry = time.Hour, 10*time.Second // only our own calls beat
	reg, err := OpenRegistry(t.TempDir(), d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	var mu sync.Mutex
	now := time.Now()
	reg.clock = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	s := newSup(t, WithRegistry(reg), WithDefaults(d))
	quiet := spawn(t, s, childSpec(false, "sleep"))
	waitOutput(t, s, quiet, "ready")
	talker := spawn(t, s, childSpec(false, "bell"))
	waitOutput(t, s, talker, "waiting for you")
	record := func(id string) Record {
		t.Helper()
		rec, err := reg.record(id)
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	s.heartbeat() // the first beat takes the lease and writes what each run printed at start
	first := reg.LeaseExpiry(record(quiet))
	written := record(quiet).UpdatedAt
	advance(4 * time.Second) // 6 s left: more than half
	s.heartbeat()
	if got := reg.LeaseExpiry(record(quiet)); !got.Equal(first) {
		t.Fatalf("renewed with 6 s of 10 left: %v → %v", first, got)
	}
	if err := s.Write(talker, []byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, s, talker, "you said hello")
	advance(2 * time.Second) // 4 s left
	s.heartbeat()
	want := first.Add(6 * time.Second)
	for _, id := range []string{quiet, talker} {
		if got := reg.LeaseExpiry(record(id)); !got.Equal(want) {
			t.Errorf("%s: lease %v after the half-life beat, want %v", id, got, want)
		}
		if info, _ := s.Info(id); !info.LeaseExpiresAt.Equal(want) {
			t.Errorf("%s: Info lease %v, want %v", id, info.LeaseExpiresAt, want)
		}
	}
	if got := record(quiet).UpdatedAt; !got.Equal(written) {
		t.Errorf("the quiet run's record was rewritten (%v → %v)", written, got)
	}
	if rec := record(talker); rec.LastOutputAt.IsZero() || !rec.UpdatedAt.Equal(now) {
		t.Errorf("the talker's record: last output %v, written %v; want its output written at %v",
			rec.LastOutputAt, rec.UpdatedAt, now)
	}
}

// Remove forgets an ended run everywhere: its record leaves the registry (corral ls)
// and every watcher hears it last; a live run is refused, and a second remove finds
// no run.
func TestRemoveForgetsRecordAndTellsWatchers(t *testing.T) {
	reg := openReg(t, t.TempDir())
	s := regSup(t, reg)
	live := spawn(t, s, childSpec(false, "sleep", "300"))
	id := spawn(t, s, childSpec(false, "exit", "0"))
	waitEnd(t, s, id)
	_, sub := s.Subscribe()
	defer sub.Close()
	if err := s.Remove(live); !errors.Is(err, ErrNotEnded) {
		t.Errorf("remove of a live run: %v", err)
	}
	if err := s.Remove(id); err != nil {
		t.Fatal(err)
	}
	if _, ok := eventually.Event(10*time.Second, sub.C, func(e Event) bool { return e.Type == EventRemoved && e.Run.ID == id }); !ok {
		t.Fatal("no removed event")
	}
	if _, err := reg.record(id); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the removed run's record: %v", err)
	}
	if _, err := reg.record(live); err != nil {
		t.Errorf("the live run's record: %v", err)
	}
	if err := s.Remove(id); !errors.Is(err, ErrUnknownRun) {
		t.Errorf("a second remove: %v", err)
	}
	if _, err := s.Info(id); err == nil {
		t.Error("the removed run is still known")
	}
}
