package ui

import (
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
