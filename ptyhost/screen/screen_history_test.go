package screen

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// history writes the writes to a screen of 20×4 keeping limit lines, lazy or eager,
// and returns its history as text.
func history(t *testing.T, eager bool, limit int, writes ...string) []string {
	t.Helper()
	s := NewScreen(testCols, testRows)
	s.lazy.eager = eager
	s.SetHistoryLimit(limit)
	for _, w := range writes {
		s.Write([]byte(w))
	}
	lines := s.Scrollback()
	out := make([]string, 0, len(lines)-testRows)
	for _, l := range lines[:len(lines)-testRows] {
		out = append(out, Plain(l))
	}
	return out
}

// What goes into the history, case by case, as tmux 3.3a puts it there (checked
// against it: the streams of testdata/scrollback cover them together).
func TestHistoryLikeTmux(t *testing.T) {
	for _, c := range []struct {
		name   string
		writes []string
		want   []string
	}{
		{"line feeds scroll the top line off", []string{"a\r\nb\r\nc\r\nd\r\ne\r\nf"}, []string{"a", "b"}},
		{"autowrap scrolls too", []string{"a\r\nb\r\nc\r\n" + strings.Repeat("x", 45)}, []string{"a", "b"}},
		{"a region's top line goes, even below the first", []string{"top\r\n\x1b[2;3r\x1b[2;1Hr1\nr2\nr3\n"},
			[]string{"r1", "  r2"}},
		{"SU n keeps the region's first n", []string{"a\r\nb\r\nc\r\nd\x1b[2S"}, []string{"a", "b"}},
		{"ED 2 keeps the lines in use", []string{"a\r\n\r\nc\r\n\x1b[2J"}, []string{"a", "", "c"}},
		{"ED 0 from home too", []string{"a\r\nb\x1b[H\x1b[J"}, []string{"a", "b"}},
		{"ED 0 elsewhere does not", []string{"a\r\nb\x1b[1;2H\x1b[J"}, []string{}},
		{"ED 3 empties it", []string{"a\r\nb\r\nc\r\nd\r\ne\x1b[3J"}, []string{}},
		{"RIS keeps the screen", []string{"a\r\nb\x1bc"}, []string{"a", "b"}},
		{"IL, DL and RI keep nothing", []string{"a\r\nb\x1b[H\x1b[L\x1b[M\x1bM\x1b[4;1H\x1b[2M"}, []string{}},
		{"nothing from the alternate screen", []string{"\x1b[?1049ha\r\nb\r\nc\r\nd\r\ne\r\nf\x1b[?1049l"}, []string{}},
		{"colours kept", []string{"\x1b[31ma\x1b[0m\r\n\r\n\r\n\r\n"}, []string{"a"}},
	} {
		for _, eager := range []bool{false, true} {
			if got := history(t, eager, 100, c.writes...); !slices.Equal(got, c.want) {
				t.Errorf("%s (eager %v): history %q, want %q", c.name, eager, got, c.want)
			}
		}
	}
}

// The history keeps the last lines up to its limit, whatever the lazy emulation
// fed, and a shrinking screen puts the lines it slides off into it, as tmux does.
func TestHistoryLimitAndResize(t *testing.T) {
	var in strings.Builder
	for i := range 500 {
		fmt.Fprintf(&in, "line %d\r\n", i)
	}
	for _, eager := range []bool{false, true} {
		got := history(t, eager, 50, in.String())
		if len(got) != 50 || got[0] != "line 447" || got[49] != "line 496" {
			t.Errorf("eager %v: %d lines, %q … %q, want line 447 … line 496", eager, len(got), got[0], got[len(got)-1])
		}
	}
	s := NewScreen(testCols, testRows)
	s.SetHistoryLimit(10)
	s.Write([]byte("a\r\nb\r\nc\r\nd"))
	s.Resize(testCols, 2)
	if got := s.Scrollback(); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("after shrinking to 2 rows: %q", got)
	}
}

// A flood nobody reads keeps only what the history needs: its tape is cut back as
// it grows, and what is read at the end is what an eager screen kept.
func TestHistoryUnreadFloodStaysBounded(t *testing.T) {
	const limit = 100
	lazy, eager := NewScreen(40, 10), newEager(40, 10)
	lazy.SetHistoryLimit(limit)
	eager.SetHistoryLimit(limit)
	most := 0
	for i := range 100000 {
		line := fmt.Appendf(nil, "\x1b[3%dmline %d\x1b[0m %s\r\n", i%8, i, strings.Repeat("w", i%60))
		lazy.Write(line)
		eager.Write(line)
		if t := lazy.lazy.tape; t != nil {
			most = max(most, t.size())
		}
	}
	if most == 0 || most > 3*(limit+10+22)*100 {
		t.Errorf("the tape held up to %d bytes", most)
	}
	if w, g := eager.Scrollback(), lazy.Scrollback(); !slices.Equal(w, g) {
		t.Errorf("history differs: %s", firstDiff(w, g))
	}
}

// Where tmux 3.3a is inconsistent Corral follows xterm (doc.go): an erase, insert
// or delete over half of a wide character leaves the other half a blank (tmux
// keeps it drawn whole, its capture wider than the screen); CHT moves to the next
// tab stop, or the last column without one (tmux ignores it); every character of a
// ZWJ sequence stays (tmux drops what its cell cannot store).
func TestScreenFollowsXterm(t *testing.T) {
	for in, want := range map[string]string{
		"ab你cd\x1b[4G\x1b[K|": "ab |", "ab你cd\x1b[4G\x1b[X|": "ab |cd", "ab你cd\x1b[4G\x1b[@|": "ab | cd",
		"ab你cd\x1b[4G\x1b[P|": "ab |d", "ab你cd\x1b[3G\x1b[1K|": "  | cd",
	} {
		if s, _ := screenOf(t, in); textLine(s, 0) != want {
			t.Errorf("%q: %q, want %q", in, textLine(s, 0), want)
		}
	}
	s, _ := screenOf(t, "\x1b[3G\x1b[Ia\x1b[3g\x1b[1;12H\x1b[Ib\r\n👨\u200d👩\u200d👧\u200d👦|")
	if got := textLine(s, 0); got != "        a          b" {
		t.Errorf("CHT: %q", got)
	}
	if got := textLine(s, 1); got != "👨\u200d👩\u200d👧\u200d👦|" {
		t.Errorf("ZWJ sequence: %q", got)
	}
}

// Widening the screen gives the new columns tab stops every eight, as tmux resets
// them (vt10x gives them none: defect #11).
func TestScreenTabStopsAfterWidening(t *testing.T) {
	s := NewScreen(10, 2)
	s.Resize(30, 2)
	s.Write([]byte("\t\t\tx"))
	if got := textLine(s, 0); got != strings.Repeat(" ", 24)+"x" {
		t.Errorf("%q", got)
	}
}
