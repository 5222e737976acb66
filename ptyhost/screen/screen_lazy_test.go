package screen

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The lazy emulation (screen_lazy.go) must be invisible: a screen that keeps plain
// text pending and cuts it back ends in exactly the state of one that feeds every
// byte as it comes, whatever the stream and however it is split into Writes.

// newEager returns a screen that feeds every Write at once, as before lazy emulation.
func newEager(cols, rows int) *Screen {
	s := NewScreen(cols, rows)
	s.lazy.eager = true
	return s
}

// lazyStream writes a random stream: bursts of plain lines (wrapping, CR/LF
// variants, tabs, backspaces, UTF-8 with wide characters) between the sequences that
// change what plain text does: attributes, cursor moves, scroll regions, the
// alternate screen, autowrap, origin and newline modes, the line-drawing charset,
// tab stops, saved cursors, erasures, resets and queries.
func lazyStream(rng *rand.Rand, cols, rows int) []byte {
	var b bytes.Buffer
	for range 20 + rng.IntN(40) {
		if rng.IntN(3) == 0 {
			b.WriteString(lazySeq(rng, cols, rows))
			continue
		}
		lines := rng.IntN(6 * rows)
		if rng.IntN(4) == 0 {
			lines = rng.IntN(12 * rows) // long enough to be cut
		}
		for range lines {
			lazyLine(rng, &b, cols)
		}
	}
	return b.Bytes()
}

var lazyEnds = []string{"\r\n", "\r\n", "\r\n", "\n", "\r", "", "\n\r", "\r\r\n"}

var lazyInline = []string{"\x1b[0m", "\x1b[m", "\x1b[1;31m", "\x1b[32m", "\x1b[7m", "\x1b[27m", "\x1b[4;44m",
	"\x1b[38;5;200m", "\x1b[48;2;10;20;30m", "\x1b[0;33m", "\x1b[22;39m", "\x1b[K", "\x1b[2K", "\x1b[1K", "\x1b[;1m",
	"\x1b[2m", "\x1b[9;4:3m", "\x1b[58;5;9m", "\x1b[29;24m", "\x1b[8m"}

var lazyRunes = []string{"a", "b", "z", " ", "0", "~", "é", "你", "😀", "\t", "\b", "ü", "\u0301", "\u200d", "\U0001F1E9",
	"\U00100041", "\U0010FFFD", "\x01", "\x02"}

func lazyLine(rng *rand.Rand, b *bytes.Buffer, cols int) {
	n := rng.IntN(min(3*cols, 200))
	if rng.IntN(4) == 0 {
		n = rng.IntN(4)
	}
	for range n {
		switch rng.IntN(30) {
		case 0, 1, 2, 3, 4:
			b.WriteString(lazyRunes[rng.IntN(len(lazyRunes))])
		case 5: // colours and erasures inside lines, as loggers and progress bars print
			b.WriteString(lazyInline[rng.IntN(len(lazyInline))])
		default:
			b.WriteByte(byte('A' + rng.IntN(26)))
		}
	}
	b.WriteString(lazyEnds[rng.IntN(len(lazyEnds))])
}

func lazySeq(rng *rand.Rand, cols, rows int) string {
	seqs := []func() string{
		func() string { return fmt.Sprintf("\x1b[%d;3%d;4%dm", rng.IntN(8), rng.IntN(8), rng.IntN(8)) },
		func() string { return fmt.Sprintf("\x1b[38;5;%d;48;2;%d;0;9m", rng.IntN(256), rng.IntN(256)) },
		func() string { return "\x1b[0m" },
		func() string { return "\x1b[7m" },
		func() string { return fmt.Sprintf("\x1b[%d;%dH", 1+rng.IntN(rows), 1+rng.IntN(cols)) },
		func() string { return fmt.Sprintf("\x1b[%dA", rng.IntN(rows)) },
		func() string { return fmt.Sprintf("\x1b[%d;%dr", 1+rng.IntN(rows), 1+rng.IntN(rows+2)) },
		func() string { // a region for a while, then the whole screen again
			var b bytes.Buffer
			fmt.Fprintf(&b, "\x1b[%d;%dr", 1+rng.IntN(rows), 1+rng.IntN(rows+2))
			for range rng.IntN(3 * rows) {
				lazyLine(rng, &b, cols)
			}
			b.WriteString("\x1b[r")
			return b.String()
		},
		func() string { return "\x1b[r" },
		func() string { return fmt.Sprintf("\x1b[%dr", rng.IntN(3)) },
		func() string { return "\x1b[?1049h" },
		func() string { return "\x1b[?1049l" },
		func() string { return "\x1b[?47h" },
		func() string { return "\x1b[?7l" },
		func() string { return "\x1b[?7h" },
		func() string { return "\x1b[?6h" },
		func() string { return "\x1b[?6l" },
		func() string { return "\x1b[20h" },
		func() string { return "\x1b[20l" },
		func() string { return "\x1b(0" },
		func() string { return "\x1b(B" },
		func() string { return "\x1bH" },
		func() string { return "\x1b[3g" },
		func() string { return "\x1b7" },
		func() string { return "\x1b8" },
		func() string { return "\x1bD" },
		func() string { return "\x1bM" },
		func() string { return fmt.Sprintf("\x1b[%dJ", rng.IntN(3)) },
		func() string { return fmt.Sprintf("\x1b[%dK", rng.IntN(3)) },
		func() string { return fmt.Sprintf("x\x1b[%db", rng.IntN(300)) },
		func() string { return "\x1b[6n" },
		func() string { return "\x1b[c" },
		func() string { return "\x1b]0;title\x07" },
		func() string { return "\x07" },
		func() string { return "\v" },
		func() string { return "\f" },
		func() string { return "\x00" },
		func() string { return "\x0e" },
		func() string { return "\x7f" },
		func() string { return "\x1bc" },
		func() string { return "\x1b[?25l" },
		func() string { return "\x1b[2;5r\x1b[3;1H" },
		func() string { return "\xe4\xbd" }, // a cut character: the rest may never come
		func() string { return "\x1b[4h" },
		func() string { return "\x1b[4l" },
		func() string { return "\x1b[s" },
		func() string { return "\x1b[u" },
		func() string { return "\x1b[?1048h" },
		func() string { return "\x1b[?1048l" },
		func() string { return fmt.Sprintf("\x1b[%d@", rng.IntN(4)) },
		func() string { return fmt.Sprintf("\x1b[%dP", rng.IntN(4)) },
		func() string { return fmt.Sprintf("\x1b[%dX", rng.IntN(4)) },
	}
	return seqs[rng.IntN(len(seqs))]()
}

// sameScreens fails unless two screens are in the same state: every cell (with its
// attributes and wrap mark), the cursor (attributes and wrap state included), the
// modes, what the wrapper tracks, and both renderings.
func sameScreens(t *testing.T, what string, want, got *Screen) {
	t.Helper()
	if w, g := want.Render(), got.Render(); w != g {
		t.Fatalf("%s: Render differs\nwant:\n%s\ngot:\n%s", what, w, g)
	}
	if w, g := want.Scrollback(), got.Scrollback(); !slices.Equal(w, g) {
		t.Fatalf("%s: Scrollback differs (%d lines, want %d)\n%s", what, len(g), len(w), firstDiff(w, g))
	}
	if w, g := want.State(), got.State(); w != g {
		t.Fatalf("%s: State differs\nwant %+v\ngot  %+v", what, w, g)
	}
	want.mu.Lock()
	defer want.mu.Unlock()
	got.mu.Lock()
	defer got.mu.Unlock()
	if w, g := want.term.Cursor(), got.term.Cursor(); w != g {
		t.Fatalf("%s: cursor %+v, want %+v", what, g, w)
	}
	if w, g := want.term.Mode(), got.term.Mode(); w != g {
		t.Fatalf("%s: modes %b, want %b", what, g, w)
	}
	for y := range want.rows {
		for x := range want.cols {
			if w, g := want.term.Cell(x, y), got.term.Cell(x, y); w != g {
				t.Fatalf("%s: cell (%d,%d) = %+v, want %+v", what, x, y, g, w)
			}
		}
	}
	if want.track != got.track || want.scan.last != got.scan.last {
		t.Fatalf("%s: tracked %+v, want %+v", what, got.track, want.track)
	}
}

// TestLazyMatchesEager feeds random streams in random splits to a lazy and an eager
// screen, looking at the lazy one at random moments (which feeds its pending text
// early) and resizing both now and then, and compares them at every look. It also
// checks that the lazy screen skipped work and that its Version moved whenever
// what it shows did.
func TestLazyMatchesEager(t *testing.T) {
	sizes := [][2]int{{20, 4}, {7, 3}, {1, 1}, {120, 40}, {33, 10}}
	var fedLazy, fedEager int
	for seed := range uint64(50) {
		rng := rand.New(rand.NewPCG(seed, 1))
		size := sizes[int(seed)%len(sizes)]
		cols, rows := size[0], size[1]
		eager, lazy := newEager(cols, rows), NewScreen(cols, rows)
		limit := []int{0, 3, rows + 1, 10 * rows, 100000}[rng.IntN(5)]
		eager.SetHistoryLimit(limit)
		lazy.SetHistoryLimit(limit)
		var rEager, rLazy bytes.Buffer
		eager.SetReply(&rEager)
		lazy.SetReply(&rLazy)
		eager.feedHook = func(p []byte) { fedEager += len(p) }
		lazy.feedHook = func(p []byte) { fedLazy += len(p) }
		stream := lazyStream(rng, cols, rows)
		what := func(at int) string {
			return fmt.Sprintf("seed %d (%dx%d) at byte %d of %d", seed, cols, rows, at, len(stream))
		}
		lastVer, lastRender := lazy.Version(), lazy.Render()
		for at := 0; at < len(stream); {
			n := min(1+rng.IntN(1<<uint(rng.IntN(13))), len(stream)-at) // a PTY read is at most 4 KiB
			eager.Write(stream[at : at+n])
			lazy.Write(stream[at : at+n])
			at += n
			switch rng.IntN(300) { // a look every ~150 KB, as a 60 Hz UI looks at a 10 MB/s flood
			case 0:
				r := lazy.Render()
				if lazy.Version() == lastVer && r != lastRender {
					t.Fatalf("%s: the screen changed and its Version did not move", what(at))
				}
				lastVer, lastRender = lazy.Version(), r
			case 1:
				sameScreens(t, what(at), eager, lazy)
				lastVer, lastRender = lazy.Version(), lazy.Render()
			case 2:
				c, r := max(cols+rng.IntN(5)-2, 1), max(rows+rng.IntN(5)-2, 1)
				eager.Resize(c, r)
				lazy.Resize(c, r)
			}
		}
		sameScreens(t, what(len(stream)), eager, lazy)
		if rEager.String() != rLazy.String() {
			t.Fatalf("%s: replies %q, want %q", what(len(stream)), rLazy.String(), rEager.String())
		}
	}
	if fedLazy >= fedEager*3/4 {
		t.Errorf("lazy screens fed vt10x %d bytes, eager ones %d: nothing was skipped", fedLazy, fedEager)
	}
}

// TestLazyFloodSkips: a pure-text flood between coloured lines reaches vt10x only as
// its last screenfuls, and the screen still ends exactly as an eager one, colours,
// wrapped lines and cursor included.
func TestLazyFloodSkips(t *testing.T) {
	var in strings.Builder
	in.WriteString("\x1b[1;31mred\x1b[0m\r\n\x1b[44m")
	for i := range 20000 {
		fmt.Fprintf(&in, "%06d %s\r\n", i, strings.Repeat("word ", i%60)) // up to 306 columns: wraps
	}
	in.WriteString("tail\x1b[0m no newline")
	eager, lazy := newEager(120, 40), NewScreen(120, 40)
	fed := 0
	lazy.feedHook = func(p []byte) { fed += len(p) }
	for p := []byte(in.String()); len(p) > 0; {
		n := min(len(p), 4095) // what a PTY read returns
		eager.Write(p[:n])
		lazy.Write(p[:n])
		p = p[n:]
	}
	sameScreens(t, "flood", eager, lazy)
	if fed > in.Len()/20 {
		t.Errorf("vt10x was fed %d of %d bytes", fed, in.Len())
	}
	if !strings.Contains(lazy.Text(), "019999 word") || !strings.HasSuffix(strings.Split(lazy.Text(), "\n")[39], "tail no newline") {
		t.Errorf("screen:\n%s", lazy.Text())
	}
}

// TestLazyHoldsNoMoreThanItMust: pending text stays bounded without readers, by the
// cut when it can be cut and by lazyMaxPending when it cannot (no CR, or a scroll
// region set).
func TestLazyHoldsNoMoreThanItMust(t *testing.T) {
	for _, c := range []struct {
		name, head, line string
		max              int
	}{
		{"crlf", "", "some words on a line\r\n", (lazyTrimAt*40 + 1) * 22},
		{"lf only", "", "some words on a line\n", lazyMaxPending},
		{"scroll region", "\x1b[2;30r", "some words on a line\r\n", lazyMaxPending},
		{"no newline", "", "some words without a line end ", lazyMaxPending},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := NewScreen(120, 40)
			s.Write([]byte(c.head))
			for range 15000 {
				s.Write([]byte(c.line))
				if len(s.out) > c.max {
					t.Fatalf("%d bytes pending, want at most %d", len(s.out), c.max)
				}
			}
			eager := newEager(120, 40)
			eager.Write([]byte(c.head + strings.Repeat(c.line, 15000)))
			sameScreens(t, c.name, eager, s)
		})
	}
}

// TestLazyCutFromAnyRow: whatever row the cursor starts from and however many lines
// follow the cut, no row of what was on the screen before may survive a cut that an
// eager screen scrolled away (the reason for 2·rows−1 LFs, not rows).
func TestLazyCutFromAnyRow(t *testing.T) {
	const cols, rows = 20, 4
	for row := 1; row <= rows; row++ {
		for n := lazyTrimAt*rows - 2; n < lazyTrimAt*rows+3*rows; n++ {
			head := strings.Repeat("\x1b[41mXXXXXXXXXXXXXXXXXXXX", rows) + fmt.Sprintf("\x1b[0m\x1b[%d;5H", row)
			eager, lazy := newEager(cols, rows), NewScreen(cols, rows)
			eager.Write([]byte(head))
			lazy.Write([]byte(head))
			for i := range n {
				line := fmt.Appendf(nil, "line %d\r\n", i)
				eager.Write(line)
				lazy.Write(line)
			}
			sameScreens(t, fmt.Sprintf("row %d, %d lines", row, n), eager, lazy)
		}
	}
}

// The scanner's fast paths (csiRun, verbatim SGRs) must leave vt10x exactly where
// the byte-by-byte scanner and the rebuilt SGRs do, on random SGRs (valid, odd,
// malformed), split anywhere.
func TestScanFastPathsMatchSlow(t *testing.T) {
	params := []string{"0", "1", "21", "4", "4:3", "38", "48", "58", "5", "2", "0", "255", "256", "",
		"31", "97", "107", "39", "49", "7", "27", "9999", "123456", "01", "38:2::1:2:3", "22",
		"38;2;0;0;255", "48;2;0;0;9", "38;5;300", "48;2;1;2"}
	rng := rand.New(rand.NewPCG(3, 3))
	for seed := range 400 {
		var in bytes.Buffer
		for range 30 {
			n := rng.IntN(7)
			ps := make([]string, n)
			for i := range ps {
				ps[i] = params[rng.IntN(len(params))]
			}
			fmt.Fprintf(&in, "\x1b[%sm%c", strings.Join(ps, ";"), 'a'+rng.IntN(26))
			if rng.IntN(8) == 0 {
				in.WriteString("\x1b[2;5H\x1b[K\r\n")
			}
		}
		fast, slow := newEager(20, 4), newEager(20, 4)
		slow.scan.slow = true
		b := in.Bytes()
		for len(b) > 0 {
			n := min(1+rng.IntN(40), len(b))
			fast.Write(b[:n])
			slow.Write(b[:n])
			b = b[n:]
		}
		sameScreens(t, fmt.Sprintf("seed %d: %q", seed, in.String()), slow, fast)
	}
}

// firstDiff shows where two lists of lines first differ.
func firstDiff(want, got []string) string {
	for i := range max(len(want), len(got)) {
		w, g := "(none)", "(none)"
		if i < len(want) {
			w = fmt.Sprintf("%q", want[i])
		}
		if i < len(got) {
			g = fmt.Sprintf("%q", got[i])
		}
		if w != g {
			return fmt.Sprintf("line %d: got %s, want %s", i, g, w)
		}
	}
	return "same lines"
}
