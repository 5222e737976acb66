package ui

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/ui/internal/uitest"
	"corral/ui/runlist"
)

// pendingSpecs are two configured runs not started: an argv PTY run and a shell pipe run.
var pendingSpecs = uitest.PendingSpecs

// withPending is a harness with a live PTY run (selected) and the two pending runs.
func withPending(t *testing.T, keys map[string][]string) *harness {
	t.Helper()
	engine := newFake()
	a := liveRun("r1", "claude", true)
	engine.snap = []runs.Info{a}
	engine.screens["r1"] = screenWith(80, 24, "$ ")
	clk := &clock{t: t0}
	m, err := newModel(Options{Engine: engine, Initial: engine.snap, Pending: pendingSpecs(), Keys: keys}, clk.now)
	if err != nil {
		t.Fatal(err)
	}
	m.tick = func(int) tea.Cmd { return nil }
	h := &harness{t: t, m: m, engine: engine, clk: clk}
	h.run(m.Init())
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	return h
}

// actions are the engine calls other than the reads every selection and refresh makes
// and the fitting of PTY runs to the pane.
func actions(engine *fakeEngine) []string {
	var out []string
	for _, c := range engine.Calls() {
		if name := strings.Fields(c)[0]; !slices.Contains([]string{"Snapshot", "Metrics", "Trees", "Screen", "Log", "Resize"}, name) {
			out = append(out, c)
		}
	}
	return out
}

func TestPendingListedNotStarted(t *testing.T) {
	h := withPending(t, nil)
	if got := h.m.list.Len(); got != 3 || len(h.m.list.Runs()) != 1 {
		t.Fatalf("rows %d, runs %d; want 3 rows, 1 run", got, len(h.m.list.Runs()))
	}
	v := h.view()
	for _, want := range []string{`Runs 1 · 2 not started`, `agent +pty +not started`, `api +pipe +not started`} {
		if !regexp.MustCompile(want).MatchString(v) {
			t.Errorf("want %q in\n%s", want, v)
		}
	}
	h.key("j")
	if h.m.list.SelectedRow().Kind != runlist.RowPending {
		t.Fatal("j did not select the pending run")
	}
	v = h.view()
	for _, want := range []string{"Details agent (not started)", `argv    claude --model "big one"`,
		"cwd     /src/app", "overall 2h00m", "R to start it", "agent has not started. Press R to start it.", "R start"} {
		if !strings.Contains(v, want) {
			t.Errorf("want %q in\n%s", want, v)
		}
	}
	if got := actions(h.engine); len(got) != 0 {
		t.Errorf("listing and selecting a pending run called %q", got)
	}
	if calls := h.engine.Calls(); slices.Contains(calls, "Trees ") || slices.ContainsFunc(calls, func(c string) bool {
		return strings.Contains(c, "pending/")
	}) {
		t.Errorf("a pending key reached the engine: %q", calls)
	}
}

func TestPendingStartSpawnsItsSpecOnce(t *testing.T) {
	for _, eventFirst := range []bool{false, true} {
		h := withPending(t, nil)
		h.engine.spawnID = "r9"
		h.key("j")
		next, cmd := h.m.Update(keyMsg("R"))
		h.m = next.(Model)
		if cmd == nil {
			t.Fatal("R on a pending run returned no command")
		}
		next, again := h.m.Update(keyMsg("R")) // pressed again before the spawn returned
		h.m = next.(Model)
		if again != nil {
			t.Error("a second R started the pending run twice")
		}
		if !regexp.MustCompile(`agent +pty +starting…`).MatchString(h.view()) {
			t.Errorf("the row does not say it is starting:\n%s", h.view())
		}
		started := liveRun("r9", "agent", true)
		spawn := EventMsg{Event: runs.Event{Type: runs.EventSpawn, Run: started, Detail: "pty", Time: t0}}
		if eventFirst {
			h.send(spawn)
			h.run(cmd)
		} else {
			h.run(cmd)
			if _, ok := h.m.list.Pending("pending/0"); !ok {
				t.Error("the row went before its run was listed")
			}
			h.send(spawn)
		}
		if got := actions(h.engine); len(got) != 1 || !strings.HasPrefix(got[0], "Spawn") {
			t.Fatalf("event first %v: calls %q, want one Spawn", eventFirst, got)
		}
		got, want := h.engine.specs[0], pendingSpecs()[0]
		if got.Name != want.Name || !slices.Equal(got.Argv, want.Argv) || !got.PTY || got.Dir != want.Dir ||
			got.Timeout != want.Timeout || !slices.Equal(got.Env, want.Env) || got.Cols != 82 || got.Rows != 20 {
			t.Errorf("spawned %+v, want %+v sized 82×20", got, want)
		}
		if _, ok := h.m.list.Pending("pending/0"); ok || h.m.list.Len() != 3 {
			t.Errorf("event first %v: the pending row stayed (%d rows)", eventFirst, h.m.list.Len())
		}
		if sel, ok := h.m.list.Selected(); !ok || sel.ID != "r9" {
			t.Errorf("event first %v: selected %q, want the new run r9", eventFirst, h.m.list.SelectedKey())
		}
		if v := h.view(); strings.Contains(v, "starting…") || !strings.Contains(v, "Runs 2 · 1 not started") {
			t.Errorf("event first %v: list after start:\n%s", eventFirst, v)
		}
	}
}

// Once started, the entry is a run like any other: ended, R restarts its spec.
func TestPendingStartedThenRestarted(t *testing.T) {
	h := withPending(t, nil)
	h.engine.spawnID = "r9"
	h.key("j", "j", "R") // api
	run := endedRun("r9", "api")
	run.Spec = h.engine.specs[0]
	h.send(EventMsg{Event: runs.Event{Type: runs.EventExit, Run: run, Time: t0}})
	h.key("R")
	if got := h.engine.called("Spawn"); len(got) != 2 || len(h.engine.specs) != 2 || h.engine.specs[1].Shell != "go run ./cmd/api" {
		t.Errorf("restart after start: spawns %q", got)
	}
}

func TestPendingRefusesRunKeys(t *testing.T) {
	for _, k := range []string{"x", "i", "space", "enter", "s", "p", "S", "d", "pgup"} {
		h := withPending(t, nil)
		h.key("j")
		h.key(k)
		h.key("y") // a cancel question, had one opened
		if got := actions(h.engine); len(got) != 0 {
			t.Errorf("%s on a pending run called %q", k, got)
		}
		if h.m.mode != modeBrowse {
			t.Errorf("%s on a pending run left browse mode (%d)", k, h.m.mode)
		}
		next, _ := h.m.Update(keyMsg(k))
		if fl := next.(Model).flash; !strings.Contains(fl, "agent has not started; R starts it") {
			t.Errorf("%s: flash %q", k, fl)
		}
	}
}

// A spawn that made no run (a refused spec, a shutdown) leaves the row, startable again.
func TestPendingSpawnRefused(t *testing.T) {
	h := withPending(t, nil)
	h.engine.spawnID = ""
	h.engine.fail["Spawn"] = errors.New("supervisor is shutting down")
	h.key("j", "R")
	p, ok := h.m.list.Pending("pending/0")
	if !ok || p.Starting {
		t.Fatalf("the row after a refused spawn: %+v %v", p, ok)
	}
	if v := h.view(); !strings.Contains(v, "start agent: supervisor is shutting down") {
		t.Errorf("no error shown:\n%s", v)
	}
	h.key("R")
	if got := h.engine.called("Spawn"); len(got) != 2 {
		t.Errorf("could not start again: %q", got)
	}
}

// The start key is the restart action: its override starts pending runs and is what
// the panes tell.
func TestPendingStartKeyOverride(t *testing.T) {
	h := withPending(t, map[string][]string{"restart": {"T"}})
	h.key("j", "R")
	if got := actions(h.engine); len(got) != 0 {
		t.Fatalf("the old key still starts: %q", got)
	}
	if v := h.view(); !strings.Contains(v, "T to start it") {
		t.Errorf("the details do not name the bound key:\n%s", v)
	}
	h.key("T")
	if got := h.engine.called("Spawn"); len(got) != 1 {
		t.Errorf("the new key did not start: %q", got)
	}
}

func TestPendingFrameGolden(t *testing.T) {
	h := withPending(t, nil)
	h.key("j")
	goldenView(t, "frame_pending", h.m.View().Content, 120)
}

// configHarness has an ended run started from a config entry (and one that was not),
// with that entry among the model's configured runs.
func configHarness(t *testing.T) *harness {
	t.Helper()
	spec := runs.Spec{Name: "svc", Shell: "echo svc-up"}
	svc := endedRun("r1", "svc")
	svc.Spec = spec
	other := endedRun("r2", "adhoc")
	engine := newFake(svc, other)
	return harnessWith(t, engine, Options{Initial: engine.snap, Configured: []runs.Spec{spec}}, 120, 30)
}

// d on an ended config run asks, saying the run is listed again; the run's row goes
// back to not started, selected, and R starts the config's spec again.
func TestRemoveConfigRunReturnsToNotStarted(t *testing.T) {
	h := configHarness(t)
	h.key("d")
	if v := h.view(); !strings.Contains(v, "listed as not started again") {
		t.Fatalf("the question does not say the run comes back:\n%s", v)
	}
	h.key("y")
	if got := actions(h.engine); !slices.Contains(got, "Remove r1") {
		t.Fatalf("calls %q, want Remove r1", got)
	}
	r := h.m.list.SelectedRow()
	p, ok := r.Pend, r.Kind == runlist.RowPending
	if !ok || p.Spec.Name != "svc" || len(h.m.list.Runs()) != 1 {
		t.Fatalf("selected %q (pending %v), runs %d; want svc's not-started row", h.m.list.SelectedKey(), ok, len(h.m.list.Runs()))
	}
	if v := h.view(); !regexp.MustCompile(`svc\s+pipe\s+not started`).MatchString(v) {
		t.Errorf("no not-started row:\n%s", v)
	}
	h.key("R")
	if n := len(h.engine.specs); n != 1 || h.engine.specs[0].Shell != "echo svc-up" {
		t.Fatalf("spawned %+v, want the config's spec once", h.engine.specs)
	}
}

// A run not from the config leaves the list for good; a config run restarted in place
// (R) does not leave a not-started row behind when the old run is removed.
func TestRemoveOtherRunsForGood(t *testing.T) {
	h := configHarness(t)
	h.key("j", "d")
	if v := h.view(); strings.Contains(v, "not started again") {
		t.Errorf("a run not from the config is said to come back:\n%s", v)
	}
	h.key("y")
	if h.m.list.Len() != 1 {
		t.Errorf("rows %d after removing adhoc, want 1", h.m.list.Len())
	}
	h = configHarness(t)
	h.engine.spawnID = "r9"
	restarted := liveRun("r9", "svc", false)
	restarted.Spec = runs.Spec{Name: "svc", Shell: "echo svc-up"}
	h.key("R")
	h.send(EventMsg{Event: runs.Event{Type: runs.EventSpawn, Run: restarted, Time: t0}})
	if _, pending := h.m.list.Pending("pending/0"); pending || h.m.list.Len() != 2 {
		t.Errorf("after a restart in place: rows %d, pending row %v", h.m.list.Len(), pending)
	}
}

// A configured run that waits for another is started from its row with its
// dependencies as the config names them: a config's may name a run not started yet
// (it waits for it), where a name the new-run form's after row gives must name a run
// the server has.
func TestPendingWithDependenciesStarts(t *testing.T) {
	engine := newFake()
	a := liveRun("r1", "claude", true)
	engine.snap = []runs.Info{a}
	engine.screens["r1"] = screenWith(80, 24, "$ ")
	pending := pendingSpecs()
	pending[0].DependsOn = []runs.Dependency{{Name: "db", Condition: runs.CondReady}} // in the config, not started
	m, err := newModel(Options{Engine: engine, Initial: engine.snap, Pending: pending}, (&clock{t: t0}).now)
	if err != nil {
		t.Fatal(err)
	}
	m.tick = func(int) tea.Cmd { return nil }
	h := &harness{t: t, m: m, engine: engine, clk: &clock{t: t0}}
	h.run(m.Init())
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.key("j", "R")
	if len(engine.specs) != 1 || len(engine.specs[0].DependsOn) != 1 || engine.specs[0].DependsOn[0].Name != "db" {
		t.Fatalf("started %+v:\n%s", engine.specs, h.view())
	}
}
