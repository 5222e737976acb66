package ui

import (
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/reaper"
	"corral/runs"
	"corral/ui/internal/uitest"
	"corral/ui/terminal"
)

// TestUpdateAndViewNeverCallTheEngine feeds every kind of message through Update and
// renders after each, without running the returned commands: the counting fake must
// see no call. Only commands may call the engine.
func TestUpdateAndViewNeverCallTheEngine(t *testing.T) {
	engine := newFake()
	a, b, p := liveRun("r1", "claude", true), endedRun("r2", "tests"), liveRun("r3", "build", false)
	s1, s4 := screenWith(80, 24, "$ "), screenWith(80, 24, "")
	clk := &clock{t: t0}
	pending := []runs.Spec{{Name: "later", Shell: "make later", PTY: true}, {Name: "api", Argv: []string{"api"}}}
	m, err := newModel(Options{Engine: engine, Initial: []runs.Info{a, b, p}, Pending: pending}, clk.now)
	if err != nil {
		t.Fatal(err)
	}
	_ = m.Init() // built, not run
	var cmds int
	step := func(msg tea.Msg) {
		next, cmd := m.Update(msg)
		m = next.(Model)
		if cmd != nil {
			cmds++
		}
		_ = m.View()
	}
	spawned := liveRun("r4", "vim", true)
	for _, msg := range []tea.Msg{
		tea.WindowSizeMsg{Width: 120, Height: 30},
		ScreenMsg{ID: "r1", Screen: s1}, ScreenMsg{ID: "r4", Screen: s4},
		tickMsg{gen: 0}, tickMsg{gen: 99},
		SnapshotMsg{Runs: []runs.Info{a, b, p}},
		MetricsMsg{Metrics: runs.Metrics{SpawnTotal: 3, ExitTotal: map[string]int64{"exit": 1}}},
		MetricsMsg{Metrics: runs.Metrics{SpawnTotal: 3, ExitTotal: map[string]int64{"exit": 1}}},
		MetricsMsg{Metrics: runs.Metrics{SpawnTotal: 4, OwnershipEscapeTotal: 1}},
		TreesMsg{Trees: map[string][]reaper.TreeProc{"r1": uitest.Tree()}},
		EventMsg{Event: runs.Event{Type: runs.EventSpawn, Run: spawned, Detail: "pty", Time: t0}},
		OutputMsg{IDs: []string{"r1", "r3", "r4"}},
		LogMsg{ID: "r3", Output: runs.Output{Chunks: []runs.Chunk{{Data: []byte("x\n")}}}},
		keyMsg("j"), keyMsg("j"), keyMsg("k"), keyMsg("k"),
		keyMsg("enter"), keyMsg("a"), keyMsg("up"), tea.PasteMsg{Content: "pasted"},
		tea.MouseClickMsg{X: 60, Y: 5}, keyMsg("ctrl+]"),
		keyMsg("s"), keyMsg("C"), keyMsg("-"), keyMsg("c"), keyMsg("enter"),
		keyMsg("p"), tea.PasteMsg{Content: "text"}, keyMsg("enter"),
		keyMsg("S"), keyMsg("x"), keyMsg("esc"),
		keyMsg("x"), keyMsg("n"), keyMsg("x"), keyMsg("y"),
		keyMsg("i"), keyMsg("space"), keyMsg("r"),
		keyMsg("n"), keyMsg("l"), keyMsg("s"), keyMsg("tab"), keyMsg("down"), keyMsg("enter"),
		keyMsg("z"), keyMsg("z"), keyMsg("/"), keyMsg("q"), keyMsg("enter"),
		HistoryMsg{ID: "r1", Lines: []terminal.HistLine{{Text: "q here"}}},
		// Copy mode, the pager and the save (their files are written by commands only).
		keyMsg("c"), keyMsg("v"), keyMsg("k"), keyMsg("y"), keyMsg("o"), keyMsg("w"),
		terminal.SavedMsg{Path: "/tmp/x", Lines: 1}, terminal.PagerFileMsg{Err: errors.New("full")}, terminal.PagerDoneMsg{},
		keyMsg("n"), keyMsg("N"), keyMsg("pgup"), keyMsg("esc"), keyMsg("pgup"), keyMsg("esc"),
		keyMsg("j"), keyMsg("R"), keyMsg("d"), keyMsg("k"),
		keyMsg("?"), keyMsg("a"),
		// The mouse on: clicks in the list and the pane, the wheel over each pane.
		keyMsg("M"), tea.MouseClickMsg{X: 3, Y: 1}, tea.MouseClickMsg{X: 60, Y: 5}, keyMsg("ctrl+]"),
		tea.MouseWheelMsg{X: 60, Y: 5, Button: tea.MouseWheelUp}, tea.MouseWheelMsg{X: 60, Y: 5, Button: tea.MouseWheelUp},
		keyMsg("esc"), tea.MouseWheelMsg{X: 60, Y: 25, Button: tea.MouseWheelUp},
		tea.MouseWheelMsg{X: 3, Y: 2, Button: tea.MouseWheelDown}, tea.MouseWheelMsg{X: 3, Y: 2, Button: tea.MouseWheelUp},
		keyMsg("["), keyMsg("]"), keyMsg("M"),
		WrittenMsg{ID: "r1"}, DoneMsg{Op: "pause", ID: "r1", Err: errors.New("boom")},
		SpawnedMsg{ID: "r9"}, RemovedMsg{ID: "r2"}, ReconciledMsg{Decisions: []runs.Decision{{ID: "z"}}},
		EventMsg{Event: runs.Event{Type: runs.EventExit, Run: endedRun("r3", "build"), Time: t0}},
		tea.WindowSizeMsg{Width: 60, Height: 15}, tea.WindowSizeMsg{Width: 10, Height: 3},
		tea.WindowSizeMsg{Width: 200, Height: 60},
		// The pending runs, after the runs: refused keys, a start and its results.
		keyMsg("j"), keyMsg("j"), keyMsg("j"), keyMsg("j"), keyMsg("j"), keyMsg("enter"), keyMsg("x"),
		keyMsg("R"), keyMsg("R"), SpawnedMsg{ID: "r8", Pending: "pending/0"},
		EventMsg{Event: runs.Event{Type: runs.EventSpawn, Run: liveRun("r8", "later", true), Time: t0}},
		keyMsg("j"), keyMsg("R"), SpawnedMsg{Pending: "pending/1", Err: errors.New("refused")},
		keyMsg("q"), keyMsg("y"), ShutdownMsg{},
	} {
		s1.Write([]byte("out\a\r\n"))
		step(msg)
	}
	if calls := engine.Calls(); len(calls) != 0 {
		t.Fatalf("Update/View called the engine: %q", calls)
	}
	if cmds == 0 {
		t.Fatal("no command was returned at all: the test drives nothing")
	}
	_, listed := m.list.Run("r8")
	_, first := m.list.Pending("pending/0")
	_, second := m.list.Pending("pending/1")
	if !listed || first || !second {
		t.Errorf("pending runs: r8 listed %v, pending/0 left %v, pending/1 left %v; want true, false, true",
			listed, first, second)
	}
}
