package runs

import "testing"

// A tree asked of a run whose cgroup lists its members takes no /proc scan, though
// another live run has no cgroup (one whose cgroup could not be made): the
// subscription's first reply asks for the first run's tree, and must not wait for a
// read of every process on the machine. That other run's tree still takes one.
func TestTreesScanOnlyForARunAskedAbout(t *testing.T) {
	s := cgroupSup(t)
	a := spawn(t, s, childSpec(false, "sleep"))
	b := spawn(t, s, childSpec(false, "sleep"))
	waitOutput(t, s, a, "ready sleep")
	waitOutput(t, s, b, "ready sleep")
	rb, err := s.get(b)
	if err != nil {
		t.Fatal(err)
	}
	rb.mu.Lock()
	cg := rb.cgroup
	rb.cgroup = nil // b's tree is its session's, as without a cgroup
	rb.mu.Unlock()
	defer func() { // its end empties and removes its cgroup
		rb.mu.Lock()
		rb.cgroup = cg
		rb.mu.Unlock()
	}()
	trees, err := s.Trees(a)
	if err != nil {
		t.Fatal(err)
	}
	if len(trees[a]) == 0 || trees[b] != nil || s.trees.scans != 0 {
		t.Errorf("the cgroup run's tree: %v (and b's %v) after %d scans, want its members and no scan", trees[a], trees[b], s.trees.scans)
	}
	if trees, _ := s.Trees(b); len(trees[b]) == 0 || s.trees.scans != 1 {
		t.Errorf("the session run's tree: %v after %d scans, want one scan", trees[b], s.trees.scans)
	}
}
