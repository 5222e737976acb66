package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"corral/reaper"
	"corral/runs"
	"corral/runs/api"
)

// The counters, the selected run's process tree and its screen that came with the
// first rows (Options.Metrics, Trees, Screen) are in the first frame, before any of
// Init's reads came back; and Init reads neither the counters nor the tree nor that
// screen again: each was a round trip and a redraw just after the first frame.
func TestFirstReadsAreInTheFirstFrame(t *testing.T) {
	all := listRuns(60)
	engine := fakeOver(all)
	metrics := runs.Metrics{SpawnTotal: 4321}
	trees := map[string][]reaper.TreeProc{all[0].ID: {{Proc: reaper.Proc{PID: 4242, State: 'S', Comm: "firsttreeproc"}}}}
	o := Options{Engine: engine, Initial: all[:20], Unlisted: api.Summarize(all[20:]),
		Metrics: &metrics, Trees: trees, Screen: screenWith(80, 24, "$ the-first-screen")}
	m, err := newModel(o, (&clock{t: t0}).now)
	if err != nil {
		t.Fatal(err)
	}
	next, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 50}) // its commands not run: nothing read yet
	view := ansi.Strip(next.(Model).View().Content)
	for _, want := range []string{"spawned 4321", "firsttreeproc", "the-first-screen"} {
		if !strings.Contains(view, want) {
			t.Errorf("the first frame lacks %q:\n%s", want, view)
		}
	}
	harnessWith(t, engine, o, 160, 50)
	for _, call := range []string{"Metrics", "Trees", "Screen " + all[0].ID} {
		if got := engine.called(call); len(got) > 0 {
			t.Errorf("read again at the start: %v", got)
		}
	}
}

// The first frame's events heading counts the escaped processes of the listed runs
// and of the runs not listed yet (Unlisted.Escaped), before Init's snapshot read.
func TestFirstFrameCountsEscapes(t *testing.T) {
	all := listRuns(60)
	all[3].Escapees = 2  // listed
	all[40].Escapees = 5 // not listed yet
	metrics := runs.Metrics{SpawnTotal: 60}
	o := Options{Engine: fakeOver(all), Initial: all[:20], Unlisted: api.Summarize(all[20:]), Metrics: &metrics}
	m, err := newModel(o, (&clock{t: t0}).now)
	if err != nil {
		t.Fatal(err)
	}
	next, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 50}) // its commands not run: nothing read yet
	if view := ansi.Strip(next.(Model).View().Content); !strings.Contains(view, "escaped procs 7") {
		t.Errorf("the first frame lacks \"escaped procs 7\":\n%s", view)
	}
}

// With another run selected than the first (Options.Select), the first run's tree
// and screen that came with the first rows are not shown as the selected one's: the
// first frame shows neither, the first run keeps its screen as its own, and Init
// reads the selected run's screen and tree.
func TestFirstReadsWithAnotherSelection(t *testing.T) {
	all := listRuns(60)
	engine := fakeOver(all)
	sel := all[4].ID
	first := screenWith(80, 24, "$ the-first-screen")
	trees := map[string][]reaper.TreeProc{all[0].ID: {{Proc: reaper.Proc{PID: 4242, State: 'S', Comm: "firsttreeproc"}}}}
	o := Options{Engine: engine, Initial: all[:20], Unlisted: api.Summarize(all[20:]), Trees: trees, Screen: first, Select: sel}
	m, err := newModel(o, (&clock{t: t0}).now)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := m.list.Selected(); s.ID != sel {
		t.Fatalf("selected %s, want %s", s.ID, sel)
	}
	next, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	view := ansi.Strip(next.(Model).View().Content)
	for _, bad := range []string{"the-first-screen", "firsttreeproc"} {
		if strings.Contains(view, bad) {
			t.Errorf("the first frame of %s shows the first run's %q:\n%s", sel, bad, view)
		}
	}
	if m.screens[all[0].ID] != first {
		t.Errorf("the first run's screen is not kept as its own")
	}
	h := harnessWith(t, engine, o, 160, 50)
	if len(engine.called("Screen "+sel)) == 0 {
		t.Errorf("the selected run's screen never read")
	}
	if len(engine.called("Trees")) == 0 {
		t.Errorf("the selected run's tree never read")
	}
	if v := h.view(); !strings.Contains(v, "$ "+sel) {
		t.Errorf("the selected run's screen not shown:\n%s", v)
	}
}
