package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/api"
)

// An attached UI shows the log's events from before it attached as history; when its
// server is lost it says so in the run list's title, the status line and the events
// pane, keys typed meanwhile are reported not delivered, and once its engine is back it
// says which server it reached and takes the new server's runs and the events it
// missed: a listed run becomes what the new server says even with a lower sequence
// number, a run the new server lacks leaves with a note, a new one is listed.
func TestServerLostAndBack(t *testing.T) {
	engine := newFake()
	a, b := liveRun("r1", "claude", true), endedRun("r2", "tests")
	engine.snap = []runs.Info{a, b}
	engine.screens["r1"] = screenWith(80, 24, "$ ")
	code := 3
	old := runs.Event{Type: runs.EventExit, Time: t0.Add(-time.Minute),
		Run: runs.Info{ID: "r0", Name: "early", State: runs.Exited, Reason: runs.Exit, ExitCode: &code}}
	h := harnessWith(t, engine, Options{Initial: []runs.Info{a, b}, Detachable: true, History: []runs.Event{old}}, 120, 30)
	if v := h.view(); !strings.Contains(v, "earlier · early r0 exited: exit 3") {
		t.Fatalf("no history line:\n%s", v)
	}
	h.m.events.AddHistory(runs.Event{Type: "lease-steal", Time: t0.Add(-48 * time.Hour), Run: runs.Info{ID: "r9", Name: "nine"}, Detail: "from=i1"})
	if v := h.view(); !strings.Contains(v, "earlier "+t0.Add(-48*time.Hour).Local().Format("Jan 2")+" · lease-steal nine r9: from=i1") {
		t.Fatalf("no history line:\n%s", v)
	}

	h.send(EventMsg{Event: runs.Event{Type: api.EventServerLost, Time: t0, Run: runs.Info{PID: 41}, Detail: "EOF"}})
	v := h.view()
	for _, want := range []string{"Runs 2 · reconnecting…", "server pid 41 lost (EOF): reconnecting…",
		" server lost — reconnecting… — keys are not delivered"} {
		if !strings.Contains(v, want) {
			t.Errorf("lost: no %q:\n%s", want, v)
		}
	}
	h.send(EventMsg{Event: runs.Event{Type: api.EventServerLost, Time: t0, Detail: "attempt 1: no server"}})
	if v := h.view(); !strings.Contains(v, "reconnecting… attempt 1: no server") || strings.Count(v, "lost (") != 1 {
		t.Errorf("a failed attempt: status not updated, or said twice in the events pane:\n%s", v)
	}

	// A key typed in focus meanwhile: the engine refuses it, and the UI says so.
	engine.fail["Write"] = fmt.Errorf("write: %w", api.ErrServerLost)
	h.key("enter")
	h.typeText("x")
	h.key("ctrl+]")
	if v := h.view(); !strings.Contains(v, "keys for claude r1 not delivered: the server is lost") {
		t.Errorf("an undelivered key is not reported:\n%s", v)
	}
	delete(engine.fail, "Write")

	// Back: the new server ended r1 (its numbers start again), does not know r2, and
	// runs r3; its log holds an event the UI never saw.
	ended := a
	ended.State, ended.Reason, ended.Seq = runs.Exited, runs.Lost, 1
	c := liveRun("r3", "fresh", false)
	engine.snap = []runs.Info{ended, c}
	engine.history = []runs.Event{old, {Type: "reconcile", Time: t0.Add(time.Second), Run: runs.Info{ID: "r1", Name: "claude"},
		Detail: "decision=lost pid=4242"}}
	h.clk.t = t0.Add(2 * time.Second)
	h.send(EventMsg{Event: runs.Event{Type: api.EventServerBack, Time: t0.Add(2 * time.Second), Run: runs.Info{PID: 42}}})
	v = h.view()
	for _, want := range []string{"reconnected to server pid 42", "earlier · reconcile claude r1: decision=lost pid=4242",
		"tests r2 is not in the new server: removed", "fresh"} {
		if !strings.Contains(v, want) {
			t.Errorf("back: no %q:\n%s", want, v)
		}
	}
	n := 0
	for i := range h.m.events.Len() {
		if strings.Contains(h.m.events.Line(i), "early r0 exited") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the history line the UI had shown is there %d times, want once", n)
	}
	if strings.Contains(v, "server lost") {
		t.Errorf("still says lost:\n%s", v)
	}
	if i, _ := h.m.list.Run("r1"); i.State != runs.Exited || i.Reason != runs.Lost {
		t.Errorf("r1 is %v %v, want what the new server says", i.State, i.Reason)
	}
	if _, listed := h.m.list.Run("r2"); listed {
		t.Error("r2 still listed")
	}

	// Lost again: the quit key detaches at once, asking nothing.
	h.send(EventMsg{Event: runs.Event{Type: api.EventServerLost, Time: t0, Run: runs.Info{PID: 42}, Detail: "EOF"}})
	if out := h.key("q"); !hasMsg[tea.QuitMsg](out) || !h.m.Detached() {
		t.Errorf("quit while lost: %v, detached %v", out, h.m.Detached())
	}
}
