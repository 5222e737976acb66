package terminal

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"corral/ptyhost/screen"
	"corral/ui/internal/uitest"
)

// A screen line holds clusters that a grapheme count and a terminal counting rune by
// rune disagree on: fitted to a wider or narrower pane it must come
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
			got = fitScreenLine(line, 0, cols, w)
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
	tm := newTest("")
	info := uitest.LiveRun("r1", "replay", true)
	info.Spec.FixedSize = true
	tm.ShowRun(info, screenWith(60, 30, text.String()))
	tm.SetSize(50, 22) // 20 rows inside
	v := ansi.Strip(tm.View())
	if !strings.Contains(v, "line 40") || strings.Contains(v, "line 20 ") || !strings.Contains(v, "60×30 > pane 48×20") {
		t.Fatalf("want the last rows and the cut in the title:\n%s", v)
	}
	if top := screenTop(30, 20, 29); top != 10 {
		t.Errorf("screenTop(30, 20, 29) = %d, want 10", top)
	}
	if top := screenTop(30, 20, 5); top != 0 {
		t.Errorf("screenTop(30, 20, 5) = %d, want 0", top)
	}
}

// A live run larger than its pane (another attached UI sized it: runs/viewers.go)
// shows the part its cursor is in, across as well as down, with the real cursor on
// it; a wide character cut by the pane's left edge leaves a blank, and the pens of
// the columns left of the pane still apply.
func TestLargerRunShowsItsCursorPart(t *testing.T) {
	// 100×30: "top left" at the top left, a red "right" and a wide 世 near the bottom
	// right, the cursor after them.
	text := "top left\x1b[28;61H世界 \x1b[31mfar right\x1b[29;90Hend"
	tm := newTest("")
	tm.SetFocused(true)
	tm.ShowRun(uitest.LiveRun("r1", "agent", true), screenWith(100, 30, text))
	tm.SetSize(72, 12) // 70×10 inside
	styled := tm.View()
	v := ansi.Strip(styled)
	if !strings.Contains(v, "100×30 > pane 70×10") {
		t.Errorf("the title does not say the run is cut:\n%s", v)
	}
	if strings.Contains(v, "top left") || !strings.Contains(v, "世界 far right") || !strings.Contains(v, "end") {
		t.Errorf("want the bottom right part, where the cursor is:\n%s", v)
	}
	// The cursor (column 92, row 28, 0-based) is at the pane's last column and row:
	// columns 23–92 shown, rows 19–28.
	if left, top := screenOrigin(100, 30, 70, 10, screen.ScreenState{CursorX: 92, CursorY: 28}); left != 23 || top != 19 {
		t.Errorf("origin = %d,%d, want 23,19", left, top)
	}
	if got := ansi.Strip(fitScreenLine("ab世cd", 3, 6, 3)); got != " cd" {
		t.Errorf("a wide character cut by the left edge: %q, want \" cd\"", got)
	}
	if got := fitScreenLine("\x1b[31mred\x1b[0m", 1, 3, 2); !strings.HasPrefix(got, "\x1b[31med") {
		t.Errorf("the pen of a skipped column is lost: %q", got)
	}
	c := tm.Cursor()
	if c == nil || c.X != 70 || c.Y != 10 {
		t.Errorf("cursor %+v, want the pane's bottom right cell (40, 10)", c)
	}
}
