package ui

import (
	"slices"
	"strings"
	"testing"

	"corral/runs"
	"corral/runs/api"
)

// A UI that reconnected says again to the new server, which knows nothing of it,
// its pane's size for each live PTY run, the run its pane shows and the run the user
// looks at: the window-size policy counts it again (else a UI attached after it sizes
// every run alone, and keeps sizing it after it leaves).
func TestReconnectSaysSizesAgain(t *testing.T) {
	engine := newFake()
	a := liveRun("r1", "claude", true)
	engine.snap = []runs.Info{a}
	engine.screens["r1"] = screenWith(80, 24, "$ ")
	h := harnessWith(t, engine, Options{Initial: []runs.Info{a}, Detachable: true}, 120, 30)
	resized := engine.called("Resize")
	if len(resized) == 0 {
		t.Fatal("the run was never sized to its pane")
	}
	pane := resized[len(resized)-1]
	engine.mu.Lock()
	shows, focus := len(engine.shows), len(engine.focus)
	engine.mu.Unlock()
	if shows == 0 || focus == 0 {
		t.Fatalf("the UI never said what it shows (%d) and looks at (%d)", shows, focus)
	}

	// The new server has the run at the size another UI gave it.
	h.send(EventMsg{Event: runs.Event{Type: api.EventServerLost, Time: t0, Run: runs.Info{PID: 41}, Detail: "EOF"}})
	b := a
	b.Cols, b.Rows, b.Seq = 68, 20, 1
	engine.mu.Lock()
	engine.snap = []runs.Info{b}
	engine.mu.Unlock()
	h.send(EventMsg{Event: runs.Event{Type: api.EventServerBack, Time: t0, Run: runs.Info{PID: 42}}})
	if got := engine.called("Resize"); len(got) != len(resized)+1 || got[len(got)-1] != pane {
		t.Errorf("after the reconnect: resizes %q, want %q again", got, pane)
	}
	engine.mu.Lock()
	defer engine.mu.Unlock()
	if !slices.Contains(engine.shows[shows:], "ui r1") {
		t.Errorf("after the reconnect: shows %q, want ui r1 again", engine.shows[shows:])
	}
	if !slices.ContainsFunc(engine.focus[focus:], func(s string) bool { return strings.HasPrefix(s, "r1 ui true") }) {
		t.Errorf("after the reconnect: focus %q, want r1 looked at again", engine.focus[focus:])
	}
}
