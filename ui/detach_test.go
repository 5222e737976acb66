package ui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// attached is twoRuns with the UI attached to a server (Options.Detachable).
func attached(t *testing.T) *harness {
	t.Helper()
	engine := newFake()
	a, b := liveRun("r1", "claude", true), endedRun("r2", "tests")
	engine.snap = []runs.Info{a, b}
	engine.screens["r1"] = screenWith(80, 24, "$ ")
	return harnessWith(t, engine, Options{Initial: []runs.Info{a, b}, Detachable: true}, 120, 30)
}

// Attached, q asks whether to detach and then quits without ending anything.
func TestAttachedQuitDetaches(t *testing.T) {
	h := attached(t)
	h.key("q")
	if v := h.view(); h.m.mode != modeDialog || !strings.Contains(v, "Detach? 1 live run(s) keep running in the server (Q ends them all)") {
		t.Fatalf("no detach question:\n%s", v)
	}
	msgs := h.key("y")
	if !hasMsg[tea.QuitMsg](msgs) || !h.m.Detached() || len(h.engine.called("Shutdown")) != 0 {
		t.Errorf("detach: quit %v, detached %v, calls %q", hasMsg[tea.QuitMsg](msgs), h.m.Detached(), h.engine.Calls())
	}
}

// The detach key leaves at once; the shutdown key asks, then ends every run.
func TestAttachedDetachAndShutdownKeys(t *testing.T) {
	h := attached(t)
	if msgs := h.key("D"); !hasMsg[tea.QuitMsg](msgs) || !h.m.Detached() {
		t.Fatal("D did not detach")
	}
	h = attached(t)
	h.key("Q")
	if v := h.view(); !strings.Contains(v, "1 live run(s) will be ended") {
		t.Fatalf("Q did not ask:\n%s", v)
	}
	msgs := h.key("y")
	if len(h.engine.called("Shutdown")) != 1 || !hasMsg[tea.QuitMsg](msgs) || h.m.Detached() {
		t.Errorf("Q y: calls %q", h.engine.Calls())
	}
}

// In-process, the attached-only keys do nothing and help does not list them.
func TestDetachKeysOffInProcess(t *testing.T) {
	h := twoRuns(t)
	if msgs := h.key("D"); hasMsg[tea.QuitMsg](msgs) || h.m.Detached() {
		t.Error("D detached an in-process UI")
	}
	h.key("Q")
	if h.m.mode == modeDialog {
		t.Error("Q asked in-process")
	}
	h.key("?")
	if v := h.view(); strings.Contains(v, "detach") {
		t.Errorf("help lists detach in-process:\n%s", v)
	}
	a := attached(t)
	a.key("?")
	if v := a.view(); !strings.Contains(v, "detach (runs keep") { // its description may wrap
		t.Errorf("help does not list detach when attached:\n%s", v)
	}
}

// The engine is told which run the terminal pane shows, once per change: a server's
// engine streams frames of that run only.
func TestWatchFollowsSelection(t *testing.T) {
	h := attached(t)
	h.key("j")
	h.key("k")
	h.key("k") // already at the top: no change, no call
	h.engine.mu.Lock()
	got := slices.Clone(h.engine.watched)
	h.engine.mu.Unlock()
	if want := []string{"r1", "r2", "r1"}; !slices.Equal(got, want) {
		t.Errorf("Watch calls %q, want %q", got, want)
	}
}
