package ui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

func TestMouseReachesAppThatAskedForIt(t *testing.T) {
	engine := newFake()
	engine.screens["r1"] = screenWith(80, 24, "\x1b[?1000h\x1b[?1006h")
	h := newHarness(t, engine, 120, 30, liveRun("r1", "claude", true))
	x, y := h.m.lay.term.x+1+4, h.m.lay.term.y+1+2 // cell (4,2) of the screen
	h.send(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	if len(engine.called("Write")) != 0 {
		t.Fatal("mouse sent while not focused")
	}
	h.key("enter")
	if mm := h.m.View().MouseMode; mm != tea.MouseModeCellMotion {
		t.Errorf("mouse mode %v while the app wants clicks", mm)
	}
	h.send(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	h.send(tea.MouseClickMsg{X: 2, Y: 2, Button: tea.MouseLeft}) // outside the pane
	if got := engine.called("Write"); !slices.Equal(got, []string{`Write r1 "\x1b[<0;5;3M"`}) {
		t.Errorf("writes %q", got)
	}
}

func TestFocusEventsSentToAppThatAskedForThem(t *testing.T) {
	engine := newFake()
	engine.screens["r1"] = screenWith(80, 24, "\x1b[?1004h")
	h := newHarness(t, engine, 120, 30, liveRun("r1", "claude", true))
	h.key("enter", "ctrl+]")
	if got := engine.called("Write"); !slices.Equal(got, []string{`Write r1 "\x1b[I"`, `Write r1 "\x1b[O"`}) {
		t.Errorf("writes %q", got)
	}
}

func TestPipeRunLogFollowsOutput(t *testing.T) {
	engine := newFake()
	engine.logs["p1"] = runs.Output{Chunks: []runs.Chunk{{Data: []byte("first\n")}}}
	h := newHarness(t, engine, 120, 30, liveRun("p1", "build", false))
	if v := h.view(); !strings.Contains(v, "first") {
		t.Fatalf("the log is not shown:\n%s", v)
	}
	engine.logs["p1"] = runs.Output{Chunks: []runs.Chunk{{Data: []byte("first\nsecond\n")}}, Total: 13}
	h.send(OutputMsg{IDs: []string{"p1"}})
	if v := h.view(); !strings.Contains(v, "second") {
		t.Errorf("new output is not shown:\n%s", v)
	}
}

func TestLogReadsCoalesce(t *testing.T) {
	engine := newFake()
	h := newHarness(t, engine, 120, 30, liveRun("p1", "build", false))
	before := len(engine.called("Log"))
	_, c1 := h.m.Update(OutputMsg{IDs: []string{"p1"}})
	_, c2 := h.m.Update(OutputMsg{IDs: []string{"p1"}})
	_, c3 := h.m.Update(OutputMsg{IDs: []string{"p1"}})
	if c1 == nil || c2 != nil || c3 != nil {
		t.Fatal("a second log read started while one was on its way")
	}
	h.run(c1) // its LogMsg starts the one more read the later output needs
	if n := len(engine.called("Log")) - before; n != 2 {
		t.Errorf("%d log reads, want 2 (one, then one for the output that came meanwhile)", n)
	}
}
