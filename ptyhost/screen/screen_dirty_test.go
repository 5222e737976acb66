package screen

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hinshun/vt10x"
)

// fullRender is Render with every row drawn again, none kept from the last.
func (s *Screen) fullRender() string {
	s.mu.Lock()
	s.drawn.ok = false
	s.mu.Unlock()
	return s.Render()
}

// A Render that keeps the rows no write changed equals one that draws every row, after
// any write: the recorded streams of real programs (vim, htop, less, mc…) and typed
// text among colours, erases, tabs, wide characters, marks and cursor moves, each cut
// into random writes, with a Render between some of them and, between others, a
// resize or another reader of the screen (Text, Top, Bottom).
func TestRenderKeptRowsEqualFull(t *testing.T) {
	raws, err := filepath.Glob(filepath.Join("testdata", "fidelity", "*.raw"))
	if err != nil || len(raws) == 0 {
		t.Fatalf("no streams: %v", err)
	}
	streams := map[string][]byte{}
	for _, raw := range raws {
		b, err := os.ReadFile(raw)
		if err != nil {
			t.Fatal(err)
		}
		streams[filepath.Base(raw)] = b
	}
	rng := rand.New(rand.NewPCG(36, 51))
	streams["typed"] = typedStream(rng, 4000, 1)
	streams["typed, mostly text"] = typedStream(rng, 4000, 12)
	for name, stream := range streams {
		t.Run(name, func(t *testing.T) {
			for _, size := range [][2]int{{80, 24}, {37, 9}, {7, 3}} {
				s := NewScreen(size[0], size[1])
				var did string // what was done since the last check, besides writing
				for p, n := stream, 0; len(p) > 0; p = p[n:] {
					n = min(len(p), 1+rng.IntN(24))
					s.Write(p[:n])
					switch rng.IntN(16) {
					case 0:
						s.Text()
						did += ", Text"
					case 1:
						s.Top(2)
						did += ", Top"
					case 2:
						s.Bottom(2)
						did += ", Bottom"
					case 3:
						cols, rows := size[0]+rng.IntN(3)-1, size[1]+rng.IntN(3)-1
						s.Resize(cols, rows)
						did += fmt.Sprintf(", Resize(%d, %d)", cols, rows)
					}
					if rng.IntN(2) > 0 {
						continue
					}
					if got, want := s.Render(), s.fullRender(); got != want {
						t.Fatalf("%dx%d, after %q (%d bytes in)%s: the kept rows' render differs from the full one:\n%s",
							size[0], size[1], p[:n], len(stream)-len(p)+n, did, renderDiff(got, want))
					}
					did = ""
				}
			}
		})
	}
}

// typedStream is what a shell or an editor echoes as one types: text, a word
// coloured, a line erased and typed again, backspaces, tabs, wide characters and
// combining marks, a line feed now and then, the cursor moved and a scroll region.
// One piece in every text+1 is not plain text.
func typedStream(rng *rand.Rand, n, text int) []byte {
	plain := []string{"k", "7", "q", "z", "abc ", "\b", "\b \b", "\r", "\x1b[31m", "\x1b[m", "\x1b[K"}
	pieces := []string{"\r\n", "\n", "\t",
		"\x1b[31m", "\x1b[1;38;5;208m", "\x1b[38:2::10:20:30m", "\x1b[m", "\x1b[0K", "\x1b[K", "\x1b[2K", "\x1b[1K",
		"界", "👍🏽", "e\u0301", "\x1b[A", "\x1b[3;5H", "\x1b[2J", "\x1b[?1049h", "\x1b[?1049l", "\x1b[5;10r", "\x1b[r",
		"\x1b]0;title\x07", "\x1b[4h", "\x1b[4l", "\x1b7", "\x1b8", "\x1bM", "\x1b(0qqq\x1b(B", "\x1b[3@", "\x1b[2P",
		strings.Repeat("w", 30), "\x1b[?7l", "\x1b[?7h", "\x1b[7m", "\x1b[27m", "\u009b2J", "\u0085",
		"\t\t\t\t\t\t\t\t\t\tab", "\t\t\tx", strings.Repeat("y", 40)}
	var b []byte
	for range n {
		if rng.IntN(text+1) > 0 {
			b = append(b, plain[rng.IntN(len(plain))]...)
		} else {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
	}
	return b
}

// Every row whose cells a write to the emulator changed is noted as written: the
// emulator fed straight (the stream cut anywhere, a sequence in two writes included),
// its cells compared with those when the rows were last cleaned.
func TestWrittenRowsCoverEveryChange(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 36))
	for _, text := range []int{1, 4, 16} {
		stream := typedStream(rng, 3000, text)
		l := newLazyTerm(30, 8, io.Discard)
		l.Write([]byte("x"))
		cells := func() [][]vt10x.Glyph {
			g := make([][]vt10x.Glyph, 8)
			for y := range g {
				for x := range 30 {
					g[y] = append(g[y], l.Cell(x, y))
				}
			}
			return g
		}
		l.clean()
		was := cells()
		for p, n := stream, 0; len(p) > 0; p = p[n:] {
			n = min(len(p), 1+rng.IntN(12))
			l.Write(p[:n])
			now := cells()
			for y := range now {
				if !slices.Equal(now[y], was[y]) && l.rowClean(y) {
					t.Fatalf("text 1 in %d: row %d changed by %q (%d bytes in), but is not noted as written",
						text+1, y, p[:n], len(stream)-len(p)+n)
				}
			}
			if rng.IntN(2) == 0 {
				l.clean()
				was = now
			}
		}
	}
}

// renderDiff is the rows two renders differ in.
func renderDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var out strings.Builder
	for y := range max(len(g), len(w)) {
		var a, b string
		if y < len(g) {
			a = g[y]
		}
		if y < len(w) {
			b = w[y]
		}
		if a != b {
			fmt.Fprintf(&out, "row %d:\n kept %q\n full %q\n", y, a, b)
		}
	}
	return out.String()
}

// A typed character's echo draws its row again and keeps the others from the Render
// before: a row changed behind the screen's back (in the emulator itself) still shows
// as it was, until a write that may change it.
func TestRenderKeepsRowsNotWritten(t *testing.T) {
	s := NewScreen(40, 6)
	s.Write([]byte("first line\r\nsecond line\r\n$ "))
	s.Render()
	_, _ = s.term.t.Write([]byte("\x1b7\x1b[1;1HXXXX\x1b8")) // not through the Screen
	s.Write([]byte("k"))
	lines := strings.Split(s.Render(), "\n")
	if !strings.HasPrefix(lines[0], "first line") {
		t.Errorf("row 0 was drawn again for an echo on row 2: %q", lines[0])
	}
	if !strings.HasPrefix(lines[2], "$ k") {
		t.Errorf("the echo's row is %q, want it to start with %q", lines[2], "$ k")
	}
	s.Write([]byte("\r\n"))
	if lines := strings.Split(s.Render(), "\n"); !strings.HasPrefix(lines[0], "XXXX") {
		t.Errorf("a line feed did not draw every row again: row 0 is %q", lines[0])
	}
}

// A resize draws every row again, the emulator's cells unwritten or not: a screen
// rendered before anything reached it keeps no line of the old width.
func TestRenderAfterResizeDrawsEveryRow(t *testing.T) {
	s := NewScreen(6, 2)
	s.Render()
	s.Resize(9, 2)
	if got, want := s.Render(), strings.Repeat(" ", 9)+"\n"+strings.Repeat(" ", 9); got != want {
		t.Errorf("blank screen resized from 6 to 9 columns: Render is %q, want %q", got, want)
	}
	s.Write([]byte("ab"))
	s.Render()
	s.Resize(4, 2)
	if got, want := s.Render(), "ab  \n    "; got != want {
		t.Errorf("screen resized from 9 to 4 columns: Render is %q, want %q", got, want)
	}
}

// A Render that panics midway (here: a row the emulator does not have), recovered by
// its caller, leaves the screen's renders right: the next ones draw what a full Render
// draws, with rows kept from each other again.
func TestRenderAfterPanicStaysRight(t *testing.T) {
	s := NewScreen(20, 4)
	s.Write([]byte("one\r\ntwo\r\nthree"))
	s.Render()
	s.Write([]byte("\r\n"))
	s.Render() // both buffers in use
	func() {
		defer func() { _ = recover() }()
		s.mu.Lock()
		s.rows++ // the last row is past vt10x's: reading it panics
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			s.rows--
			s.mu.Unlock()
		}()
		s.Render()
		t.Fatal("Render of a row past the emulator's did not panic")
	}()
	// Writes to the first row, which make its line longer, the others kept.
	writes := []string{"\x1b[H", "\x1b[31mk", "q\x1b[m", "\x1b[1m7", "\x1b[4mz"}
	for i, p := range writes {
		s.Write([]byte(p))
		got := s.Render()
		want := NewScreen(20, 4)
		want.Write([]byte("one\r\ntwo\r\nthree\r\n"))
		want.Write([]byte(strings.Join(writes[:i+1], "")))
		if w := want.Render(); got != w {
			t.Fatalf("after %q, the Render after a panicking one differs from a fresh screen's:\n%s", p, renderDiff(got, w))
		}
	}
}

// A write that may continue a sequence an earlier one left open counts as every row,
// whatever it holds: vt10x runs a control met inside a sequence and stays in it, so
// text after it may end the sequence (DECALN filling every row, IL pushing rows down).
// Once a write's end shows the parser back in ground, one-row writes count as one row
// again.
func TestWriteAfterOpenSequenceIsEveryRow(t *testing.T) {
	for _, w := range [][2]string{
		{"\x1b#\r", "8"},
		{"\x1b\b", "[L"},
		{"\x1b[", "2J"},
		{"\x1b[3\r", "L"},
		{"\x1b]0;title", "\x07ab"},
		{"\x1b(\n", "0q"},
	} {
		l := newLazyTerm(10, 4, io.Discard)
		l.Write([]byte("one\r\ntwo\r\nthree"))
		l.clean()
		l.Write([]byte(w[0]))
		l.clean()
		l.Write([]byte(w[1]))
		if l.rowClean(0) {
			t.Errorf("%q then %q: the second write is not noted as every row", w[0], w[1])
		}
		l.clean()
		l.Write([]byte("\x1b[m"))
		l.clean()
		y := l.Cursor().Y
		l.Write([]byte("k"))
		for r := range 4 {
			if l.rowClean(r) != (r != y) {
				t.Errorf("%q then %q, then back in ground: a typed key on row %d is not noted as its row alone (row %d)",
					w[0], w[1], y, r)
			}
		}
	}
}
