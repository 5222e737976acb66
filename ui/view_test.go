package ui

import (
	"strings"
	"testing"
	"time"

	"corral/ptyhost"
	"corral/ptyhost/screen"
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
