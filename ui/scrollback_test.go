package ui

import (
	"fmt"
	"strings"
	"testing"

	"corral/runs"
)

// The transcript keeps its colours as pens, drawn again with SGR Corral writes: basic,
// bright, 256 and RGB colours and attributes survive, in the colon form too, with the
// underline's style and colour, resets end them, and nothing but SGR comes out (a
// hosted OSC 52, title or DCS, CSI > m are dropped).
func TestScrollbackKeepsColour(t *testing.T) {
	for _, c := range []struct{ in, text, styled string }{
		{"\x1b[31mred\x1b[0m plain", "red plain", "\x1b[0m\x1b[31mred\x1b[0m plain\x1b[0m"},
		{"\x1b[1;92mok\x1b[22m!", "ok!", "\x1b[0m\x1b[1;92mok\x1b[0m\x1b[92m!\x1b[0m"},
		{"\x1b[38;5;208ma\x1b[48;2;1;2;3mb\x1b[m", "ab", "\x1b[0m\x1b[38;5;208ma\x1b[0m\x1b[38;5;208;48;2;1;2;3mb\x1b[0m"},
		{"\x1b[7mrev\x1b[27m", "rev", "\x1b[0m\x1b[7mrev\x1b[0m"},
		{"plain only", "plain only", "plain only"},
		{"\x1b]52;c;ZXZpbA==\a\x1bP+q544e\x1b\\\x1b]0;title\x07x", "x", "x"},
		{"\x1b[>4;1mnot sgr", "not sgr", "not sgr"},
		{"\x1b[38:5:1mcolon", "colon", "\x1b[0m\x1b[31mcolon\x1b[0m"},
		{"\x1b[4:3;58:2::1:2:3;5mc\x1b[4:0;59mn", "cn", "\x1b[0m\x1b[4;5;4:3;58:2::1:2:3mc\x1b[0m\x1b[5mn\x1b[0m"},
		{"\x1b[21;58;5;9;8;53mx\x1b[24;28;55my", "xy", "\x1b[0m\x1b[4;8;53;4:2;58:5:9mx\x1b[0m\x1b[58:5:9my\x1b[0m"},
		{"\x1b[34mab\rX", "Xb", "\x1b[0m\x1b[34mXb\x1b[0m"},
	} {
		ls := historyText([]byte(c.in + "\r\n"))
		if len(ls) != 1 || ls[0].Text != c.text || ls[0].Styled() != c.styled {
			var got []string
			for _, l := range ls {
				got = append(got, fmt.Sprintf("%q/%q", l.Text, l.Styled()))
			}
			t.Errorf("%q: got %v, want %q/%q", c.in, got, c.text, c.styled)
		}
	}
}

// A line cut to a width keeps every character once, no piece wider than the width, a
// wide character whole, and the pen in effect where each piece starts.
func TestWrappedKeepsColour(t *testing.T) {
	l := historyText([]byte("ab\x1b[31mcdef\x1b[0mgh 你好\r\n"))[0]
	got := l.wrapped(3)
	want := []string{
		"ab\x1b[0m\x1b[31mc\x1b[0m",
		"\x1b[0m\x1b[31mdef\x1b[0m",
		"\x1b[0mgh \x1b[0m",
		"\x1b[0m你\x1b[0m",
		"\x1b[0m好\x1b[0m",
	}
	if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
		t.Errorf("wrapped(3):\n got %q\nwant %q", got, want)
	}
	if got := historyText([]byte("plain 你好\n"))[0].wrapped(7); fmt.Sprintf("%q", got) != `["plain " "你好"]` {
		t.Errorf("a plain line: %q", got)
	}
	if got := l.wrapped(80); len(got) != 1 || got[0] != l.Styled() {
		t.Errorf("a line that fits: %q, want %q", got, l.Styled())
	}
}

// The scroll view draws the colours (golden, styled), and a searched line in plain
// text with its match marked.
func TestTerminalScrollColourGolden(t *testing.T) {
	tm := NewTerminal(testCommon(), "")
	tm.SetSize(40, 6)
	tm.Show(rowOfRun(liveRun("r1", "shell", true)), screenWith(38, 4, "live"))
	tm.Scroll("")
	lines := historyText([]byte("\x1b[1;31mFAIL\x1b[0m pkg/a\r\n\x1b[32mok\x1b[0m   pkg/b\r\n" +
		"\x1b[38;5;208mwarn\x1b[0m long line that the pane has to cut off here\r\n\x1b[44m  \x1b[0m\r\n"))
	tm, _ = tm.Update(HistoryMsg{ID: "r1", Lines: lines})
	goldenView(t, "terminal_scroll_colour", tm.View(), 40)
}

// The scrollback key scrolls at its first press: one page above the live screen.
func TestFirstPgUpScrollsAPage(t *testing.T) {
	h := twoRuns(t)
	h.core.ptyOutput("r1", histLog(100))
	h.key("pgup")
	s := h.m.term.scroll
	if s == nil || s.top != 100-s.rows-s.page() {
		t.Fatalf("first pgup: %+v, want top %d", s, 100-s.rows-s.page())
	}
	if v := h.view(); !strings.Contains(v, fmt.Sprintf("lines %d–%d of 100", s.top+1, s.top+s.rows)) {
		t.Errorf("title does not say where:\n%s", v)
	}
	top := s.top
	h.key("pgup")
	if h.m.term.scroll.top != top-s.page() {
		t.Errorf("second pgup: top %d, want %d", h.m.term.scroll.top, top-s.page())
	}
}

// The events pane scrolls with [ and ] and says where it is; new lines do not move a
// scrolled-back window; ] back at the newest follows again.
func TestEventsScroll(t *testing.T) {
	h := twoRuns(t)
	for i := range 20 {
		h.m.events.AddNote(t0, fmt.Sprintf("note %02d", i))
	}
	ih, page := h.m.lay.events.h-2, h.m.events.Page()
	has := func(want ...string) {
		t.Helper()
		v := h.view()
		for _, w := range want {
			if !strings.Contains(v, w) {
				t.Fatalf("no %q:\n%s", w, v)
			}
		}
	}
	has(fmt.Sprintf("Events %d–20/20", 21-ih), "note 19")
	h.key("[")
	has(fmt.Sprintf("Events ↑%d–%d/20", 21-ih-page, 20-page), fmt.Sprintf("note %02d", 20-ih-page))
	if strings.Contains(h.view(), fmt.Sprintf("note %02d", 20-page)) {
		t.Fatalf("[ scrolled less than a page:\n%s", h.view())
	}
	h.m.events.AddNote(t0, "note 20")
	has(fmt.Sprintf("Events ↑%d–%d/21", 21-ih-page, 20-page))
	h.key("[", "[", "[", "[", "[", "[")
	has(fmt.Sprintf("Events ↑1–%d/21", ih), "note 00")
	for range 10 {
		h.key("]")
	}
	has(fmt.Sprintf("Events %d–21/21", 22-ih), "note 20")
}

// The title's escape count names what it counts, and the escaped processes of the
// listed runs (the rows' ⚠N) are summed beside it, so the two agree.
func TestEscapeCountsAgree(t *testing.T) {
	h := twoRuns(t)
	esc := liveRun("r3", "codex", true)
	esc.Escapees = 5
	h.send(EventMsg{Event: runs.Event{Type: runs.EventEscape, Run: esc, Time: t0}})
	v := h.view()
	if !strings.Contains(v, "⚠5") || !strings.Contains(v, "escape events 0 · escaped procs 5") {
		t.Errorf("the title and the row disagree:\n%s", v)
	}
}

// Golden: copy mode's caret and marked selection (the events pane scrolled back is
// ui/events' test of this name).
func TestScrolledPanesGolden(t *testing.T) {
	tm := NewTerminal(testCommon(), "")
	tm.SetSize(40, 7)
	tm.Show(rowOfRun(liveRun("r1", "shell", true)), screenWith(38, 5, "live"))
	tm.Scroll("")
	tm, _ = tm.Update(HistoryMsg{ID: "r1", Lines: historyText([]byte("a\r\n\x1b[33mb\x1b[m\r\nc\r\nd\r\ne\r\nf\r\n"))})
	tm.StartCopy()
	tm, _ = tm.Update(keyMsg("k"))
	tm, _ = tm.Update(keyMsg("v"))
	tm, _ = tm.Update(keyMsg("k"))
	tm, _ = tm.Update(keyMsg("k"))
	goldenView(t, "terminal_copy", tm.View(), 40)
}
