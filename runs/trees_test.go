package runs

import (
	"slices"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
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
	// A second full scan with the same last pid confirms it (a child allocated just
	// before the first read of 7 may have been missing from /proc in the first scan).
	c.procs(7, nil, []int{root}, nil)
	if c.scans != 2 {
		t.Fatalf("%d scans, want a second, confirming one", c.scans)
	}
	all, _ = c.procs(7, nil, []int{root}, nil)
	if got := treePIDs(all, root); !slices.Equal(got, full) || c.scans != 2 || len(all) != 3 {
		t.Fatalf("cached: tree %v of %d procs, %d scans; want %v from the cache", got, len(all), c.scans, full)
	}
	// The grandchild (the highest pid) exits: the cached answer drops it.
	if err := syscall.Kill(full[2], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually.True(t, 10*time.Second, "the killed member to die", func() bool {
		p, err := reaper.ReadProc(full[2])
		return err != nil || p.State == 'Z'
	})
	hits := c.hits
	all, _ = c.procs(7, nil, []int{root}, nil)
	if got := treePIDs(all, root); !slices.Equal(got, full[:2]) || c.hits != hits+1 {
		t.Fatalf("cached answer after the kill: %v (hits %d → %d), want %v from the cache", got, hits, c.hits, full[:2])
	}
	for c.hits < maxCachedTrees { // at most maxCachedTrees answers in a row from the cache
		c.procs(7, nil, []int{root}, nil)
	}
	scans := c.scans
	c.procs(7, nil, []int{root}, nil)
	if c.scans != scans+1 {
		t.Fatalf("no full scan after %d cached answers", maxCachedTrees)
	}
	c.procs(7, nil, []int{root}, nil) // confirmed again
	scans = c.scans
	c.procs(8, nil, []int{root}, nil)                                 // something forked
	c.procs(8, nil, []int{root, 999999}, nil)                         // a new run
	c.procs(8, nil, []int{root}, []reaper.Fingerprint{{PID: 999998}}) // an extra not asked about
	c.procs(8, syscall.ENOENT, []int{root}, nil)                      // no last pid
	if c.scans != scans+4 {
		t.Errorf("%d scans, want %d", c.scans, scans+4)
	}
	// An extra asked about at the last full scan is covered even though it is gone.
	c.procs(8, nil, []int{root}, []reaper.Fingerprint{{PID: 999998}})
	c.procs(8, nil, []int{root}, []reaper.Fingerprint{{PID: 999998}})
	scans = c.scans
	c.procs(8, nil, []int{root}, []reaper.Fingerprint{{PID: 999998}})
	if c.scans != scans {
		t.Errorf("a gone extra forces a full scan every time")
	}
}
