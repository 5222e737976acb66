package ui

import (
	"testing"
	"time"

	"corral/reaper"
)

// While nothing happens the snapshot and the tree are read less and less often, up to
// refreshIdleMax; a read that brings something, an event, output or a key brings the
// period back to refreshEvery at once (an idle attached UI asked twice a second).
func TestIdleReadsBackOff(t *testing.T) {
	engine := newFake()
	r := newRequests()
	now := t0
	reads := func() (snap, tree bool) {
		for _, c := range collectCmd(r.refresh(engine, "r1", now)) {
			switch c().(type) {
			case SnapshotMsg:
				snap = true
			case TreesMsg:
				tree = true
			}
		}
		return snap, tree
	}
	// One tick a second; count the seconds between reads while nothing changes.
	var gaps []int
	last := 0
	for sec := 0; sec <= 40; sec++ {
		now = t0.Add(time.Duration(sec) * time.Second)
		snap, tree := reads()
		if snap != tree {
			t.Fatalf("second %d: snapshot %v, tree %v: both settle alike here", sec, snap, tree)
		}
		if snap {
			if sec > 0 {
				gaps = append(gaps, sec-last)
			}
			last = sec
			r.snapshotDone(false, false)
			r.treeDone(TreesMsg{Trees: map[string][]reaper.TreeProc{}})
			r.metricsDone()
		}
	}
	want := []int{1, 2, 4, 8, 8, 8, 8}
	if len(gaps) < len(want) || !equalInts(gaps[:len(want)], want) {
		t.Fatalf("seconds between idle reads %v, want %v…", gaps, want)
	}

	r.active() // an event, output or a key
	now = now.Add(time.Second)
	if snap, tree := reads(); !snap || !tree {
		t.Fatal("after activity the next tick did not read")
	}
	r.snapshotDone(false, true)
	r.treeDone(TreesMsg{Trees: map[string][]reaper.TreeProc{"r1": {{CPU: time.Second}}}})
	r.metricsDone()
	now = now.Add(time.Second)
	if snap, tree := reads(); !snap || !tree {
		t.Fatal("after reads that brought something new the next second did not read")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
