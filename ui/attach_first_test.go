package ui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// What a UI asks for as it starts over many runs: the selected run's screen on its
// own (its first frame shows it), every other screen in one message rather than a
// command and a message each, and the restore's dry run (a reconcile of every record,
// half a second at a thousand runs, on the connection the first frame's reads share)
// only once the first snapshot came back. Each screen is kept all the same.
func TestStartAsksLittleBeforeTheFirstFrame(t *testing.T) {
	engine := newFake()
	var all []runs.Info
	for k := range 200 {
		id := fmt.Sprintf("r%03d", k)
		all = append(all, liveRun(id, "run"+id, true))
		engine.screens[id] = screenWith(80, 24, "$ "+id)
	}
	engine.snap = all
	m, err := newModel(Options{Engine: engine, Initial: all}, (&clock{t: t0}).now)
	if err != nil {
		t.Fatal(err)
	}
	m.tick = func(int) tea.Cmd { return nil }
	h := &harness{t: t, m: m, engine: engine, clk: &clock{t: t0}}
	first := h.collect(m.Init())
	screens, batches, offers := 0, 0, 0
	for _, msg := range first {
		switch msg := msg.(type) {
		case ScreenMsg:
			screens++
			if msg.ID != "r000" {
				t.Errorf("the screen of %s read on its own at the start, not the selected run's", msg.ID)
			}
		case ScreensMsg:
			batches++
		case restoreOfferMsg:
			offers++
		}
	}
	if screens != 1 || batches != 1 || offers != 0 || len(first) > 12 {
		t.Fatalf("the start's %d messages: %d screens, %d batches of screens, %d restore offers", len(first), screens, batches, offers)
	}
	later := h.send(first...)
	offers = 0
	for _, msg := range later {
		if _, ok := msg.(restoreOfferMsg); ok {
			offers++
		}
	}
	if offers != 1 {
		t.Errorf("after the first snapshot, %d restore offers", offers)
	}
	if len(h.m.screens) != 200 || h.m.screens["r199"] == nil {
		t.Errorf("%d screens kept, want 200", len(h.m.screens))
	}
}
