package events

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"corral/runs"
	"corral/ui/common"
	"corral/ui/internal/uitest"
)

var keys = DefaultKeyMap()

func testCommon() *common.Common { return common.New(func() time.Time { return uitest.T0 }) }

func TestEventsGolden(t *testing.T) {
	c := testCommon()
	e := New(c, &keys)
	e.SetSize(72, 8)
	live, ended := uitest.LiveRun("r1", "claude", true), uitest.EndedRun("r4", "cancelled")
	esc := uitest.LiveRun("r6", "escapist", true)
	esc.Escapees = 2
	for _, ev := range []runs.Event{
		{Type: runs.EventSpawn, Run: live, Detail: "pty"},
		{Type: runs.EventState, Run: live, Detail: "running"},
		{Type: runs.EventState, Run: live, Detail: "resize"},
		{Type: runs.EventCancel, Run: ended, Detail: "manual-cancel"},
		{Type: runs.EventCleanup, Run: ended, Detail: "term, killed 1, verified"},
		{Type: runs.EventExit, Run: ended, Detail: "manual-cancel"},
		{Type: runs.EventEscape, Run: esc, Detail: "pid 4300 codex app-server --managed-daemon"},
	} {
		ev.Time = uitest.T0
		e, _ = e.Update(ev)
	}
	e.AddDecision(uitest.T0, runs.Decision{ID: "rx", Name: "old", Decision: runs.VerdictReaped, PID: 99, Detail: "owner dead"})
	uitest.GoldenView(t, "events", e.View(), 72)
}

// testMetrics has every counter set, a zero count that must not show, and a reason
// runs does not know (listed after the known ones).
func testMetrics() runs.Metrics {
	return runs.Metrics{SpawnTotal: 12, OwnershipEscapeTotal: 1, LeaseStealTotal: 2, ReconcileOrphansTotal: 3,
		ExitTotal:        map[string]int64{"overall-timeout": 1, "manual-cancel": 2, "exit": 5, "zz-new": 1, "lost": 0},
		TimeoutTotal:     map[string]int64{"no-output": 1, "overall": 1},
		CleanupKillTotal: map[string]int64{"kill": 1, "term": 3}}
}

// The counters in the events pane's title: whole at 200 columns, cut between two
// pairs with " …" at 72 (the pane of a 120-column screen).
func TestEventsMetricsGolden(t *testing.T) {
	e := New(testCommon(), &keys)
	e.AddNote(uitest.T0, "reconcile: no open records")
	e.SetMetrics(testMetrics())
	e.SetSize(200, 4)
	uitest.GoldenView(t, "events_metrics_wide", e.View(), 200)
	e.SetSize(72, 4)
	uitest.GoldenView(t, "events_metrics", e.View(), 72)
}

// Golden: the events pane scrolled back (the ↑ position); the terminal pane's copy
// mode is ui's test of this name.
func TestScrolledPanesGolden(t *testing.T) {
	e := New(testCommon(), &keys)
	e.SetSize(60, 6)
	for i := range 12 {
		e.AddNote(uitest.T0, fmt.Sprintf("note %02d", i))
	}
	e.scrollBy(5)
	uitest.GoldenView(t, "events_scrolled", e.View(), 60)
}

// The pane owns its scrolling: its keys a page (less one line) older or newer, a wheel
// notch a line; keys changed after New (the root's overrides) are the ones read.
func TestEventsKeysAndWheel(t *testing.T) {
	km := DefaultKeyMap()
	e := New(testCommon(), &km)
	e.SetSize(60, 6) // four lines shown, a page of three
	for i := range 12 {
		e.AddNote(uitest.T0, fmt.Sprintf("note %02d", i))
	}
	press := func(s string) { e, _ = e.Update(tea.KeyPressMsg{Code: []rune(s)[0], Text: s}) }
	wheel := func(b tea.MouseButton) { e, _ = e.Update(tea.MouseWheelMsg{Button: b}) }
	for _, step := range []struct {
		do   func()
		want string
	}{
		{func() {}, "Events 9–12/12"},
		{func() { press("[") }, "Events ↑6–9/12"},
		{func() { wheel(tea.MouseWheelUp) }, "Events ↑5–8/12"},
		{func() { press("]") }, "Events ↑8–11/12"},
		{func() { wheel(tea.MouseWheelDown) }, "Events 9–12/12"},
		{func() { press("]") }, "Events 9–12/12"}, // the newest already
		{func() { km.EventsUp.SetKeys("{"); press("[") }, "Events 9–12/12"},
		{func() { press("{") }, "Events ↑6–9/12"},
	} {
		step.do()
		if v := ansi.Strip(e.View()); !strings.Contains(v, step.want) {
			t.Fatalf("want %q:\n%s", step.want, v)
		}
	}
}
