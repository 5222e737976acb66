package ui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// twoRuns is a harness with a live PTY run (selected) and a cancelled pipe run.
func twoRuns(t *testing.T) *harness {
	engine := newFake()
	a, b := liveRun("r1", "claude", true), endedRun("r2", "tests")
	engine.snap = []runs.Info{a, b}
	engine.screens["r1"] = screenWith(80, 24, "$ ")
	return newHarness(t, engine, 120, 30, a, b)
}

func hasMsg[T tea.Msg](msgs []tea.Msg) bool {
	return slices.ContainsFunc(msgs, func(m tea.Msg) bool { _, ok := m.(T); return ok })
}

func TestUpdateCommands(t *testing.T) {
	for _, c := range []struct {
		name  string
		do    func(h *harness)
		calls []string // the engine calls the keys made, in order (Snapshot, Trees, Screen, Log ignored)
	}{
		{"select", func(h *harness) { h.key("j") }, nil},
		{"focus keys reach Write", func(h *harness) { h.key("enter", "a", "enter", "up", "ctrl+c") }, // encoded at the run
			[]string{"SendKeys r1 1", `Write r1 "a"`, "SendKeys r1 1", `Write r1 "\r"`, "SendKeys r1 1", `Write r1 "\x1b[A"`,
				"SendKeys r1 1", `Write r1 "\x03"`}},
		{"ctrl+] leaves focus", func(h *harness) { h.key("enter", "ctrl+]", "i", "y") }, []string{"Interrupt r1"}},
		{"paste in focus", func(h *harness) { h.key("enter"); h.send(tea.PasteMsg{Content: "a\nb"}) },
			[]string{"SendKeys r1 1", `Write r1 "a\rb"`}},
		{"send-keys prompt", func(h *harness) { h.key("s"); h.typeText(`"echo hi" Enter C-c`); h.key("enter") },
			[]string{"SendKeys r1 3", `Write r1 "echo hi\r\x03"`}},
		{"send-keys bad key", func(h *harness) { h.key("s"); h.typeText("C-Foo"); h.key("enter") }, nil},
		{"paste prompt", func(h *harness) { h.key("p"); h.typeText("hello"); h.key("enter") },
			[]string{`Paste r1 "hello"`}},
		{"submit prompt", func(h *harness) { h.key("S"); h.typeText("go on"); h.key("enter") },
			[]string{`Submit r1 "go on"`}},
		{"prompt dismissed", func(h *harness) { h.key("p"); h.typeText("x"); h.key("esc") }, nil},
		{"cancel yes", func(h *harness) { h.key("x", "y") }, []string{"Cancel r1"}},
		{"cancel no", func(h *harness) { h.key("x", "n") }, nil},
		{"cancel ended run", func(h *harness) { h.key("j", "x", "y") }, nil},
		{"interrupt asks, then sends", func(h *harness) { h.key("i", "y") }, []string{"Interrupt r1"}},
		{"interrupt declined", func(h *harness) { h.key("i", "n") }, nil},
		{"pause", func(h *harness) { h.key("space") }, []string{"Pause r1"}},
		{"reconcile", func(h *harness) { h.key("r") }, []string{"Reconcile"}},
		{"restart ended", func(h *harness) { h.key("j", "R") }, []string{"Spawn tests", "Remove r2"}},
		{"restart live refused", func(h *harness) { h.key("R") }, nil},
		{"remove ended asks, then removes", func(h *harness) { h.key("j", "d", "y") }, []string{"Remove r2"}},
		{"remove declined", func(h *harness) { h.key("j", "d", "n") }, nil},
		{"remove live refused", func(h *harness) { h.key("d") }, nil},
		{"zoom resizes", func(h *harness) { h.key("z") }, []string{"Resize r1 118 27"}},
		{"unzoom resizes back", func(h *harness) { h.key("z", "z") }, []string{"Resize r1 118 27", "Resize r1 82 20"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := twoRuns(t)
			before := len(h.engine.Calls())
			c.do(h)
			var got []string
			for _, call := range h.engine.Calls()[before:] {
				if name := strings.Fields(call)[0]; !slices.Contains([]string{"Snapshot", "Trees", "Screen", "Log"}, name) {
					got = append(got, call)
				}
			}
			if !slices.Equal(got, c.calls) {
				t.Errorf("calls %q, want %q", got, c.calls)
			}
		})
	}
}

func TestSelectMovesPanes(t *testing.T) {
	h := twoRuns(t)
	h.key("j")
	if sel, _ := h.m.list.Selected(); sel.ID != "r2" {
		t.Fatalf("selected %s, want r2", sel.ID)
	}
	if v := h.view(); !strings.Contains(v, "Details tests r2") {
		t.Errorf("details do not show the new selection:\n%s", v)
	}
	h.key("k")
	if calls := h.engine.called("Trees"); len(calls) == 0 || calls[len(calls)-1] != "Trees r1" {
		t.Errorf("the new selection's tree was not asked for: %q", calls)
	}
}

func TestFocusIndicatorAndCursor(t *testing.T) {
	h := twoRuns(t)
	h.key("enter")
	v := h.m.View()
	if !strings.Contains(stripANSI(v.Content), "FOCUS — ctrl+] to leave") {
		t.Fatalf("no focus indicator:\n%s", stripANSI(v.Content))
	}
	// The screen has "$ " with the cursor at (2,0); the pane's screen starts at
	// (termX+1, 1).
	if v.Cursor == nil || v.Cursor.X != h.m.lay.term.x+1+2 || v.Cursor.Y != 1 {
		t.Errorf("cursor %+v, want (%d,1)", v.Cursor, h.m.lay.term.x+3)
	}
	h.key("ctrl+]")
	if v := h.m.View(); v.Cursor != nil || strings.Contains(stripANSI(v.Content), "FOCUS") {
		t.Errorf("focus not left: cursor %+v", v.Cursor)
	}
}

func TestInputKeepsOrderWhileAWriteIsInFlight(t *testing.T) {
	h := twoRuns(t)
	h.key("enter")
	next, first := h.m.Update(keyMsg("a"))
	h.m = next.(Model)
	next, second := h.m.Update(keyMsg("b"))
	h.m = next.(Model)
	next, third := h.m.Update(keyMsg("c"))
	h.m = next.(Model)
	if first == nil || second != nil || third != nil {
		t.Fatal("a second write started while the first was in flight")
	}
	h.run(first) // WrittenMsg → the queued "bc" in one write
	if got := string(h.engine.written["r1"]); got != "abc" {
		t.Errorf("written %q, want abc", got)
	}
	if w := h.engine.called("Write"); len(w) != 2 {
		t.Errorf("writes %q, want 2", w)
	}
}

func TestSendKeysErrorShownInline(t *testing.T) {
	h := twoRuns(t)
	h.key("s")
	h.typeText("C-Foo")
	h.key("enter")
	if h.m.mode != modeDialog {
		t.Fatal("the prompt closed on a bad key")
	}
	if v := h.view(); !strings.Contains(v, "bad key") {
		t.Errorf("no inline error:\n%s", v)
	}
	h.key("backspace", "backspace", "backspace", "backspace", "backspace")
	h.typeText("C-c")
	h.key("enter")
	if len(h.engine.items) != 1 || h.engine.items[0][0].Key.Rune != 'c' {
		t.Errorf("items %+v", h.engine.items)
	}
}

func TestPauseToggles(t *testing.T) {
	engine := newFake()
	a := liveRun("r1", "claude", true)
	a.Paused = true
	h := newHarness(t, engine, 120, 30, a)
	h.key("space")
	if len(engine.called("Resume")) != 1 {
		t.Errorf("a paused run was not resumed: %q", engine.Calls())
	}
}

func TestReconcileDecisionsInEventsPane(t *testing.T) {
	h := twoRuns(t)
	h.engine.decisions = []runs.Decision{{ID: "rz", Name: "orphan", Decision: runs.VerdictReaped, PID: 77, Detail: "owner dead"}}
	h.key("r")
	if v := h.view(); !strings.Contains(v, "reconcile orphan rz: orphan-reaped pid 77") {
		t.Errorf("decision not in the events pane:\n%s", v)
	}
	h.engine.fail["Reconcile"] = errors.New("no registry")
	h.key("r")
	if v := h.view(); !strings.Contains(v, "error: reconcile: no registry") {
		t.Errorf("error not in the events pane:\n%s", v)
	}
}

func TestResizeFollowsWindowAndStartingRuns(t *testing.T) {
	h := twoRuns(t)
	if got := h.engine.called("Resize"); !slices.Equal(got, []string{"Resize r1 82 20"}) {
		t.Errorf("first size: %q", got)
	}
	h.send(tea.WindowSizeMsg{Width: 150, Height: 40})
	if got := h.engine.called("Resize"); got[len(got)-1] != "Resize r1 103 29" {
		t.Errorf("after the window grew: %q", got)
	}
	starting := liveRun("r3", "new", true)
	starting.State = runs.Starting
	h.send(EventMsg{Event: runs.Event{Type: runs.EventSpawn, Run: starting, Time: t0}})
	starting.State, starting.Seq = runs.Running, 4
	h.send(EventMsg{Event: runs.Event{Type: runs.EventState, Run: starting, Time: t0}})
	if got := h.engine.called("Resize"); got[len(got)-1] != "Resize r3 103 29" {
		t.Errorf("a run that started was not sized to the pane: %q", got)
	}
}

func TestKeyOverrides(t *testing.T) {
	engine := newFake()
	if _, err := New(Options{Engine: engine, Keys: map[string][]string{"zap": {"z"}}}); err == nil {
		t.Error("unknown action accepted")
	}
	if _, err := New(Options{Engine: engine, Keys: map[string][]string{"cancel": {"i"}}}); err == nil {
		t.Error("a key bound to cancel and interrupt accepted")
	}
	if _, err := New(Options{Engine: engine, Keys: map[string][]string{"leave": {"ctrl+a"}, "yes": {"j"}}}); err != nil {
		t.Errorf("valid overrides refused: %v", err)
	}
	nm, err := New(Options{})
	if err != nil {
		t.Fatalf("a model without a engine (a key check) failed: %v", err)
	}
	if msg := reconcileCmd(nm.engine)().(ReconciledMsg); !errors.Is(msg.Err, ErrNoEngine) {
		t.Errorf("without a engine: %v", msg.Err)
	}
	h := twoRuns(t)
	m, err := newModel(Options{Engine: h.engine, Initial: []runs.Info{liveRun("r1", "a", true)},
		Keys: map[string][]string{"cancel": {"K"}}}, h.clk.now)
	if err != nil {
		t.Fatal(err)
	}
	m.tick = func(int) tea.Cmd { return nil }
	h.m = m
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.key("K", "y")
	if len(h.engine.called("Cancel")) != 1 {
		t.Errorf("overridden cancel key did nothing: %q", h.engine.Calls())
	}
}

// Search is scroll mode's (browsing, / filters the run list): the scrollback key, then
// the search key.
func TestScrollSearch(t *testing.T) {
	h := twoRuns(t)
	h.engine.ptyOutput("r1", runs.Output{Chunks: []runs.Chunk{{Data: []byte("one\r\nneedle A\r\ntwo\r\nneedle B\r\n")}}})
	h.key("pgup", "/")
	h.typeText("needle")
	h.key("enter")
	if h.m.mode != modeScroll {
		t.Fatal("not in scroll mode")
	}
	if v := h.view(); !strings.Contains(v, "▶needle B") {
		t.Errorf("search did not go to the newest match:\n%s", v)
	}
	h.key("n")
	if v := h.view(); !strings.Contains(v, "▶needle A") {
		t.Errorf("n did not go to the older match:\n%s", v)
	}
	h.key("esc")
	if h.m.mode != modeBrowse || h.m.term.Scrolling() {
		t.Error("esc did not return to live")
	}
}

// An override by action name takes effect: the new key does the action, the old one
// no longer does.
func TestKeyOverrideTakesEffect(t *testing.T) {
	engine := newFake()
	run := liveRun("r1", "claude", true)
	engine.snap = []runs.Info{run}
	engine.screens["r1"] = screenWith(80, 24, "$ ")
	m, err := newModel(Options{Engine: engine, Initial: engine.snap, Keys: map[string][]string{"cancel": {"K"}}},
		(&clock{t: t0}).now)
	if err != nil {
		t.Fatal(err)
	}
	m.tick = func(int) tea.Cmd { return nil }
	h := &harness{t: t, m: m, engine: engine, clk: &clock{t: t0}}
	h.run(m.Init())
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.key("x", "y")
	if got := h.engine.called("Cancel"); len(got) != 0 {
		t.Fatalf("the old key still cancels: %q", got)
	}
	h.key("K", "y")
	if got := h.engine.called("Cancel"); !slices.Equal(got, []string{"Cancel r1"}) {
		t.Fatalf("the new key did not cancel: %q", got)
	}
}

// The tick reads the counters through its command, never in Update, once metricsEvery
// passed or a lifecycle event came (what they count comes with events: an idle tick
// reads none); the events pane's title shows them; a read that finds the same
// counters (in new maps) leaves the pane's version, so nothing is drawn again.
func TestTickRefreshesMetrics(t *testing.T) {
	h := twoRuns(t)
	metricsCalls := func() int { return len(h.engine.called("Metrics")) }
	if n := metricsCalls(); n != 1 {
		t.Fatalf("Init read the counters %d times, want 1", n)
	}
	h.engine.mu.Lock()
	h.engine.metrics = runs.Metrics{SpawnTotal: 2, ExitTotal: map[string]int64{"manual-cancel": 1}}
	h.engine.mu.Unlock()
	ver := h.m.events.Version()

	h.send(tickMsg{gen: h.m.req.tickGen})
	if n := metricsCalls(); n != 1 {
		t.Fatalf("an idle tick read the counters (%d calls)", n)
	}
	h.clk.t = h.clk.t.Add(metricsEvery)
	next, cmd := h.m.Update(tickMsg{gen: h.m.req.tickGen})
	h.m = next.(Model)
	if n := metricsCalls(); n != 1 {
		t.Fatalf("Update read the counters itself (%d calls)", n)
	}
	if msgs := h.run(cmd); !hasMsg[MetricsMsg](msgs) || metricsCalls() != 2 {
		t.Fatalf("the tick's command did not read the counters: %d calls, messages %T", metricsCalls(), msgs)
	}
	const want = "┌─Events · spawned 2 · escape events 0 · steals 0 · orphans reaped 0 …─"
	if v := h.view(); !strings.Contains(v, want) {
		t.Fatalf("the events pane does not show the new counters %q:\n%s", want, v)
	}
	if h.m.events.Version() == ver {
		t.Fatal("new counters did not move the pane's version")
	}

	ver, view := h.m.events.Version(), h.m.events.View()
	h.clk.t = h.clk.t.Add(metricsEvery)
	h.send(tickMsg{gen: h.m.req.tickGen})
	if n := metricsCalls(); n != 3 {
		t.Fatalf("the second due tick read the counters %d times in all, want 3", n)
	}
	if h.m.events.Version() != ver || h.m.events.View() != view {
		t.Errorf("the same counters moved the pane's version from %d to %d", ver, h.m.events.Version())
	}
	h.send(EventMsg{Event: runs.Event{Type: runs.EventState, Time: t0, Run: liveRun("r9", "new", false)}})
	h.send(tickMsg{gen: h.m.req.tickGen})
	if n := metricsCalls(); n != 4 {
		t.Fatalf("the tick after an event read the counters %d times in all, want 4", n)
	}
}

// One counters read at a time: a tick while one is on its way asks for none.
func TestMetricsReadOneAtATime(t *testing.T) {
	h := twoRuns(t)
	before := len(h.engine.called("Metrics"))
	h.clk.t = h.clk.t.Add(metricsEvery)
	next, first := h.m.Update(tickMsg{gen: h.m.req.tickGen})
	h.m = next.(Model)
	next, second := h.m.Update(tickMsg{gen: h.m.req.tickGen})
	h.m = next.(Model)
	h.run(second)
	if n := len(h.engine.called("Metrics")) - before; n != 0 {
		t.Fatalf("a tick read the counters while a read was on its way (%d calls)", n)
	}
	h.run(first)
	if n := len(h.engine.called("Metrics")) - before; n != 1 {
		t.Fatalf("%d counters reads, want 1", n)
	}
	h.clk.t = h.clk.t.Add(metricsEvery)
	h.send(tickMsg{gen: h.m.req.tickGen})
	if n := len(h.engine.called("Metrics")) - before; n != 2 {
		t.Errorf("after the read came back a tick did not read again (%d reads)", n)
	}
}

// A fixed-size PTY run (a replay at its recording's size) is never fitted to the pane.
func TestFixedSizeRunIsNotFitted(t *testing.T) {
	fixed := liveRun("r1", "replay", true)
	fixed.Spec.FixedSize = true
	h := newHarness(t, newFake(), 120, 30, fixed, liveRun("r2", "shell", true))
	h.send(tea.WindowSizeMsg{Width: 150, Height: 40})
	h.key("z")
	for _, c := range h.engine.called("Resize") {
		if strings.HasPrefix(c, "Resize r1 ") {
			t.Fatalf("the fixed-size run was resized: %q", h.engine.called("Resize"))
		}
	}
	if len(h.engine.called("Resize")) == 0 {
		t.Fatal("the other run was not fitted either: the test shows nothing")
	}
}
