package runs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// A shutdown writes each run's record once, the exited one, even when its run ended
// more than shutdownHold after it was stopped: the exiting record is held from the
// run's stop signal on and once more from its cleanup's end, not only from the stop.
// (A thousand runs' stop signals and cleanups took longer than the hold, and their
// exiting records were written after all: two writes each.) On sessions, where such a
// run's escalation took about 2 s here, longer than the hold, the exiting record may
// be written meanwhile, as the hold means it to: there every run is only checked to be
// ended, verified, with its exited record last.
func TestShutdownWritesEachRecordOnce(t *testing.T) {
	for _, backend := range []struct {
		name string
		opt  func() Option
		once bool // the exited record is the only one written
	}{
		{"cgroup", func() Option { return WithCgroups(FindCgroups("")) }, true},
		{"session", sessions, false},
	} {
		t.Run(backend.name, func(t *testing.T) {
			s, w := recordedSup(t, backend.opt())
			// Each run takes 0.8 of the hold to end on SIGTERM (on a pipe: no SIGHUP
			// first), and its end begins half a hold after its stop: it ends 1.3 holds
			// after it. A hold of 4 s: what the cleanup's end to the exited record takes
			// on a loaded machine (reaping, the drain, the write) stays within it.
			was := shutdownHold
			shutdownHold = 4 * time.Second
			defer func() { shutdownHold = was }()
			var ids []string
			for range 3 {
				trap := fmt.Sprintf("trap 'sleep %.1f; exit 0' TERM; sleep 100000 & echo trapped; wait", 0.8*shutdownHold.Seconds())
				ids = append(ids, spawn(t, s, Spec{Shell: trap, Grace: 30 * time.Second}))
			}
			for _, id := range ids {
				waitOutput(t, s, id, "trapped") // stopped once its trap is set
			}
			runningRecords(t, s, len(ids))
			w.arm()
			s.finalizeHook = func(string) { time.Sleep(shutdownHold / 2) }
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			start := time.Now()
			if err := s.Shutdown(ctx); err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took < shutdownHold {
				t.Fatalf("shut down in %v: the runs ended before the hold would have passed, nothing tested", took)
			}
			wrote := w.states()
			for _, id := range ids {
				got := wrote[id]
				if len(got) == 0 || got[len(got)-1] != Exited {
					t.Errorf("run %s: records written at shutdown %v, want the exited one last", id, got)
				}
				if backend.once && !slices.Equal(got, []State{Exited}) {
					t.Errorf("run %s: records written at shutdown %v, want only the exited one", id, got)
				}
				if i, _ := s.Info(id); i.State != Exited || i.Reason != SupervisorShutdown || !i.Cleanup.VerifiedEmpty {
					t.Errorf("run %s: %s, %s, verified empty %v", id, i.State, i.Reason, i.Cleanup.VerifiedEmpty)
				}
			}
		})
	}
}

// A shutdown's deadline cuts the grace of runs that ignore SIGTERM while they are
// being ended all at once: they are killed, verified empty, long before their grace.
func TestShutdownDeadlineCutsTheGrace(t *testing.T) {
	bothBackends(t, "", func(t *testing.T, backend Option) {
		s, err := New(WithDefaults(testDefaults()), WithLogDir(t.TempDir()), WithEscapeDetection(), backend)
		if err != nil {
			t.Fatal(err)
		}
		shutOnCleanup(t, s)
		var ids []string
		for range 2 {
			ids = append(ids, spawn(t, s, Spec{Shell: "trap '' TERM; sleep 100000 & echo started; wait", Grace: time.Minute}))
		}
		for _, id := range ids {
			waitOutput(t, s, id, "started")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		start := time.Now()
		s.Shutdown(ctx)
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("shut down in %v: the deadline did not cut the minute of grace", took)
		}
		for _, id := range ids {
			if i, _ := s.Info(id); i.State != Exited || !i.Cleanup.VerifiedEmpty || i.Cleanup.Hard == 0 {
				t.Errorf("run %s: %s, verified empty %v, killed hard %d", id, i.State, i.Cleanup.VerifiedEmpty, i.Cleanup.Hard)
			}
		}
	})
}

// A run whose record was being written behind when the shutdown came (another held
// the registry's lock) still has its exiting record held back: the exited record is
// the only one written from the shutdown on. (The hold was taken only by a writer the
// shutdown started; one already busy wrote the exiting record as soon as it could.)
func TestShutdownHoldsARecordQueuedBehindAWrite(t *testing.T) {
	dir := t.TempDir()
	reg, err := OpenRegistry(filepath.Join(dir, "state"), testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() }) // after the supervisor's shutdown (cleanups run last first)
	var mu sync.Mutex
	var armed bool
	var wrote []State
	reg.writeFault = func(rec Record) error {
		mu.Lock()
		if armed {
			wrote = append(wrote, rec.State)
		}
		mu.Unlock()
		return nil
	}
	s, err := New(WithDefaults(testDefaults()), WithRegistry(reg), WithLogDir(filepath.Join(dir, "logs")),
		WithCgroups(FindCgroups("")))
	if err != nil {
		t.Fatal(err)
	}
	shutOnCleanup(t, s)
	was := shutdownHold
	shutdownHold = 4 * time.Second
	defer func() { shutdownHold = was }()
	// It takes a second to end on SIGTERM: its exiting record is written before its
	// exited one unless it is held. Stopped once its trap is set and its sleep started
	// (a sleep forked after the stop signal would live through the whole grace).
	id := spawn(t, s, Spec{Shell: "trap 'sleep 1; exit 0' TERM; sleep 100000 & echo trapped; wait", Grace: 30 * time.Second})
	waitOutput(t, s, id, "trapped")
	eventually.True(t, 10*time.Second, "the running record written", func() bool {
		recs, err := s.reg.List()
		return err == nil && len(recs) == 1 && recs[0].State == Running && recs[0].PID != 0
	})
	r, err := s.get(id)
	if err != nil {
		t.Fatal(err)
	}
	held, release := make(chan struct{}), make(chan struct{})
	go reg.locked(true, func() error { close(held); <-release; return nil })
	<-held
	r.mu.Lock()
	r.persistLightLocked() // its writer waits for the lock
	busy := r.wb.busy
	r.mu.Unlock()
	if !busy {
		t.Fatal("the run's record is not being written behind")
	}
	mu.Lock()
	armed = true
	mu.Unlock()
	shut := make(chan error, 1)
	start := time.Now()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		shut <- s.Shutdown(ctx)
	}()
	waitState(t, s, id, Exiting)
	close(release)
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	mu.Lock()
	defer mu.Unlock()
	if len(wrote) == 0 || wrote[len(wrote)-1] != Exited || slices.Contains(wrote, Exiting) {
		t.Errorf("records written from the shutdown on %v, want the exited one and never the exiting one", wrote)
	}
	if took < time.Second {
		i, _ := s.Info(id)
		t.Errorf("shut down in %v: the run ended before its exiting record would have been written, nothing tested (%s %+v)", took, i.Reason, i.Cleanup)
	}
}

// A heartbeat during a shutdown writes no record: the runs are all ending, each to
// write its last output with its exited record. (The beat's locked section folded the
// shutdown's batch of final records into a file each: a thousand at once.)
func TestShutdownBeatWritesNoRecord(t *testing.T) {
	bothBackends(t, "", func(t *testing.T, backend Option) {
		gate := filepath.Join(t.TempDir(), "gate") // removed after the shutdown (cleanups run last first)
		s, w := recordedSup(t, backend)
		was := shutdownHold
		shutdownHold = 20 * time.Second // no exiting record is written for the hold's end
		defer func() { shutdownHold = was }()
		// Each run ends once the gate is made, after the beat: both are ending (not
		// ended) when it comes, however slow the machine.
		open := func() {
			if f, err := os.Create(gate); err == nil {
				f.Close()
			}
		}
		t.Cleanup(open) // a test that failed early lets its runs end (before the shutdown: last first)
		var ids []string
		for range 2 {
			// It prints as it ends: output after its record was written, which a beat writes.
			trap := "trap 'echo bye; while [ ! -e " + gate + " ]; do sleep 0.05; done; exit 0' TERM; sleep 100000 & echo trapped; wait"
			ids = append(ids, spawn(t, s, Spec{Shell: trap, Grace: 30 * time.Second}))
		}
		for _, id := range ids {
			waitOutput(t, s, id, "trapped")
		}
		runningRecords(t, s, len(ids))
		w.arm()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		shut := make(chan error, 1)
		go func() { shut <- s.Shutdown(ctx) }()
		for _, id := range ids {
			waitOutput(t, s, id, "bye") // in its grace, having printed
		}
		s.beatMu.Lock()
		s.leased = time.Time{} // the lease is due: the beat renews it
		s.beatMu.Unlock()
		live := func(when string) {
			var got []string
			for _, r := range s.liveRuns() {
				got = append(got, r.id)
			}
			for _, id := range ids {
				if !slices.Contains(got, id) {
					t.Fatalf("run %s not live %s the beat (live: %v): the beat came after it ended, nothing tested", id, when, got)
				}
			}
		}
		live("before")
		s.heartbeat()
		live("after")
		open()
		if err := <-shut; err != nil {
			t.Fatal(err)
		}
		wrote := w.states()
		for _, id := range ids {
			if got := wrote[id]; !slices.Equal(got, []State{Exited}) {
				t.Errorf("run %s: records written at shutdown %v, want only the exited one", id, got)
			}
			if i, _ := s.Info(id); i.State != Exited || !i.Cleanup.VerifiedEmpty {
				t.Errorf("run %s: %s, verified empty %v", id, i.State, i.Cleanup.VerifiedEmpty)
			}
		}
	})
}

// shutOnCleanup shuts s down when the test ends, should it end before its own
// shutdown (a failure): no run of it is left behind. A second shutdown finds every run
// ended.
func shutOnCleanup(t *testing.T, s *Supervisor) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		s.Shutdown(ctx)
	})
}

// recordWrites is the states of the records a registry writes for each run, from
// arm on.
type recordWrites struct {
	mu    sync.Mutex
	armed bool
	wrote map[string][]State
}

func (w *recordWrites) arm() {
	w.mu.Lock()
	w.armed = true
	w.mu.Unlock()
}

// states is a copy of what was written since arm.
func (w *recordWrites) states() map[string][]State {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string][]State, len(w.wrote))
	for id, st := range w.wrote {
		out[id] = slices.Clone(st)
	}
	return out
}

// recordedSup is a supervisor with escape detection on backend, over a registry whose
// record writes w notes once armed; shut down, then its registry closed, at the
// test's end.
func recordedSup(t *testing.T, backend Option) (*Supervisor, *recordWrites) {
	t.Helper()
	dir := t.TempDir()
	reg, err := OpenRegistry(filepath.Join(dir, "state"), testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() }) // after the supervisor's shutdown (cleanups run last first)
	w := &recordWrites{wrote: map[string][]State{}}
	reg.writeFault = func(rec Record) error {
		w.mu.Lock()
		if w.armed {
			w.wrote[rec.ID] = append(w.wrote[rec.ID], rec.State)
		}
		w.mu.Unlock()
		return nil
	}
	s, err := New(WithDefaults(testDefaults()), WithRegistry(reg), WithLogDir(filepath.Join(dir, "logs")),
		WithEscapeDetection(), backend)
	if err != nil {
		t.Fatal(err)
	}
	shutOnCleanup(t, s)
	return s, w
}

// runningRecords waits for n records of running runs, each with its pid: the runs'
// starts written behind, landed.
func runningRecords(t *testing.T, s *Supervisor, n int) {
	t.Helper()
	eventually.True(t, 10*time.Second, "the running records written", func() bool {
		recs, err := s.reg.List()
		k := 0
		for _, rec := range recs {
			if rec.State == Running && rec.PID != 0 {
				k++
			}
		}
		return err == nil && k == n
	})
}
