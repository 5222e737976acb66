package ui

import (
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/watchdog"
)

// The clock wakes for a figure on screen only when it turns: every second while an
// age or countdown shows seconds, at the next minute while the ages show minutes and
// nothing counts down.
func TestClockWakesOnlyForFiguresThatTurn(t *testing.T) {
	old := liveRun("r1", "old", false)
	old.Watchdog = watchdog.State{} // no countdown
	old.CreatedAt, old.StartedAt = t0.Add(-10*time.Minute-20*time.Second), t0.Add(-10*time.Minute-20*time.Second)
	h := newHarness(t, newFake(), 120, 30, old)
	h.view()
	now := h.m.now
	for name, at := range map[string]time.Time{"list": h.m.list.NextChange(), "details": h.m.details.NextChange(), "terminal": h.m.term.NextChange()} {
		if !at.IsZero() && at.Sub(now) < 30*time.Second {
			t.Errorf("%s: with ages in minutes and no countdown the clock wakes in %v", name, at.Sub(now))
		}
	}
	if at := h.m.list.NextChange(); at.Sub(now) != 40*time.Second {
		t.Errorf("the list's age 10m20s turns in %v, want 40s", at.Sub(now))
	}

	young := liveRun("r2", "young", false)
	young.Watchdog = watchdog.State{}
	young.CreatedAt, young.StartedAt = t0.Add(-5*time.Second), t0.Add(-5*time.Second)
	h = newHarness(t, newFake(), 120, 30, old, young)
	if v := h.view(); !strings.Contains(v, "5s") {
		t.Fatalf("the young run's age is not shown:\n%s", v)
	}
	if at := h.m.list.NextChange(); at.IsZero() || at.Sub(h.m.now) > time.Second {
		t.Fatalf("an age in seconds on screen: the clock wakes in %v, want within a second", at.Sub(h.m.now))
	}
	// When it wakes, the figure has turned, though nothing else moved.
	h.clk.t = h.m.list.NextChange()
	h.send(tickMsg{gen: h.m.req.tickGen})
	if v := h.view(); !strings.Contains(v, "6s") {
		t.Fatalf("the age did not turn when the clock woke:\n%s", v)
	}

	counting := liveRun("r3", "counting", false) // a no-output deadline 50 s away
	h = newHarness(t, newFake(), 120, 30, counting)
	h.view()
	if at := h.m.list.NextChange(); at.IsZero() || at.Sub(h.m.now) > time.Second {
		t.Fatalf("a countdown in seconds on screen: the clock wakes in %v, want within a second", at.Sub(h.m.now))
	}
}

// The tick chain waits for the clock: it fires once for the first thing due, a chain
// started later ends the older one's wait (its tick is dropped as stale), and a firing
// no command waited for is not lost.
func TestWakeClockWaits(t *testing.T) {
	w := newWakeClock()
	done := make(chan tickMsg, 4)
	run := func(gen int) { cmd := w.wait(gen); go func() { done <- cmd().(tickMsg) }() }
	run(1)
	w.wakeAt(time.Now().Add(time.Hour))
	w.wakeAt(time.Now().Add(20 * time.Millisecond)) // sooner: moves it
	w.wakeAt(time.Now().Add(time.Minute))           // later: ignored
	select {
	case m := <-done:
		if m.gen != 1 {
			t.Fatalf("tick of chain %d, want 1", m.gen)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the clock did not fire for the soonest time it was armed for")
	}
	run(2)
	run(3) // restarted: chain 2's wait ends at once
	select {
	case m := <-done:
		if m.gen != 2 {
			t.Fatalf("tick of chain %d, want the stale chain 2", m.gen)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a restarted chain left the older one waiting")
	}
	w.wakeAt(time.Now())
	select {
	case m := <-done:
		if m.gen != 3 {
			t.Fatalf("tick of chain %d, want 3", m.gen)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the clock did not fire")
	}
	w.wakeAt(time.Now()) // nobody waits
	eventually.True(t, 5*time.Second, "the clock fires with nobody waiting", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.missed
	})
	run(4)
	select {
	case m := <-done:
		if m.gen != 4 {
			t.Fatalf("tick of chain %d, want 4", m.gen)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a firing while no command waited was lost")
	}
}

// The periodic reads wake the clock when the first of them is due, by their periods
// as they back off (seconds apart while nothing happens), never sooner than a moment
// after the Update that found them due.
func TestReadsDueWakeTheClock(t *testing.T) {
	now := t0
	r := newRequests()
	r.snapAt, r.snapEvery = now, refreshIdleMax
	r.treeAt, r.treeEvery = now, refreshIdleMax
	r.metricsAt = now
	if got := r.due("r1", now).Sub(now); got != refreshIdleMax {
		t.Errorf("idle reads due in %v, want %v", got, refreshIdleMax)
	}
	if got := r.due("", now).Sub(now); got != refreshIdleMax {
		t.Errorf("idle reads without a selection due in %v, want %v", got, refreshIdleMax)
	}
	r.metricsDue = true // a lifecycle event came
	if got := r.due("r1", now).Sub(now); got != refreshEvery {
		t.Errorf("counters after an event due in %v, want %v", got, refreshEvery)
	}
	r.active() // a key: the snapshot and tree are read again every refreshEvery
	later := now.Add(time.Minute)
	if got := r.due("r1", later).Sub(later); got != activityGrace {
		t.Errorf("reads long due are read in %v, want %v", got, activityGrace)
	}
	r.snap, r.metrics, r.trees = true, true, true // all on their way
	if got := r.due("r1", later); !got.IsZero() {
		t.Errorf("reads on their way are due at %v, want none", got)
	}
}
