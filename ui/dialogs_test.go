package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// A dialog closed gives the keys back to the mode it opened from: a search prompt to
// scroll mode, a question to browsing.
func TestDialogReturnsToItsMode(t *testing.T) {
	h := twoRuns(t)
	h.key("pgup")
	if h.m.mode != modeScroll {
		t.Fatalf("pgup: mode %v, want scroll", h.m.mode)
	}
	if h.key("/"); h.m.mode != modeDialog || !h.m.dlg.Open() || h.m.dlg.ret != modeScroll {
		t.Fatalf("/: mode %v, open %v, returns to %v", h.m.mode, h.m.dlg.Open(), h.m.dlg.ret)
	}
	if h.key("esc"); h.m.mode != modeScroll || h.m.dlg.Open() {
		t.Fatalf("esc: mode %v, want scroll", h.m.mode)
	}
	if h.key("q"); h.m.mode != modeBrowse { // back to live
		t.Fatalf("q: mode %v, want browsing", h.m.mode)
	}
	if h.key("x"); h.m.mode != modeDialog || !h.m.dlg.Asking() {
		t.Fatalf("x: mode %v, asking %v", h.m.mode, h.m.dlg.Asking())
	}
	if h.key("n"); h.m.mode != modeBrowse {
		t.Fatalf("n: mode %v, want browsing", h.m.mode)
	}
}

// requests keeps one read of each kind in flight; one asked for meanwhile is due
// when the first ends, and only then.
func TestRequestsOneInFlight(t *testing.T) {
	engine := newFake()
	r := newRequests()
	if r.tree(engine, "r1") == nil || r.tree(engine, "r1") != nil {
		t.Fatal("a second tree read went while the first was on its way")
	}
	if !r.treeDone(TreesMsg{}) || r.treeDone(TreesMsg{}) {
		t.Fatal("the tree read asked for meanwhile was not due once, after the first")
	}
	if r.log(engine, "r1") == nil || r.log(engine, "r1") != nil || r.log(engine, "r2") == nil {
		t.Fatal("log reads: not one per run in flight")
	}
	if !r.logDone("r1") || r.logDone("r1") || r.logDone("r2") {
		t.Fatal("the log read asked for meanwhile was not due once")
	}
	if r.refresh(engine, "", t0) == nil || r.refresh(engine, "", t0) != nil {
		t.Fatal("a second snapshot and metrics read went while the first were on their way")
	}
	// The counters are read again after a lifecycle event or metricsEvery, not on every
	// refresh: what they count comes with events.
	r.snapshotDone(false, true)
	r.metricsDone()
	if cmd := r.refresh(engine, "", t0.Add(time.Second)); len(collectCmd(cmd)) != 1 {
		t.Fatalf("an idle refresh read %d things, want the snapshot alone", len(collectCmd(cmd)))
	}
	r.snapshotDone(false, true)
	r.metricsDue = true
	if cmd := r.refresh(engine, "", t0.Add(2*time.Second)); len(collectCmd(cmd)) != 2 {
		t.Fatal("the counters were not read after an event")
	}
	r.snapshotDone(false, true)
	r.metricsDone()
	if cmd := r.refresh(engine, "", t0.Add(2*time.Second+metricsEvery)); len(collectCmd(cmd)) != 2 {
		t.Fatal("the counters were not read after metricsEvery")
	}
	if gen := r.tickGen; r.restartTick() != gen+1 {
		t.Fatal("restartTick did not start a new generation")
	}
}

// collectCmd is the commands a (batch) command holds, without running them.
func collectCmd(cmd tea.Cmd) []tea.Cmd {
	if cmd == nil {
		return nil
	}
	if b, ok := cmd().(tea.BatchMsg); ok {
		var out []tea.Cmd
		for _, c := range b {
			out = append(out, collectCmd(c)...)
		}
		return out
	}
	return []tea.Cmd{cmd}
}
