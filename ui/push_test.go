package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"corral/reaper"
	"corral/runs"
	"corral/runs/api"
	"corral/watchdog"

	tea "charm.land/bubbletea/v2"
)

// An attached UI whose server pushes what moves with no event (api.EventRefresh) asks
// nothing while nothing happens: once the reads after the last activity have backed
// off, five minutes of the clock's wakes make no request at all (counted at the engine,
// not timed). What the server pushes reaches the screen with no read: a renewed lease
// is drawn; a moved usage reads the tree once (a fork moved it), and moved counters
// are read once.
func TestPushedIdleAttachAsksNothing(t *testing.T) {
	r := liveRun("r1", "quiet", false)
	r.Watchdog = watchdog.State{} // no countdown
	r.CreatedAt = t0.Add(-72*time.Hour - 5*time.Hour)
	r.StartedAt = r.CreatedAt // its age, in days, turns in 19 h
	r.Usage = runs.Usage{CPU: time.Second, Memory: 1 << 20, Known: true}
	engine := newFake(r)
	engine.trees = map[string][]reaper.TreeProc{"r1": {{Proc: reaper.Proc{PID: 4242, PPID: 1, PGID: 4242, SID: 4242, Comm: "sh"}}}}
	h := newHarness(t, engine, 160, 40, r)
	step := func(msg tea.Msg) (drawn int) { // as in TestIdleAttachDrawsNothingUntilSomethingChanges
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
	push := func(i runs.Info) int {
		return step(EventMsg{Event: runs.Event{Type: api.EventRefresh, Time: h.clk.t, Run: i}})
	}
	h.view()
	step(EventMsg{Event: runs.Event{Type: api.EventRefresh, Time: h.clk.t}}) // the server pushes
	push(r)                                                                  // the looked-at run, with its usage
	for range 6 {                                                            // the first reads: they back off
		h.clk.t = h.clk.t.Add(refreshIdleMax)
		tick()
	}
	if v := h.view(); !strings.Contains(v, "4242") {
		t.Fatalf("the tree is not shown:\n%s", v)
	}
	before := len(engine.Calls())
	drawn := 0
	for start := h.clk.t; h.clk.t.Sub(start) < 5*time.Minute; {
		h.clk.t = h.clk.t.Add(time.Second) // the clock woke (for whatever it was armed)
		drawn += tick()
		if h.clk.t.Sub(start)%(10*time.Second) == 0 {
			r.LeaseExpiresAt = h.clk.t.Add(10 * time.Second)
			drawn += push(r) // a renewal: its lease line moves
		}
	}
	if calls := engine.Calls()[before:]; len(calls) != 0 {
		t.Errorf("an idle attach whose server pushes made %d requests in 5 min, want none: %v", len(calls), calls)
	}
	if drawn < 25 {
		t.Errorf("30 pushed renewals drew %d frames: the lease line did not move", drawn)
	}
	if v := h.view(); !strings.Contains(v, r.LeaseExpiresAt.Format(time.TimeOnly)) {
		t.Errorf("the pushed lease is not shown:\n%s", v)
	}

	// The run's usage moved: its tree is read (once), and a new process drawn.
	engine.mu.Lock()
	engine.trees = map[string][]reaper.TreeProc{"r1": append(slices.Clone(engine.trees["r1"]),
		reaper.TreeProc{Proc: reaper.Proc{PID: 4343, PPID: 4242, PGID: 4242, SID: 4242, Comm: "make"}, Depth: 1})}
	engine.mu.Unlock()
	r.Usage.CPU += time.Second
	trees := len(engine.called("Trees"))
	push(r)
	if n := len(engine.called("Trees")) - trees; n != 1 {
		t.Errorf("a pushed usage that moved read the tree %d times, want once", n)
	}
	if v := h.view(); !strings.Contains(v, "4343") {
		t.Errorf("the new process is not shown:\n%s", v)
	}
	// The counters moved: read once.
	before = len(engine.called("Metrics"))
	step(EventMsg{Event: runs.Event{Type: api.EventRefresh, Time: h.clk.t, Detail: api.DetailCounters}})
	if n := len(engine.called("Metrics")) - before; n != 1 {
		t.Errorf("pushed counters read them %d times, want once", n)
	}
}

// A snapshot read that brings the selected run's moved usage reads its tree as well: the
// server's pushes compare with what they last pushed, so a move a snapshot read saw
// first may never come as a push, and the tree, unread while the pushes come, would
// miss the process whose fork moved it.
func TestSnapshotUsageMoveReadsTree(t *testing.T) {
	r := liveRun("r1", "quiet", false)
	r.Usage = runs.Usage{CPU: time.Second, Memory: 1 << 20, Known: true}
	engine := newFake(r)
	h := newHarness(t, engine, 160, 40, r)
	h.send(SnapshotMsg{Runs: []runs.Info{r}})
	trees := len(engine.called("Trees"))
	h.send(SnapshotMsg{Runs: []runs.Info{r}})
	if n := len(engine.called("Trees")) - trees; n != 0 {
		t.Errorf("a snapshot with the same usage read the tree %d times", n)
	}
	r.Usage.CPU += time.Second
	h.send(SnapshotMsg{Runs: []runs.Info{r}})
	if n := len(engine.called("Trees")) - trees; n != 1 {
		t.Errorf("a snapshot that moved the selected run's usage read its tree %d times, want once", n)
	}
}

// A server lost while the UI relied on its pushes: the periodic reads come back, as
// the server that comes back may not push.
func TestServerLostBringsTheReadsBack(t *testing.T) {
	r := liveRun("r1", "quiet", false)
	r.Watchdog = watchdog.State{}
	r.Usage = runs.Usage{CPU: time.Second, Known: true}
	engine := newFake(r)
	h := newHarness(t, engine, 160, 40, r)
	tick := func() { h.send(tickMsg{gen: h.m.req.tickGen}) }
	h.send(EventMsg{Event: runs.Event{Type: api.EventRefresh, Time: h.clk.t}}, EventMsg{Event: runs.Event{Type: api.EventRefresh, Time: h.clk.t, Run: r}})
	for range 6 {
		h.clk.t = h.clk.t.Add(refreshIdleMax)
		tick()
	}
	before := len(engine.Calls())
	for range 60 {
		h.clk.t = h.clk.t.Add(time.Second)
		tick()
	}
	if n := len(engine.Calls()) - before; n != 0 {
		t.Fatalf("pushed idle: %d requests in a minute", n)
	}
	h.send(EventMsg{Event: runs.Event{Type: api.EventServerLost, Time: h.clk.t, Detail: "test"}})
	before = len(engine.called("Snapshot"))
	for range 60 {
		h.clk.t = h.clk.t.Add(time.Second)
		tick()
	}
	if n := len(engine.called("Snapshot")) - before; n == 0 {
		t.Error("after the server was lost the snapshot is never read again")
	}
}
