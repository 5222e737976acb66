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
