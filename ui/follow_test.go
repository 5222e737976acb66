package ui

import (
	"fmt"
	"testing"

	"corral/runs"
)

// spawned is the spawn event of a run started elsewhere (corral spawn, another UI).
func spawned(id, name string) EventMsg {
	return EventMsg{Event: runs.Event{Type: runs.EventSpawn, Run: liveRun(id, name, false), Time: t0}}
}

// A run spawned elsewhere takes the selection when the user has left the UI alone;
// of a burst, only the first; none while the user has just moved, and again once the
// UI has been quiet for followQuiet.
func TestFollowSpawnedElsewhere(t *testing.T) {
	h := twoRuns(t) // no key pressed yet
	h.send(spawned("r10", "worker-0"))
	if got := h.m.list.SelectedKey(); got != "r10" || h.m.details.ID() != "r10" || h.m.term.ID() != "r10" {
		t.Fatalf("a spawned run on an untouched UI: selection %s, details %s", got, h.m.details.ID())
	}
	for i := 1; i < 50; i++ { // a script's burst, a moment later
		h.clk.t = h.clk.t.Add(followQuiet / 100)
		h.send(spawned(fmt.Sprintf("r%d", 10+i), fmt.Sprintf("worker-%d", i)))
	}
	if got := h.m.list.SelectedKey(); got != "r10" {
		t.Errorf("a burst of 50 spawns moved the selection to %s, want the first (r10)", got)
	}
	h.clk.t = h.clk.t.Add(followQuiet)
	h.key("g") // the user picks a run
	h.clk.t = h.clk.t.Add(followQuiet - 1)
	h.send(spawned("r90", "late"))
	if got := h.m.list.SelectedKey(); got != "r1" {
		t.Errorf("a spawn %s after the user's key took the selection (%s)", followQuiet-1, got)
	}
	h.clk.t = h.clk.t.Add(1)
	h.send(spawned("r91", "later"))
	if got := h.m.list.SelectedKey(); got != "r91" {
		t.Errorf("a spawn after %s of quiet did not take the selection (%s)", followQuiet, got)
	}
}

// Never while keys go elsewhere than the list (focus would send the next key to the
// new run), nor when the filter hides the new run; a run started here is selected
// whatever the user does meanwhile.
func TestFollowOnlyWhenBrowsing(t *testing.T) {
	h := twoRuns(t)
	h.key("enter") // focus r1
	h.clk.t = h.clk.t.Add(2 * followQuiet)
	h.send(spawned("r10", "worker"))
	if got := h.m.list.SelectedKey(); got != "r1" || h.m.mode != modeFocus || h.m.term.ID() != "r1" {
		t.Fatalf("a spawn in focus moved the selection to %s (mode %d)", got, h.m.mode)
	}
	h.key("ctrl+]", "/")
	h.typeText("cla")
	h.key("enter")
	h.clk.t = h.clk.t.Add(2 * followQuiet)
	h.send(spawned("r11", "worker-2"))
	if got := h.m.list.SelectedKey(); got != "r1" {
		t.Errorf("a spawn the filter hides took the selection (%s)", got)
	}
	h.clk.t = h.clk.t.Add(2 * followQuiet)
	h.send(spawned("r12", "claude-2"))
	if got := h.m.list.SelectedKey(); got != "r12" {
		t.Errorf("a spawn the filter shows did not take the selection (%s)", got)
	}

	h.engine.spawnID = "r13"
	h.key("n")
	h.typeText("make")
	h.key("enter", "k") // the user moves on before the run is listed
	h.send(spawned("r13", "make"))
	if got := h.m.list.SelectedKey(); got != "r13" {
		t.Errorf("the run started here was not selected when listed (%s)", got)
	}
}

// The run corral -- CMD started is selected when the UI opens with it listed already.
func TestFollowSelectListedAtStart(t *testing.T) {
	a, b := liveRun("r1", "claude", true), liveRun("r2", "cmd", false)
	h := harnessWith(t, newFake(a, b), Options{Initial: []runs.Info{a, b}, Select: "r2"}, 120, 30)
	if got := h.m.list.SelectedKey(); got != "r2" || h.m.details.ID() != "r2" {
		t.Errorf("selection %s, want the run of corral -- CMD (r2)", got)
	}
}
