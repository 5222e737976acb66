package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"corral/reaper"
	"corral/watchdog"

	tea "charm.land/bubbletea/v2"
)

// An idle attach with a static screen: over two minutes of the clock's wakes, no
// Update asks for a view (each periodic read that brings what the screen shows is
// Still, and so is the tick that woke only for the reads), and the counters are not
// read on a timer of their own; a read that brings a change is drawn at once.
func TestIdleAttachDrawsNothingUntilSomethingChanges(t *testing.T) {
	r := liveRun("r1", "quiet", false)
	r.Watchdog = watchdog.State{} // no countdown
	r.CreatedAt = t0.Add(-72*time.Hour - 5*time.Hour)
	r.StartedAt = r.CreatedAt // its age, in days, turns in 19 h
	engine := newFake(r)
	engine.trees = map[string][]reaper.TreeProc{"r1": {{Proc: reaper.Proc{PID: 4242, PPID: 1, PGID: 4242, SID: 4242, Comm: "sh"}}}}
	h := newHarness(t, engine, 160, 40, r)
	// step delivers msg and what its commands bring back, one Update at a time, and
	// counts the Updates after which the view would be drawn (not Still).
	step := func(msg tea.Msg) (drawn int) {
		queue := []tea.Msg{msg}
		for len(queue) > 0 {
			next, cmd := h.m.Update(queue[0])
			queue = queue[1:]
			h.m = next.(Model)
			if !h.m.Still() {
				drawn++
				h.view()
			}
			queue = append(queue, h.collect(cmd)...)
		}
		return drawn
	}
	tick := func() int { return step(tickMsg{gen: h.m.req.tickGen}) }
	h.view()
	for range 3 { // the first reads: the tree appears, the reads back off
		h.clk.t = h.clk.t.Add(refreshIdleMax)
		tick()
	}
	if v := h.view(); !strings.Contains(v, "4242") {
		t.Fatalf("the tree is not shown:\n%s", v)
	}
	metrics, snaps, trees := len(engine.called("Metrics")), len(engine.called("Snapshot")), len(engine.called("Trees"))
	drawn := 0
	start := h.clk.t
	for h.clk.t.Sub(start) < 2*time.Minute {
		h.clk.t = h.clk.t.Add(time.Second) // the clock woke (for whatever it was armed)
		drawn += tick()
	}
	if drawn != 0 {
		t.Errorf("an idle attach with a static screen asked for %d views in 2 min, want none", drawn)
	}
	snaps, trees = len(engine.called("Snapshot"))-snaps, len(engine.called("Trees"))-trees
	if snaps > 16 || trees > 16 || snaps == 0 {
		t.Errorf("2 min idle: %d snapshot and %d tree reads, want one each per %v", snaps, trees, refreshIdleMax)
	}
	if n := len(engine.called("Metrics")) - metrics; n > 2 {
		t.Errorf("2 min idle: the counters were read %d times with no event; want at most once a minute, with a snapshot", n)
	}

	// A lease renewal moves the lease line: the next snapshot draws it at once.
	renewed := t0.Add(5 * time.Minute)
	engine.mu.Lock()
	engine.snap[0].LeaseExpiresAt = renewed
	engine.mu.Unlock()
	drawn = 0
	for i := 0; i < 10 && drawn == 0; i++ {
		h.clk.t = h.clk.t.Add(time.Second)
		drawn += tick()
	}
	if drawn == 0 {
		t.Fatal("a snapshot that renewed the lease drew nothing")
	}
	if v := h.view(); !strings.Contains(v, renewed.Format(time.TimeOnly)) {
		t.Errorf("the renewed lease is not shown:\n%s", v)
	}
	// A process started in the run: the next tree read draws it.
	engine.mu.Lock()
	engine.trees = map[string][]reaper.TreeProc{"r1": append(slices.Clone(engine.trees["r1"]), // a fresh reply, as one decoded
		reaper.TreeProc{Proc: reaper.Proc{PID: 4343, PPID: 4242, PGID: 4242, SID: 4242, Comm: "make"}, Depth: 1})}
	engine.mu.Unlock()
	drawn = 0
	for i := 0; i < 10 && drawn == 0; i++ {
		h.clk.t = h.clk.t.Add(time.Second)
		drawn += tick()
	}
	if v := h.view(); drawn == 0 || !strings.Contains(v, "4343") {
		t.Errorf("a new process in the tree: %d views, shown:\n%s", drawn, v)
	}
}
