package runs

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"corral/config"
	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// A shutdown of a thousand runs (idle PTY runs of `sh -c 'sleep 100000'`, a shell
// and its child each, as a server opens its supervisor: escape detection, cgroups
// where they can be made) leaves nothing: every run exited with supervisor-shutdown
// and its session verified empty, no process of any of their sessions (as they were
// before the shutdown) alive or unreaped, every record closed, no run's cgroup left.
func TestShutdownThousandLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("a thousand runs")
	}
	n := 1000
	if s := os.Getenv("CORRAL_BENCH_RUNS"); s != "" {
		n = benchRuns()
	}
	bothBackends(t, config.Default().CgroupRoot, func(t *testing.T, backend Option) { shutdownLeavesNothing(t, n, backend) })
}

func shutdownLeavesNothing(t *testing.T, n int, backend Option) {
	dir := t.TempDir()
	d := config.Default()
	// No heartbeat within the test: on a loaded machine a shutdown of a thousand runs
	// can take the default beat's 2–5 s, and a beat then renews the records of the runs
	// not yet ending (a running record among those the shutdown writes) and folds the
	// batch of final records, both as they should: not what this test counts.
	d.LeaseHeartbeat, d.LeaseExpiry = time.Hour, 2*time.Hour
	reg, err := OpenRegistry(filepath.Join(dir, "state"), d)
	if err != nil {
		t.Fatal(err)
	}
	closeReg := sync.OnceFunc(func() { reg.Close() })
	defer closeReg()
	s, err := New(WithDefaults(d), WithRegistry(reg), WithEscapeDetection(), backend,
		WithLogDir(filepath.Join(dir, "logs")))
	if err != nil {
		t.Fatal(err)
	}
	sids := map[int]bool{}
	for range n {
		id, err := s.Spawn(Spec{Argv: []string{"sh", "-c", "sleep 100000"}, PTY: true, Cols: 80, Rows: 24})
		if err != nil {
			s.Shutdown(context.Background())
			t.Fatal(err)
		}
		i, _ := s.Info(id)
		sids[i.PID] = true
	}
	// Every process of the runs' sessions, by pid and start time: a pid is taken again
	// soon on a busy machine (another suite beside this one starts sessions of its own
	// that get these numbers once the runs are gone), so what is left is told by both.
	before := map[int]uint64{}
	procs, err := reaper.ListAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range procs {
		if sids[p.SID] {
			before[p.PID] = p.StartTime
		}
	}
	// Every run's running record written (they are written behind the spawn), so that
	// what is counted below is the shutdown's alone.
	eventually.True(t, 2*time.Minute, "every run's running record written", func() bool {
		recs, err := reg.List()
		if err != nil || len(recs) != n {
			return false
		}
		for _, rec := range recs {
			if rec.State != Running || rec.PID == 0 {
				return false
			}
		}
		return true
	})
	// Every record the shutdown writes, by run: each run's exited one, once.
	var mu sync.Mutex
	wrote := map[string][]State{}
	reg.writeFault = func(rec Record) error {
		mu.Lock()
		wrote[rec.ID] = append(wrote[rec.ID], rec.State)
		mu.Unlock()
		return nil
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d runs shut down in %v", n, time.Since(start).Round(time.Millisecond))
	infos := s.Snapshot()
	if len(infos) != n {
		t.Fatalf("%d runs, want %d", len(infos), n)
	}
	for _, i := range infos {
		if i.State != Exited || i.Reason != SupervisorShutdown || !i.Cleanup.VerifiedEmpty {
			t.Fatalf("run %s: %s, %s, verified empty %v", i.ID, i.State, i.Reason, i.Cleanup.VerifiedEmpty)
		}
	}
	all, err := reaper.ListAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range all {
		if st, ok := before[p.PID]; ok && st == p.StartTime {
			t.Errorf("left behind: pid %d (%s) state %c of session %d", p.PID, p.Comm, p.State, p.SID)
		}
	}
	mu.Lock()
	for _, i := range infos {
		if got := wrote[i.ID]; len(got) == 0 || got[len(got)-1] != Exited || len(got) > 2 {
			t.Errorf("run %s: records written at shutdown %v, want the exited one last (and at most the exiting one before it)", i.ID, got)
		}
	}
	mu.Unlock()
	// The final records, as another Corral reads them (a registry of its own, opened
	// after this one ended without folding them: they are in one batch file), are
	// every run's, exited and verified empty.
	if _, err := os.Stat(filepath.Join(dir, "state", "runs", batchName)); err != nil {
		t.Errorf("no batch of final records: %v", err)
	}
	closeReg()
	next, err := OpenRegistry(filepath.Join(dir, "state"), d)
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	recs, err := next.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.State != Exited || !r.Cleanup.VerifiedEmpty {
			t.Fatalf("record %s: %s, verified empty %v", r.ID, r.State, r.Cleanup.VerifiedEmpty)
		}
		if r.Cgroup != "" {
			if _, err := os.Stat(r.Cgroup); err == nil {
				t.Errorf("run %s's cgroup %s is left", r.ID, r.Cgroup)
			}
		}
	}
	if len(recs) != n {
		t.Errorf("%d records, want %d", len(recs), n)
	}
}
