package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// mouseRuns is twoRuns with the mouse on ([ui] mouse = true).
func mouseRuns(t *testing.T) *harness {
	engine := newFake()
	a, b := liveRun("r1", "claude", true), endedRun("r2", "tests")
	engine.snap = []runs.Info{a, b}
	engine.screens["r1"] = screenWith(80, 24, "$ ")
	return harnessWith(t, engine, Options{Initial: []runs.Info{a, b}, Mouse: true}, 120, 30)
}

func click(x, y int) tea.MouseClickMsg { return tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft} }

func wheel(x, y int, up bool) tea.MouseWheelMsg {
	b := tea.MouseWheelDown
	if up {
		b = tea.MouseWheelUp
	}
	return tea.MouseWheelMsg{X: x, Y: y, Button: b}
}

// Off by default: Corral asks for no mouse events (the terminal keeps its selection),
// and a click that arrives anyway does nothing.
func TestMouseOffByDefault(t *testing.T) {
	h := twoRuns(t)
	if mm := h.m.View().MouseMode; mm != tea.MouseModeNone {
		t.Fatalf("mouse mode %v with the mouse off", mm)
	}
	h.send(click(3, 2))
	if h.m.list.SelectedKey() != "r1" {
		t.Errorf("a click selected %s with the mouse off", h.m.list.SelectedKey())
	}
}

// On: a click selects the row under it, a click in the terminal pane focuses the run,
// and a click in the list while focused leaves focus and selects.
func TestMouseClickSelectsAndFocuses(t *testing.T) {
	h := mouseRuns(t)
	if mm := h.m.View().MouseMode; mm != tea.MouseModeCellMotion {
		t.Fatalf("mouse mode %v with the mouse on", mm)
	}
	h.send(click(3, 2)) // the list's second row (its frame is line 0)
	if h.m.list.SelectedKey() != "r2" {
		t.Fatalf("click on row 2 selected %s", h.m.list.SelectedKey())
	}
	if v := h.view(); !strings.Contains(v, "Details tests r2") {
		t.Errorf("details do not follow the click:\n%s", v)
	}
	h.send(click(3, 1), click(h.m.lay.term.x+5, h.m.lay.term.y+3))
	if h.m.list.SelectedKey() != "r1" || h.m.mode != modeFocus {
		t.Fatalf("selected %s mode %v, want r1 focused", h.m.list.SelectedKey(), h.m.mode)
	}
	if len(h.engine.called("Write")) != 0 {
		t.Error("a click in the pane reached an app that did not ask for the mouse")
	}
	h.send(click(3, 2))
	if h.m.mode != modeBrowse || h.m.list.SelectedKey() != "r2" {
		t.Errorf("click in the list while focused: mode %v selected %s", h.m.mode, h.m.list.SelectedKey())
	}
	h.send(click(3, 3)) // below the last row: nothing
	if h.m.list.SelectedKey() != "r2" {
		t.Errorf("a click below the rows selected %s", h.m.list.SelectedKey())
	}
}

// The mouse key turns it on and off at run time and says so.
func TestMouseToggleKey(t *testing.T) {
	h := twoRuns(t)
	h.key("M")
	if mm := h.m.View().MouseMode; mm != tea.MouseModeCellMotion || !strings.Contains(h.view(), "mouse on") {
		t.Fatalf("M did not turn the mouse on: %v\n%s", mm, h.view())
	}
	h.send(click(3, 2))
	if h.m.list.SelectedKey() != "r2" {
		t.Error("click ignored after M")
	}
	h.key("M")
	if mm := h.m.View().MouseMode; mm != tea.MouseModeNone || !strings.Contains(h.view(), "mouse off") {
		t.Errorf("M did not turn the mouse off: %v", mm)
	}
}

// A focused app that asked for the mouse still gets the events inside the pane with
// Corral's mouse on, wheel included; the mode asked for is the app's.
func TestMouseOnStillForwardsToApp(t *testing.T) {
	engine := newFake()
	engine.screens["r1"] = screenWith(80, 24, "\x1b[?1003h\x1b[?1006h")
	a := liveRun("r1", "claude", true)
	h := harnessWith(t, engine, Options{Initial: []runs.Info{a}, Mouse: true}, 120, 30)
	h.key("enter")
	if mm := h.m.View().MouseMode; mm != tea.MouseModeAllMotion {
		t.Errorf("mouse mode %v, want the app's all-motion", mm)
	}
	x, y := h.m.lay.term.x+1+4, h.m.lay.term.y+1+2
	h.send(wheel(x, y, true), click(x, y))
	want := []string{`Write r1 "\x1b[<64;5;3M"`, `Write r1 "\x1b[<0;5;3M"`}
	if got := engine.called("Write"); !slices.Equal(got, want) {
		t.Errorf("writes %q, want %q", got, want)
	}
	if h.m.mode != modeFocus {
		t.Error("the app's wheel left focus")
	}
}

// histLog is n numbered lines as a run's log.
func histLog(n int) runs.Output {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "line %03d\r\n", i)
	}
	return runs.Output{Chunks: []runs.Chunk{{Data: []byte(b.String())}}}
}

// The wheel over the terminal pane enters scroll mode with the first notch already
// scrolled, then scrolls three lines a notch; over the events pane it scrolls those.
func TestMouseWheelScrolls(t *testing.T) {
	h := mouseRuns(t)
	h.engine.ptyOutput("r1", histLog(100))
	tx, ty := h.m.lay.term.x+5, h.m.lay.term.y+5
	h.send(wheel(tx, ty, true))
	if h.m.mode != modeScroll {
		t.Fatalf("wheel up did not enter scroll mode (mode %v)", h.m.mode)
	}
	_, rows := h.m.term.InnerSize()
	if top := scrollTop(h.m.term); top != 100-rows-wheelLines {
		t.Fatalf("first notch: top %d, want %d", top, 100-rows-wheelLines)
	}
	h.send(wheel(tx, ty, true), wheel(tx, ty, true), wheel(tx, ty, false))
	if top := scrollTop(h.m.term); top != 100-rows-2*wheelLines {
		t.Errorf("after up, up, down: top %d, want %d", top, 100-rows-2*wheelLines)
	}
	if v := h.view(); !strings.Contains(v, fmt.Sprintf("line %03d", 100-rows-2*wheelLines)) {
		t.Errorf("the window does not show its first line:\n%s", v)
	}
	for i := range 10 {
		h.m.events.AddNote(t0, fmt.Sprintf("note %d", i))
	}
	ex, ey := h.m.lay.term.x+5, h.m.lay.term.y+h.m.lay.term.h+2
	h.send(wheel(ex, ey, true))
	if v := h.view(); !strings.Contains(v, "Events ↑") || !strings.Contains(v, "note 8") || strings.Contains(v, "note 9") {
		t.Errorf("wheel over the events pane did not scroll it one line:\n%s", v)
	}
}

// With the mouse on, the wheel over a focused run whose app did not ask for the mouse
// leaves focus and scrolls its transcript, as tmux enters copy mode (review: it did
// nothing, while the README says the wheel scrolls the transcript).
func TestMouseWheelInFocusScrolls(t *testing.T) {
	h := mouseRuns(t)
	h.engine.ptyOutput("r1", histLog(100))
	h.key("enter")
	if h.m.mode != modeFocus {
		t.Fatalf("enter did not focus (mode %v)", h.m.mode)
	}
	h.send(wheel(h.m.lay.term.x+5, h.m.lay.term.y+5, true))
	if h.m.mode != modeScroll || !h.m.term.Scrolling() {
		t.Fatalf("wheel up in focus: mode %v, want scrolling", h.m.mode)
	}
	if w := h.engine.written["r1"]; len(w) > 0 {
		t.Errorf("the wheel reached the app that did not ask for it: %q", w)
	}
}
