package reaper

import (
	"context"
	"slices"
	"testing"
	"time"
)

// Many session runs ended at once (a shutdown without cgroups) share their scans of
// /proc: a scan at most every roundGap in all, not one per session every poll,
// and still every session verified empty, those that ignore SIGTERM killed after
// their grace, the rest ended by it.
func TestTerminateManySessionsShareScans(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 10
	}
	var kids []*child
	var targets []Target
	for i := range n {
		args := []string{"tree", "1"}
		if i%5 == 0 {
			args = append(args, "ignore-term")
		}
		c := start(t, args[0], args[1:]...)
		c.learnTree()
		kids = append(kids, c)
		targets = append(targets, Target{SID: c.pid(), Grace: 500 * time.Millisecond, Sweep: 5 * time.Second, Retries: 2})
	}
	ctxs := make([]context.Context, n)
	for i := range ctxs {
		ctxs[i] = context.Background()
	}
	before := fullScans.Load()
	reps := TerminateMany(ctxs, targets)
	scans := fullScans.Load() - before
	for i, rep := range reps {
		if !rep.VerifiedEmpty {
			t.Fatalf("session %d not verified empty: %+v", i, rep)
		}
		want := []Step{StepTerm}
		if i%5 == 0 {
			want = []Step{StepTerm, StepKill}
		}
		if !slices.Equal(rep.Steps, want) {
			t.Errorf("session %d: steps %v, want %v", i, rep.Steps, want)
		}
		if rep.Killed != 2 {
			t.Errorf("session %d: %d ended, want its 2 processes", i, rep.Killed)
		}
	}
	for _, c := range kids {
		c.wait()
		c.requireGone()
	}
	// Unshared, each session scanned every poll through its grace (n × grace/poll:
	// 2,000 here); shared, a scan at most every roundGap through the longest grace,
	// however fast a scan is.
	if most := int64(2*targets[0].Grace/roundGap) + 10; scans > most {
		t.Errorf("%d full scans of /proc for %d sessions, want them shared (at most %d)", scans, n, most)
	}
	t.Logf("%d full scans for %d sessions", scans, n)
}
