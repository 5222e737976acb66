package ui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/agentstate"
	"corral/ui/internal/uitest"
)

// sixAgents are six agents, as a user babysits them (their run list's golden is
// runlist's TestRunListAgentsGolden).
var sixAgents = uitest.SixAgents

// w goes to the run that has waited longest, then the next; u to the next unseen.
func TestJumpToWhoNeedsYou(t *testing.T) {
	rs := sixAgents()
	engine := newFake(rs...)
	h := newHarness(t, engine, 120, 30, rs...)
	for _, want := range []string{"r4", "r2", "r4"} {
		h.key("w")
		if sel := h.m.list.SelectedKey(); sel != want {
			t.Fatalf("w selected %s, want %s", sel, want)
		}
	}
	h.m.list.SetAttention("r5", true)
	h.m.list.SetAttention("r1", true)
	h.key("u")
	if sel := h.m.list.SelectedKey(); sel != "r5" {
		t.Fatalf("u selected %s, want r5 (the next unseen after r4)", sel)
	}
	h.key("u")
	if sel := h.m.list.SelectedKey(); sel != "r1" || h.m.list.Attention("r5") {
		t.Fatalf("u selected %s (r5 unseen: %v), want r1 and r5 seen", sel, h.m.list.Attention("r5"))
	}
	h.key("u")
	if !strings.Contains(h.view(), "no run is unseen") {
		t.Errorf("no more unseen runs: %q", h.m.flash)
	}
}

// An agent entering waiting or idle while not shown marks its run unseen; a
// notification is written to Corral's terminal as OSC 9.
func TestAgentEventsInTheUI(t *testing.T) {
	rs := sixAgents()
	engine := newFake(rs...)
	h := harnessWith(t, engine, Options{Initial: rs, Notify: "osc9"}, 120, 30)
	working := rs[4]
	working.AgentState, working.Seq = agentstate.Working, 9
	h.send(EventMsg{runs.Event{Type: runs.EventAgent, Run: working}})
	if h.m.list.Attention("r5") {
		t.Fatal("working marked the run unseen")
	}
	waiting := working
	waiting.AgentState, waiting.Seq = agentstate.Waiting, 10
	h.send(EventMsg{runs.Event{Type: runs.EventAgent, Run: waiting}})
	if !h.m.list.Attention("r5") {
		t.Fatal("waiting did not mark the run unseen")
	}
	if title := h.m.View().WindowTitle; title != "corral · 6 live · 3 waiting · attention 1" {
		t.Errorf("window title %q", title)
	}
	_, cmd := h.m.Update(EventMsg{runs.Event{Type: runs.EventNotify, Run: waiting,
		Detail: "claude-new: claude waits for you — Do you want\x1b]52;c;x\x07 to proceed?"}})
	var raw []string
	for _, m := range h.collect(cmd) {
		if r, ok := m.(tea.RawMsg); ok {
			raw = append(raw, r.Msg.(string))
		}
	}
	if len(raw) != 1 || raw[0] != "\x1b]9;claude-new: claude waits for you — Do you want]52;c;x to proceed?\x07" {
		t.Errorf("notification written: %q", raw)
	}
}

// The engine is told which run the user looks at: the selected one while Corral's
// terminal has focus, none while it has not.
func TestFocusFollowsTheUser(t *testing.T) {
	rs := sixAgents()
	engine := newFake(rs...)
	h := newHarness(t, engine, 120, 30, rs...)
	h.key("j")
	h.send(tea.BlurMsg{})
	h.send(tea.FocusMsg{})
	want := []string{"r1 ui true", "r1 ui false", "r2 ui true", "r2 ui false", "r2 ui true"}
	engine.mu.Lock()
	got := slices.Clone(engine.focus)
	engine.mu.Unlock()
	if !slices.Equal(got, want) {
		t.Errorf("focus calls %q, want %q", got, want)
	}
	if !h.m.View().ReportFocus {
		t.Error("Corral does not ask its terminal for focus reports")
	}
}
