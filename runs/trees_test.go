package runs

import (
	"slices"
	"syscall"
	"testing"
	"time"

	"corral/reaper"
)

// treePIDs is the pids of one tree, sorted.
func treePIDs(all []reaper.Proc, root int) []int {
	var pids []int
	for _, p := range reaper.Tree(all, root, nil) {
		pids = append(pids, p.PID)
	}
	slices.Sort(pids)
	return pids
}

// The tree cache answers from the members last seen while the kernel's last pid stands
// still (a member that exits drops out), and scans /proc again when it moves or when a
// root or an extra process is new to it.
func TestTreeCache(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, childSpec(false, "tree", "2"))
	waitOutput(t, s, id, "tree ready")
	info, _ := s.Info(id)
	root := info.PID
	var c treeCache
	all, err := c.procs(7, nil, []int{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	full := treePIDs(all, root)
	if len(full) != 3 || c.scans != 1 {
		t.Fatalf("full scan: tree %v, %d scans", full, c.scans)
	}
	all, _ = c.procs(7, nil, []int{root}, nil)
	if got := treePIDs(all, root); !slices.Equal(got, full) || c.scans != 1 || len(all) != 3 {
		t.Fatalf("cached: tree %v of %d procs, %d scans; want %v from the cache", got, len(all), c.scans, full)
	}
	// The grandchild (the highest pid) exits: the cached answer drops it.
	if err := syscall.Kill(full[2], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		all, _ = c.procs(7, nil, []int{root}, nil)
		if got := treePIDs(all, root); slices.Equal(got, full[:2]) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the killed member is still in the cached tree: %v", treePIDs(all, root))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if c.scans != 1 {
		t.Fatalf("%d scans, want the cache only", c.scans)
	}
	c.procs(8, nil, []int{root}, nil)                                 // something forked
	c.procs(8, nil, []int{root, 999999}, nil)                         // a new run
	c.procs(8, nil, []int{root}, []reaper.Fingerprint{{PID: 999998}}) // an escapee not seen
	c.procs(8, syscall.ENOENT, []int{root}, nil)                      // no last pid
	if c.scans != 5 {
		t.Errorf("%d scans, want 5", c.scans)
	}
}
