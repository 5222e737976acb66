//go:build linux

package runs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// within runs f and fails the test if it has not returned by d: the bugs below hang.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

// A FIFO, a link to /dev/zero and an oversized file among the records are set aside
// without blocking or reading them whole (a FIFO once hung `corral ls` forever holding
// registry.lock; a link to /dev/zero grew it to 3 GB).
func TestRegistryRefusesNonRegularRecords(t *testing.T) {
	dir := t.TempDir()
	openReg(t, dir).Close()
	runsDir := filepath.Join(dir, "runs")
	if err := syscall.Mkfifo(filepath.Join(runsDir, "rfifo.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(runsDir, "rzero.json")); err != nil {
		t.Fatal(err)
	}
	big := append([]byte(`{"runId":"rbig","name":"`), make([]byte, recordCap)...)
	for i := range big[24:] {
		big[24+i] = 'x'
	}
	if err := os.WriteFile(filepath.Join(runsDir, "rbig.json"), append(big, `"}`...), 0o600); err != nil {
		t.Fatal(err)
	}
	var reg *Registry
	within(t, 10*time.Second, "OpenRegistry", func() { reg = openReg(t, dir) })
	var recs []Record
	within(t, 10*time.Second, "List", func() {
		var err error
		if recs, err = reg.List(); err != nil {
			t.Error(err)
		}
	})
	if len(recs) != 0 {
		t.Fatalf("records %+v, want none", recs)
	}
	w := strings.Join(reg.Warnings(), "\n")
	for _, name := range []string{"rfifo.json", "rzero.json", "rbig.json"} {
		if !strings.Contains(w, name) {
			t.Errorf("no warning for %s in %q", name, w)
		}
		if _, err := os.Lstat(filepath.Join(runsDir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s not set aside: %v", name, err)
		}
	}
}

// A cancel never waits on registry.lock: with the lock held elsewhere, Cancel returns
// at once; the exited record lands once the lock is free, and Wait waits for it
// (a live run's cancel once waited behind a hung `corral ls`).
func TestCancelDoesNotWaitForRegistryLock(t *testing.T) {
	dir := t.TempDir()
	reg := openReg(t, dir)
	s := regSup(t, reg)
	id := spawn(t, s, childSpec(false, "sleep"))
	waitOutput(t, s, id, "ready")
	l, err := reg.root.Lock("registry.lock", true) // another holder: its own open file
	if err != nil {
		t.Fatal(err)
	}
	within(t, 2*time.Second, "Cancel with registry.lock held", func() {
		if err := s.Cancel(id); err != nil {
			t.Error(err)
		}
	})
	waitState(t, s, id, Exited) // the process is ended and the run moves on meanwhile
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	_, werr := s.Wait(ctx, id)
	cancel()
	if werr == nil {
		t.Fatal("Wait returned before the exited record could be written")
	}
	l.Release()
	waitEnd(t, s, id)
	rec, err := reg.record(id)
	if err != nil || rec.State != Exited || rec.Reason != ManualCancel {
		t.Fatalf("record %+v (%v), want exited by manual-cancel", rec, err)
	}
}

// A record whose owner id climbs out of the state dir is set aside, and nothing
// outside the state dir is touched (`corral ls` once deleted a file there).
func TestBadOwnerIDIsSetAside(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "state")
	openReg(t, dir).Close()
	victim := filepath.Join(parent, "victim.lock")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	rec := `{"runId":"rbad","state":"running","pid":99999999,"ownerInstanceId":"../../victim","leaseEpoch":1}`
	if err := os.WriteFile(filepath.Join(dir, "runs", "rbad.json"), []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	reg := openReg(t, dir)
	s := regSup(t, reg)
	if _, err := s.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatalf("a file outside the state dir is gone: %v", err)
	}
	if w := strings.Join(reg.Warnings(), "\n"); !strings.Contains(w, "rbad.json") || !strings.Contains(w, "invalid id") {
		t.Fatalf("warnings %q, want rbad.json set aside for its invalid id", w)
	}
}

// A state dir with events.jsonl or registry.lock linked elsewhere is refused, and
// the link's target is not written.
func TestStateFileSymlinksRefused(t *testing.T) {
	for _, name := range []string{"events.jsonl", "registry.lock"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			openReg(t, dir).Close()
			target := filepath.Join(t.TempDir(), "target")
			if err := os.WriteFile(target, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(dir, name))
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			reg, err := OpenRegistry(dir, shortLeases())
			if err == nil {
				reg.Close()
				t.Fatalf("a state dir with %s a symlink was opened", name)
			}
			if !strings.Contains(err.Error(), "symbolic link") {
				t.Fatalf("error %q does not say why", err)
			}
			if st, _ := os.Stat(target); st.Size() != 0 {
				t.Fatal("the link's target was written")
			}
		})
	}
}

// enospc fails every record write whose record satisfies when, counting them.
func enospc(reg *Registry, when func(Record) bool) *atomic.Int32 {
	var n atomic.Int32
	reg.writeFault = func(rec Record) error {
		if when(rec) {
			n.Add(1)
			return syscall.ENOSPC
		}
		return nil
	}
	return &n
}

// A first write that fails is a spawn error that names the errno, and the program never
// runs: the held child is never released (sessions), or nothing is started in the
// cgroup its record was to name (cgroups).
func TestFirstWriteFailureNamesENOSPC(t *testing.T) {
	dir := t.TempDir()
	reg := openReg(t, dir)
	enospc(reg, func(rec Record) bool { return rec.State == Running || rec.State == Starting })
	s := regSup(t, reg)
	marker := filepath.Join(t.TempDir(), "ran")
	id, err := s.Spawn(Spec{Argv: []string{"/bin/sh", "-c", ": >" + marker}})
	if err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("spawn error %v, want one naming ENOSPC", err)
	}
	if !errors.Is(err, ErrRegistry) {
		t.Errorf("spawn error %v, want ErrRegistry", err)
	}
	info := waitEnd(t, s, id)
	if info.Reason != SpawnError || !strings.Contains(info.SpawnErr, "no space left on device") ||
		!strings.Contains(info.RecordErr, "no space left on device") {
		t.Fatalf("info %+v, want spawn-error and record error naming ENOSPC", info)
	}
	if sum := Summary(info); !strings.Contains(sum, "spawn-error (registry: ") || !strings.Contains(sum, reg.runs.Path()) {
		t.Errorf("summary %q does not name the failure and its path", sum)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the program ran without a record")
	}
	// Nothing more is written for a run whose first record failed (each later write
	// would fail alike, and was once retried for 11 s).
	if _, err := os.Lstat(reg.recordPath(id)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a record was written after the first failed: %v", err)
	}
}

// The final write is retried in the background until it lands; the failures and the
// recovery are events, and the record never stays running.
func TestFinalWriteRetried(t *testing.T) {
	dir := t.TempDir()
	reg := openReg(t, dir)
	var n, fails atomic.Int32
	reg.writeFault = func(rec Record) error { // fail the first three tries only
		if rec.State == Exited && fails.Add(1) <= 3 {
			n.Add(1)
			return syscall.ENOSPC
		}
		return nil
	}
	s := regSup(t, reg)
	id := spawn(t, s, childSpec(false, "exit", "3"))
	waitEnd(t, s, id)
	rec, err := reg.record(id)
	if err != nil || rec.State != Exited {
		t.Fatalf("record %+v (%v), want exited", rec, err)
	}
	if info, _ := s.Info(id); info.RecordErr != "" {
		t.Errorf("record error %q after the write landed", info.RecordErr)
	}
	if n.Load() != 3 {
		t.Fatalf("%d failed writes, want 3", n.Load())
	}
	ev, _ := os.ReadFile(filepath.Join(dir, "events.jsonl"))
	if !strings.Contains(string(ev), "no space left on device") || !strings.Contains(string(ev), "registry-recovered") {
		t.Fatalf("events do not tell the failure and the recovery:\n%s", ev)
	}
}

// A final write that never lands removes the record rather than leave it running.
func TestFinalWriteGivenUpDropsRecord(t *testing.T) {
	defer func(d, m time.Duration, n int) { writeRetryDelay, writeRetryMax, writeRetries = d, m, n }(
		writeRetryDelay, writeRetryMax, writeRetries)
	writeRetryDelay, writeRetryMax, writeRetries = time.Millisecond, 5*time.Millisecond, 3
	dir := t.TempDir()
	reg := openReg(t, dir)
	enospc(reg, func(rec Record) bool { return rec.State == Exited || rec.State == Exiting })
	s := regSup(t, reg)
	id := spawn(t, s, childSpec(false, "exit", "0"))
	info := waitEnd(t, s, id)
	if _, err := os.Lstat(reg.recordPath(id)); !errors.Is(err, os.ErrNotExist) {
		rec, _ := reg.record(id)
		t.Fatalf("record left as %s after the final write failed for good", rec.State)
	}
	// corral run warns with the cause and the path (it once said nothing).
	if w := RecordWarning(info); !strings.Contains(w, "no space left on device") || !strings.Contains(w, reg.runs.Path()) {
		t.Errorf("record warning %q, want the errno and the path", w)
	}
	ev, _ := os.ReadFile(filepath.Join(dir, "events.jsonl"))
	if !strings.Contains(string(ev), "record-dropped") {
		t.Fatalf("no record-dropped event:\n%s", ev)
	}
}

// With a registry (so held), a missing program is still a synchronous spawn error,
// and one the kernel refuses after the release is a spawn error naming the errno.
func TestHeldSpawnErrors(t *testing.T) {
	kinds(t, func(t *testing.T, pty bool) {
		s := regSup(t, openReg(t, t.TempDir()))
		_, err := s.Spawn(Spec{Argv: []string{"/nonexistent/corral-prog"}, PTY: pty})
		if !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("missing program: %v, want ErrNotExist", err)
		}
		bad := filepath.Join(t.TempDir(), "not-a-program")
		if err := os.WriteFile(bad, []byte("\x00\x01garbage"), 0o755); err != nil {
			t.Fatal(err)
		}
		id, err := s.Spawn(Spec{Argv: []string{bad}, PTY: pty})
		if !errors.Is(err, syscall.ENOEXEC) {
			t.Fatalf("unexecutable program: %v, want ENOEXEC", err)
		}
		info := waitEnd(t, s, id)
		if info.Reason != SpawnError || !strings.Contains(info.SpawnErr, "exec format error") {
			t.Fatalf("info %+v, want spawn-error naming the errno", info)
		}
	})
}

// A cancel that comes while the first record waits for registry.lock returns at once,
// and the program never runs: the held child is never released, or (cgroups) nothing
// is started.
func TestCancelDuringCommitRunsNothing(t *testing.T) {
	reg := openReg(t, t.TempDir())
	s := regSup(t, reg)
	l, err := reg.root.Lock("registry.lock", true)
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	spawned := make(chan string, 1)
	go func() {
		id, _ := s.Spawn(Spec{Argv: []string{"/bin/sh", "-c", ": >" + marker + "; exec sleep 1000"}})
		spawned <- id
	}()
	// The run waits for the lock with a held process (sessions), or with its cgroup
	// made and nothing started in it (cgroups: its record names the cgroup first).
	id := eventually.Value(t, 10*time.Second, "the run to wait for its first record", func() (string, bool) {
		for _, info := range s.Snapshot() {
			if info.PID != 0 || info.Cgroup != "" {
				return info.ID, true
			}
		}
		return "", false
	})
	within(t, 2*time.Second, "Cancel while the record waits for the lock", func() { s.Cancel(id) })
	l.Release()
	<-spawned
	info := waitEnd(t, s, id)
	if info.Reason != ManualCancel {
		t.Fatalf("reason %s, want manual-cancel", info.Reason)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the program ran after a cancel that came before its release")
	}
}
