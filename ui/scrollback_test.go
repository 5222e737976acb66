package ui

import (
	"fmt"
	"strings"
	"testing"

	"corral/runs"
	"corral/ui/terminal"
)

// The scroll view draws the colours (golden, styled), and a searched line in plain
// text with its match marked.
func TestTerminalScrollColourGolden(t *testing.T) {
	tm := newTerminal(testCommon(), "")
	tm.SetSize(40, 6)
	tm.ShowRun(liveRun("r1", "shell", true), screenWith(38, 4, "live"))
	tm.Scroll("")
	lines := terminal.HistoryText([]byte("\x1b[1;31mFAIL\x1b[0m pkg/a\r\n\x1b[32mok\x1b[0m   pkg/b\r\n" +
		"\x1b[38;5;208mwarn\x1b[0m long line that the pane has to cut off here\r\n\x1b[44m  \x1b[0m\r\n"))
	tm, _ = tm.Update(HistoryMsg{ID: "r1", Lines: lines})
	goldenView(t, "terminal_scroll_colour", tm.View(), 40)
}

// The scrollback key scrolls at its first press: one page above the live screen.
func TestFirstPgUpScrollsAPage(t *testing.T) {
	h := twoRuns(t)
	h.engine.ptyOutput("r1", histLog(100))
	h.key("pgup")
	top, rows := h.m.term.Window()
	if page := h.m.term.Page(); !h.m.term.Scrolling() || top != 100-rows-page {
		t.Fatalf("first pgup: top %d (scrolling %v), want top %d", top, h.m.term.Scrolling(), 100-rows-page)
	}
	if v := h.view(); !strings.Contains(v, fmt.Sprintf("lines %d–%d of 100", top+1, top+rows)) {
		t.Errorf("title does not say where:\n%s", v)
	}
	h.key("pgup")
	if scrollTop(h.m.term) != top-h.m.term.Page() {
		t.Errorf("second pgup: top %d, want %d", scrollTop(h.m.term), top-h.m.term.Page())
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
	tm := newTerminal(testCommon(), "")
	tm.SetSize(40, 7)
	tm.ShowRun(liveRun("r1", "shell", true), screenWith(38, 5, "live"))
	tm.Scroll("")
	tm, _ = tm.Update(HistoryMsg{ID: "r1", Lines: terminal.HistoryText([]byte("a\r\n\x1b[33mb\x1b[m\r\nc\r\nd\r\ne\r\nf\r\n"))})
	tm.StartCopy()
	tm, _ = tm.Update(keyMsg("k"))
	tm, _ = tm.Update(keyMsg("v"))
	tm, _ = tm.Update(keyMsg("k"))
	tm, _ = tm.Update(keyMsg("k"))
	goldenView(t, "terminal_copy", tm.View(), 40)
}

// scrollTop is the first line of the terminal pane's scroll window.
func scrollTop(t terminal.Terminal) int {
	top, _ := t.Window()
	return top
}

// historyLoaded reports whether the terminal pane's scroll mode has its lines.
func historyLoaded(t terminal.Terminal) bool {
	_, ok := t.History()
	return ok
}
