package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A screen line holds clusters that a grapheme count and a terminal counting rune by
// rune disagree on (issue 10 item 6): fitted to a wider or narrower pane it must come
// out exactly the pane's width as the renderer counts it, or the pane's edge moves.
func TestFitScreenLine(t *testing.T) {
	line := "👍🏽|❤️|🏳️\u200d🌈|🇯🇵|👨\u200d👩\u200d👧|\x1b[0;2mx\x1b[0m" // 4+1+1+1+3+1+2+1+6+1+1 = 22 columns
	const cols = 22
	if n := ansi.WcWidth.StringWidth(line); n != cols {
		t.Fatalf("test line is %d columns rune by rune, want %d", n, cols)
	}
	for _, w := range []int{30, 22, 21, 12, 5, 1} {
		got := line
		if w != cols {
			got = fitScreenLine(line, cols, w)
		}
		if n := ansi.WcWidth.StringWidth(got); n != w {
			t.Errorf("fitted to %d: %d columns: %q", w, n, got)
		}
		if w < cols && !strings.HasSuffix(got, "\x1b[0m") {
			t.Errorf("fitted to %d: a cut line must close its style: %q", w, got)
		}
	}
}

// A replay bigger than its pane shows the rows around its cursor, where the newest
// output is, and its title says the screen is cut (review: the bottom rows of a
// 120×40 recording in a smaller pane were cut with no sign).
func TestBiggerReplayShowsItsCursorRows(t *testing.T) {
	var text strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&text, "\r\nline %d", i)
	}
	tm := NewTerminal(testCommon(), "")
	info := liveRun("r1", "replay", true)
	info.Spec.FixedSize = true
	tm.Show(rowOfRun(info), screenWith(60, 30, text.String()))
	tm.SetSize(50, 22) // 20 rows inside
	v := stripANSI(tm.View())
	if !strings.Contains(v, "line 40") || strings.Contains(v, "line 20 ") || !strings.Contains(v, "60×30 shown in 48×20") {
		t.Fatalf("want the last rows and the cut in the title:\n%s", v)
	}
	if top := screenTop(30, 20, 29); top != 10 {
		t.Errorf("screenTop(30, 20, 29) = %d, want 10", top)
	}
	if top := screenTop(30, 20, 5); top != 0 {
		t.Errorf("screenTop(30, 20, 5) = %d, want 0", top)
	}
}
