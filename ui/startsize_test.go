package ui

import (
	"testing"

	"corral/runs"
)

// A run started for the UI before it has drawn (corral -- CMD, a config's runs) starts
// at its pane's size, so the UI never resizes it and its recording's header is the
// size it is shown at; a run started at any other size is fitted.
func TestStartedAtThePaneSize(t *testing.T) {
	for _, sz := range [][2]int{{150, 40}, {80, 24}, {220, 60}, {60, 20}} {
		for _, pair := range []string{"", "p1"} {
			for _, kept := range []Prefs{{}, {Panes: "list"}} { // the side panes kept in the state dir
				spec := SizedForTerminal(runs.Spec{Name: "agent", Shell: "agent", PTY: true, Pair: pair}, sz[0], sz[1], kept)
				r := liveRun("r1", "agent", true)
				r.Spec, r.Cols, r.Rows = spec, spec.Cols, spec.Rows
				// The UI asks for its size anyway (other UIs may size the run); the engine,
				// which has the run at that size, does nothing (runs/viewers.go).
				h := harnessWith(t, newFake(r), Options{Initial: []runs.Info{r}, Prefs: kept}, sz[0], sz[1])
				if calls := h.engine.called("Resize"); len(calls) > 0 || spec.Cols == 0 {
					t.Errorf("%v pair %q %+v: started at %d×%d, then %q", sz, pair, kept, spec.Cols, spec.Rows, calls)
				}
			}
		}
		other := liveRun("r2", "other", true)
		other.Cols, other.Rows = 120, 40
		if h := newHarness(t, newFake(), sz[0], sz[1], other); len(h.engine.called("Resize")) == 0 {
			t.Errorf("%v: a run at 120×40 was not fitted: the test shows nothing", sz)
		}
	}
	fixed := runs.Spec{PTY: true, FixedSize: true}
	if got := SizedForTerminal(fixed, 150, 40, Prefs{}); got.Cols != 0 {
		t.Errorf("a fixed-size spec was sized %d×%d", got.Cols, got.Rows)
	}
}
