package ui

import (
	"strings"
	"testing"
	"time"

	"corral/ptyhost"
	"corral/ptyhost/screen"
	"corral/runs"
	"corral/ui/terminal"
)

func testCommon() *Common { return newCommon(DefaultKeyMap(), func() time.Time { return t0 }) }

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
// on.
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
	engine := newFake()
	a, b := liveRun("r1", "claude", true), endedRun("r2", "tests")
	engine.screens["r1"] = screenWith(70, 19, "claude> hello\r\n")
	h := newHarness(t, engine, 120, 30, a, b)
	goldenView(t, "frame", h.m.View().Content, 120)
	h.key("z")
	goldenView(t, "frame_zoom", h.m.View().Content, 120)
	h.key("z", "n")
	h.typeText("htop")
	goldenView(t, "frame_form", h.m.View().Content, 120)
	h.key("esc", "?")
	goldenView(t, "frame_help", h.m.View().Content, 120)
}
