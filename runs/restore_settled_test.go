package runs

import (
	"context"
	"os/exec"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// The UI's question at attach (a dry run that does not wait) is answered without a
// reconcile while every record not ended is this server's, from the records as they
// are now: a run a pass closed lost right after a crash is offered, one restored
// since is not offered again, one past the TTL a pass removes is not offered; a live
// record of another instance makes it reconcile first, as before.
func TestRestoreDryRunAtAttachSkipsTheReconcile(t *testing.T) {
	reg, err := OpenRegistry(t.TempDir(), shortLeases())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	lost := func(id string, state State) Record {
		return Record{ID: id, Name: "name-" + id, Backend: KindPTY, PID: 4242, State: state, Reason: Lost,
			Spec:      Spec{Name: "name-" + id, Shell: "echo restored-" + id + "; sleep 30", PTY: true, Restore: true},
			CreatedAt: now.Add(time.Duration(len(id)) * time.Millisecond), OwnerInstanceID: "igone"}
	}
	write := func(recs ...Record) {
		t.Helper()
		if err := reg.withLock(func() error {
			for _, rec := range recs {
				if err := reg.write(rec); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	clock := reg.clock
	reg.clock = func() time.Time { return now.Add(-RestorableTTL - time.Hour) }
	write(lost("rancient", Exited)) // a pass removes it: never offered
	reg.clock = clock
	write(lost("rweb", Exited))
	s := newSup(t, WithRegistry(reg), WithDefaults(shortLeases()))
	var passes atomic.Int32
	stop, _ := s.listen(func([]Decision, error) { passes.Add(1) })
	defer stop()
	// The passes started so far, each told to its listeners (a pass tells the dry run
	// that waits for it and this count in either order).
	passed := func() int32 {
		s.later.wg.Wait()
		return passes.Load()
	}
	offered := func(want ...string) {
		t.Helper()
		dry, err := s.Restore(context.Background(), RestoreOptions{DryRun: true, NoWait: true})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range dry {
			if r.Skipped == SkippedDryRun {
				got = append(got, r.From)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("the dry run at attach offers %q (%+v), want %q", got, dry, want)
		}
	}
	offered("rweb")
	if n := passed(); n != 0 {
		t.Errorf("the dry run at attach reconciled (%d passes) with every open record this server's", n)
	}

	// A crash: a live record of an instance that is gone, its process too.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	crashed := lost("rcrash", Running)
	crashed.PID, crashed.LeaseExpiresAt = gone.Process.Pid, now.Add(-time.Minute)
	write(crashed)
	offered("rweb", "rcrash") // a pass first, which closes it lost
	if n := passed(); n != 1 {
		t.Errorf("the dry run at attach with another instance's open record: %d passes, want 1", n)
	}
	offered("rweb", "rcrash") // from the records again, with rcrash's rewritten
	if n := passed(); n != 1 {
		t.Errorf("the dry run at attach reconciled again (%d passes)", n)
	}

	// A restore: its record says so at once, and it is not offered again.
	done, err := s.Restore(context.Background(), RestoreOptions{IDs: []string{"rweb"}})
	if err != nil || len(done) != 1 || done[0].ID == "" {
		t.Fatalf("restore rweb: %+v %v", done, err)
	}
	defer func() {
		s.Cancel(done[0].ID)
		waitEnd(t, s, done[0].ID)
	}()
	offered("rcrash")
}
