package ui

import (
	"strings"
	"testing"
	"time"

	"corral/ptyhost"
	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/runs"
	"corral/ui/terminal"
	"corral/watchdog"
)

func testCommon() *Common { return newCommon(DefaultKeyMap(), func() time.Time { return t0 }) }

// listRuns covers every kind of row: live with a countdown, paused, warning, cancelled,
// clean exit, escapes and adoption, and a name with control characters.
func listRuns() []runs.Info {
	paused := liveRun("r2", "paused-agent", true)
	paused.Paused, paused.Watchdog.Frozen = true, true
	paused.Watchdog.NoOutput = watchdog.Deadline{Armed: true, Span: 5 * time.Minute, Left: 3 * time.Minute}
	warn := liveRun("r3", "quiet", false)
	warn.Watchdog.NoOutput.At = t0.Add(20 * time.Second)
	done := endedRun("r5", "done")
	done.Reason, done.Signal, done.ExitCode = runs.Exit, 0, new(int)
	esc := liveRun("r6", "escapist", true)
	esc.Escapees, esc.Adopted = 2, true
	evil := liveRun("r7", "evil\x1b]0;pwned\x07name", true)
	return []runs.Info{liveRun("r1", "claude", true), paused, warn, endedRun("r4", "cancelled"), done, esc, evil}
}

func TestRunListGolden(t *testing.T) {
	l := NewRunList(testCommon(), listRuns())
	l.SetNow(t0)
	l.SetSize(72, 10)
	l.SetAttention("r4", true)
	l.SetAttention("r1", true) // selected: never marked
	goldenView(t, "runlist", l.View(), 72)
	l.SetSize(40, 6)
	l.Select("r5")
	goldenView(t, "runlist_narrow", l.View(), 40)
}

func TestRunListCountdownTicks(t *testing.T) {
	l := NewRunList(testCommon(), []runs.Info{liveRun("r1", "a", true)})
	l.SetSize(72, 4)
	l.SetNow(t0)
	if v := stripANSI(l.View()); !strings.Contains(v, "⏱ 0:50") {
		t.Fatalf("want the no-output countdown 0:50:\n%s", v)
	}
	l.SetNow(t0.Add(11 * time.Second))
	if v := stripANSI(l.View()); !strings.Contains(v, "⏱ 0:39") {
		t.Fatalf("the countdown did not tick:\n%s", v)
	}
}

func testTree() []reaper.TreeProc {
	return []reaper.TreeProc{
		{Proc: reaper.Proc{PID: 4242, PPID: 1, PGID: 4242, SID: 4242, State: 'S', Comm: "bash", RSS: 4 << 20},
			Mark: reaper.MarkRoot, CPU: 120 * time.Millisecond},
		{Proc: reaper.Proc{PID: 4250, PPID: 4242, PGID: 4242, SID: 4242, State: 'R', Comm: "make", RSS: 9 << 20},
			Mark: reaper.MarkMember, Depth: 1, CPU: 15 * time.Second},
		{Proc: reaper.Proc{PID: 4251, PPID: 4250, PGID: 4251, SID: 4242, State: 'S', Comm: "cc1", RSS: 900 << 10},
			Mark: reaper.MarkGroup, Depth: 2, CPU: 3 * time.Minute},
		{Proc: reaper.Proc{PID: 4300, PPID: 1, PGID: 4300, SID: 4300, State: 'S', Comm: "daemon\x1b[2J", RSS: 2 << 20},
			Mark: reaper.MarkEscaped},
	}
}

func TestDetailsGolden(t *testing.T) {
	d := NewDetails(testCommon())
	d.SetNow(t0)
	d.SetSize(72, 18)
	info := liveRun("r1", "claude", true)
	info.Escapees = 1
	d.Show(rowOfRun(info))
	d, _ = d.Update(TreesMsg{Trees: map[string][]reaper.TreeProc{"r1": testTree()}})
	goldenView(t, "details_live", d.View(), 72)

	ended := endedRun("r4", "cancelled")
	ended.Cleanup = runs.Cleanup{Steps: []reaper.Step{reaper.StepTerm, reaper.StepKill}, Killed: 3, Hard: 1, VerifiedEmpty: true}
	d.Show(rowOfRun(ended))
	d, _ = d.Update(TreesMsg{Trees: map[string][]reaper.TreeProc{}})
	goldenView(t, "details_ended", d.View(), 72)
}

// An escapee is shown by its command line, as detected, so a reader can tell what
// escaped (issue 14.1); control characters in it are neutralised like a comm's.
func TestDetailsEscapeeArgv(t *testing.T) {
	d := NewDetails(testCommon())
	d.SetNow(t0)
	d.SetSize(100, 18)
	info := liveRun("r1", "codex", true)
	info.Escapees = 1
	d.Show(rowOfRun(info))
	tree := testTree()
	tree[3].Argv = []string{"codex", "app-server", "--managed-daemon\x1b]52;c;x\a"}
	d, _ = d.Update(TreesMsg{Trees: map[string][]reaper.TreeProc{"r1": tree}})
	v := d.View()
	if !strings.Contains(v, "codex app-server --managed-daemon") || strings.Contains(v, "\x1b]52") {
		t.Errorf("escapee line without its argv, or unfiltered:\n%s", v)
	}
}

func TestDetailsWatchdogStates(t *testing.T) {
	d := NewDetails(testCommon())
	d.SetSize(80, 12)
	info := liveRun("r1", "a", true)
	d.Show(rowOfRun(info))
	for _, c := range []struct {
		at   time.Duration
		want string
	}{
		{0, "0:50 left of 5:00 · armed"},
		{45 * time.Second, "0:05 left of 5:00 · armed"},
		{0, "8:00 left of 10:00 · armed"},
	} {
		d.SetNow(t0.Add(c.at))
		if v := stripANSI(d.View()); !strings.Contains(v, c.want) {
			t.Errorf("at +%s want %q in\n%s", c.at, c.want, v)
		}
	}
	info.Paused, info.Watchdog.Frozen = true, true
	info.Watchdog.NoOutput = watchdog.Deadline{Armed: true, Span: 5 * time.Minute, Left: 42 * time.Second}
	d.Show(rowOfRun(info))
	if v := stripANSI(d.View()); !strings.Contains(v, "0:42 left of 5:00 · frozen") {
		t.Errorf("want frozen no-output deadline:\n%s", v)
	}
	fired := endedRun("r2", "b")
	fired.Reason, fired.Watchdog.Fired = runs.NoOutputTimeout, watchdog.NoOutput
	fired.Watchdog.NoOutput.Span = time.Minute
	d.Show(rowOfRun(fired))
	if v := stripANSI(d.View()); !strings.Contains(v, "fired (no-output-timeout)") {
		t.Errorf("want a fired deadline:\n%s", v)
	}
}

func screenWith(cols, rows int, text string) *screen.Screen {
	s := screen.NewScreen(cols, rows)
	s.Write([]byte(text))
	return s
}

func TestTerminalGolden(t *testing.T) {
	c := testCommon()
	tm := newTerminal(c, "No runs. Press n to start one, or run corral -- CMD.")
	tm.SetSize(40, 8)
	goldenView(t, "terminal_empty", tm.View(), 40)

	s := screenWith(38, 6, "\x1b[1;31mred\x1b[0m plain\r\n\x1b]0;my title\x07wide 你好 ok\r\n\x1b[7mrev\x1b[0m$ ")
	tm.ShowRun(liveRun("r1", "shell", true), s)
	goldenView(t, "terminal_screen", tm.View(), 40)
	tm.SetFocused(true)
	goldenView(t, "terminal_focused", tm.View(), 40)
	if cur := tm.Cursor(); cur == nil || cur.X != 1+5 || cur.Y != 1+2 {
		t.Errorf("cursor %+v, want the app's (5,2) inside the frame", cur)
	}
}

// A pipe run's live log keeps its colours, also on the rows a wrapped line continues
// on (issue 14.9).
func TestTerminalPipeLogGolden(t *testing.T) {
	tm := newTerminal(testCommon(), "")
	tm.SetSize(40, 8)
	tm.ShowRun(liveRun("p1", "build", false), nil)
	out := runs.Output{Chunks: []runs.Chunk{
		{Stream: ptyhost.Stdout, Data: []byte("compiling\n\x1b[32mok\x1b[0m pkg/a\n")},
		{Stream: ptyhost.Stderr, Data: []byte("warning: something long \x1b[33menough to wrap around\x1b[0m the pane\n")},
		{Stream: ptyhost.Stdout, Data: []byte("progress 10%\rprogress 100%\ndone\n")},
	}}
	tm, _ = tm.Update(LogMsg{ID: "p1", Output: out})
	goldenView(t, "terminal_pipe", tm.View(), 40)
}

func TestTerminalScrollGolden(t *testing.T) {
	tm := newTerminal(testCommon(), "")
	tm.SetSize(40, 8)
	tm.ShowRun(liveRun("r1", "shell", true), screenWith(38, 6, "live"))
	tm.Scroll("error")
	goldenView(t, "terminal_scroll_loading", tm.View(), 40)
	var lines []terminal.HistLine
	for i := range 30 {
		text := "line " + string(rune('a'+i%26))
		if i == 8 || i == 20 {
			text += " Error here error"
		}
		lines = append(lines, terminal.HistLine{Text: text, Err: i == 21})
	}
	tm, _ = tm.Update(HistoryMsg{ID: "r1", Lines: lines})
	goldenView(t, "terminal_scroll", tm.View(), 40)
	tm, _ = tm.Update(keyMsg("n")) // older match
	if v := stripANSI(tm.View()); !strings.Contains(v, "▶line i Error") {
		t.Errorf("n did not go to the older match:\n%s", v)
	}
}

func TestEventsGolden(t *testing.T) {
	c := testCommon()
	e := NewEvents(c)
	e.SetSize(72, 8)
	live, ended := liveRun("r1", "claude", true), endedRun("r4", "cancelled")
	esc := liveRun("r6", "escapist", true)
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
		ev.Time = t0
		e, _ = e.Update(EventMsg{Event: ev})
	}
	e.AddDecision(t0, runs.Decision{ID: "rx", Name: "old", Decision: runs.VerdictReaped, PID: 99, Detail: "owner dead"})
	goldenView(t, "events", e.View(), 72)
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
	e := NewEvents(testCommon())
	e.AddNote(t0, "reconcile: no open records")
	e.SetMetrics(testMetrics())
	e.SetSize(200, 4)
	goldenView(t, "events_metrics_wide", e.View(), 200)
	e.SetSize(72, 4)
	goldenView(t, "events_metrics", e.View(), 72)
}

func TestFrameGolden(t *testing.T) {
	core := newFake()
	a, b := liveRun("r1", "claude", true), endedRun("r2", "tests")
	core.screens["r1"] = screenWith(70, 19, "claude> hello\r\n")
	h := newHarness(t, core, 120, 30, a, b)
	goldenView(t, "frame", h.m.View().Content, 120)
	h.key("z")
	goldenView(t, "frame_zoom", h.m.View().Content, 120)
	h.key("z", "n")
	h.typeText("htop")
	goldenView(t, "frame_form", h.m.View().Content, 120)
	h.key("esc", "?")
	goldenView(t, "frame_help", h.m.View().Content, 120)
}
