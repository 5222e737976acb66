package ui

import (
	"strings"
	"testing"

	"corral/ptyhost/screen"
	"corral/runs"
)

func TestAttentionFromBellUntilSelected(t *testing.T) {
	engine := newFake()
	a, b := liveRun("r1", "claude", true), liveRun("r2", "codex", true)
	engine.screens["r1"] = screenWith(80, 24, "")
	engine.screens["r2"] = screenWith(80, 24, "\a") // rung before the UI saw it: not news
	h := newHarness(t, engine, 120, 30, a, b)
	if h.m.list.Attention("r2") {
		t.Fatal("a bell from before the UI started marks the run")
	}
	engine.screens["r2"].Write([]byte("waiting for you\a"))
	h.send(OutputMsg{IDs: []string{"r2"}})
	if !h.m.list.Attention("r2") {
		t.Fatal("a bell on an unselected run left no marker")
	}
	if v := h.view(); !strings.Contains(v, "● codex") {
		t.Errorf("no marker in the list:\n%s", v)
	}
	if title := h.m.View().WindowTitle; title != "corral · 2 live · attention 1" {
		t.Errorf("window title %q, want the attention in it", title)
	}
	engine.screens["r1"].Write([]byte("\x1b]9;done\x07"))
	h.send(OutputMsg{IDs: []string{"r1"}})
	if h.m.list.Attention("r1") {
		t.Error("the selected run got a marker: it is being looked at")
	}
	h.key("j")
	if h.m.list.Attention("r2") {
		t.Error("selecting the run did not clear its marker")
	}
	if title := h.m.View().WindowTitle; title != "corral · 2 live" {
		t.Errorf("window title %q after the marker cleared", title)
	}
	engine.screens["r1"].Write([]byte("\x1b]777;notify;title;body\x07"))
	h.send(OutputMsg{IDs: []string{"r1"}})
	if !h.m.list.Attention("r1") {
		t.Error("an OSC 777 notification on an unselected run left no marker")
	}
}

func TestAttentionWhenUnselectedRunEnds(t *testing.T) {
	engine := newFake()
	a, b := liveRun("r1", "claude", true), liveRun("r2", "tests", false)
	h := newHarness(t, engine, 120, 30, a, b)
	ended := endedRun("r2", "tests")
	h.send(EventMsg{Event: runs.Event{Type: runs.EventExit, Run: ended, Time: t0}})
	if !h.m.list.Attention("r2") {
		t.Error("an unselected run ended without a marker")
	}
	a2 := endedRun("r1", "claude")
	h.send(EventMsg{Event: runs.Event{Type: runs.EventExit, Run: a2, Time: t0}})
	if h.m.list.Attention("r1") {
		t.Error("the selected run that ended got a marker")
	}
}

// panicScreen is a Screen whose rendering panics, as a broken emulator might.
type panicScreen struct{ state screen.ScreenState }

func (p panicScreen) Render() string            { panic("emulator exploded") }
func (p panicScreen) State() screen.ScreenState { return p.state }
func (p panicScreen) Version() uint64           { return 1 }
func (p panicScreen) Attention() uint64         { return p.state.Attention }
func (p panicScreen) Size() (int, int)          { return 80, 24 }
func (p panicScreen) Text() string              { panic("emulator exploded") }

func TestPanickingRenderShowsErrorInPane(t *testing.T) {
	engine := newFake()
	h := newHarness(t, engine, 120, 30, liveRun("r1", "claude", true), liveRun("r2", "other", true))
	h.send(ScreenMsg{ID: "r1", Screen: panicScreen{}})
	v := h.view()
	if !strings.Contains(v, "failed to render") || !strings.Contains(v, "emulator exploded") {
		t.Fatalf("no error in the pane:\n%s", v)
	}
	if !strings.Contains(v, "Runs 2") || !strings.Contains(v, "Events") {
		t.Errorf("the rest of the screen is gone:\n%s", v)
	}
	h.key("j") // the UI goes on
	if sel, _ := h.m.list.Selected(); sel.ID != "r2" {
		t.Error("the UI stopped working after the panic")
	}
}

// A run removed anywhere (another UI, corral remove) leaves this UI's list with one
// note; the answer to this UI's own remove, which may come after the event, says
// nothing more. A spawn-error's exit line says why the run could not start.
func TestRemovedRunLeavesTheList(t *testing.T) {
	engine := newFake()
	a, b := liveRun("r1", "claude", true), endedRun("r2", "tests")
	h := newHarness(t, engine, 120, 30, a, b)
	h.send(EventMsg{Event: runs.Event{Type: runs.EventRemoved, Run: b, Time: t0}})
	h.send(RemovedMsg{ID: "r2"})
	if _, ok := h.m.list.Run("r2"); ok {
		t.Fatal("the removed run is still listed")
	}
	if v := h.view(); strings.Count(v, "removed tests r2") != 1 {
		t.Errorf("want one removed note:\n%s", v)
	}
	bad := endedRun("r3", "typo")
	bad.Reason, bad.Signal, bad.SpawnErr = runs.SpawnError, 0, `exec: "typo": not found`
	h.send(EventMsg{Event: runs.Event{Type: runs.EventExit, Run: bad, Time: t0}})
	if v := h.view(); !strings.Contains(v, `typo r3 exited: spawn-error: exec: "typo": not found`) {
		t.Errorf("the spawn-error's exit line does not say why:\n%s", v)
	}
}
