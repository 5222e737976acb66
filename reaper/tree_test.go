package reaper

import (
	"slices"
	"testing"
	"time"
)

func TestTreePure(t *testing.T) {
	const corral = 50
	all := []Proc{
		{PID: 100, PPID: corral, PGID: 100, SID: 100, State: 'S', UTime: 150, STime: 50},
		{PID: 105, PPID: 100, PGID: 100, SID: 100, State: 'S'},
		{PID: 103, PPID: 100, PGID: 103, SID: 100, State: 'S'}, // a job
		{PID: 110, PPID: 103, PGID: 103, SID: 100, State: 'R'},
		{PID: 104, PPID: 100, PGID: 100, SID: 100, State: 'Z'},                  // exited
		{PID: 120, PPID: corral, PGID: 100, SID: 100, State: 'S'},               // orphaned member
		{PID: 115, PPID: corral, PGID: 115, SID: 115, State: 'S', StartTime: 7}, // attributed escapee
		{PID: 116, PPID: 115, PGID: 115, SID: 115, State: 'S'},                  // its child, not attributed
		{PID: 130, PPID: 100, PGID: 130, SID: 130, State: 'S', StartTime: 9},    // stale fingerprint
		{PID: 200, PPID: 1, PGID: 200, SID: 200, State: 'S'},                    // another run
		{PID: 141, PPID: 140, PGID: 100, SID: 100, State: 'S'},                  // a racy ppid cycle
		{PID: 140, PPID: 141, PGID: 100, SID: 100, State: 'S'},
	}
	extra := []Fingerprint{{PID: 115, StartTime: 7}, {PID: 130, StartTime: 8}, {PID: 999}}
	tr := Tree(all, 100, extra)
	wantTree(t, tr, []int{100, 103, 110, 105, 115, 120, 140, 141},
		[]Mark{MarkRoot, MarkGroup, MarkGroup, MarkMember, MarkEscaped, MarkMember, MarkMember, MarkMember},
		[]int{0, 1, 2, 1, 0, 0, 0, 1})
	if want := 200 * time.Second / time.Duration(ClockTicks()); tr[0].CPU != want {
		t.Errorf("root CPU %v, want %v", tr[0].CPU, want)
	}

	// Once the root has exited, its orphans are tops of their own.
	gone := []Proc{{PID: 300, PGID: 300, SID: 300, State: 'Z'},
		{PID: 302, PPID: corral, PGID: 300, SID: 300, State: 'S'}, {PID: 301, PPID: corral, PGID: 300, SID: 300, State: 'S'}}
	wantTree(t, Tree(gone, 300, nil), []int{301, 302}, []Mark{MarkMember, MarkMember}, []int{0, 0})
	if tr := Tree(all, 999, nil); len(tr) != 0 {
		t.Errorf("unknown session: %+v", tr)
	}
}

// wantTree compares pids, marks and depths of a tree with what the test expects.
func wantTree(t *testing.T, got []TreeProc, pids []int, marks []Mark, depths []int) {
	t.Helper()
	var gp, gd []int
	var gm []Mark
	for _, p := range got {
		gp, gm, gd = append(gp, p.PID), append(gm, p.Mark), append(gd, p.Depth)
	}
	if !slices.Equal(gp, pids) || !slices.Equal(gm, marks) || !slices.Equal(gd, depths) {
		t.Errorf("tree pids %v marks %v depths %v; want %v %v %v", gp, gm, gd, pids, marks, depths)
	}
}

// TestCPUTimeNoOverflow: ticks × 1e9 would overflow past 9.2e9 ticks (about three
// years of CPU at 100 Hz, a few weeks for a busy process on a large machine).
func TestCPUTimeNoOverflow(t *testing.T) {
	if ClockTicks() != 100 {
		t.Skip("CLK_TCK is not 100")
	}
	p := Proc{UTime: 1e10, STime: 50}
	if got, want := cpuTime(p), 1e8*time.Second+500*time.Millisecond; got != want {
		t.Errorf("cpuTime = %v, want %v", got, want)
	}
}

func TestEscapeesPure(t *testing.T) {
	all := []Proc{
		{PID: 10, PPID: 1, SID: 10, State: 'S'},
		{PID: 11, PPID: 10, SID: 10, State: 'S'},
		{PID: 12, PPID: 11, SID: 12, State: 'S'}, // setsid under a member
		{PID: 13, PPID: 12, SID: 12, State: 'S'}, // the escapee's own child
		{PID: 14, PPID: 10, SID: 14, State: 'Z'}, // an exited escapee
		{PID: 15, PPID: 1, SID: 15, State: 'S'},  // not in the tree
	}
	var got []int
	for _, p := range Escapees(all, 10, 10) {
		got = append(got, p.PID)
	}
	if !slices.Equal(got, []int{12, 13}) {
		t.Errorf("Escapees = %v, want [12 13]", got)
	}
}
