package screen

import (
	"io"
	"strings"
	"testing"
)

// plainLine is line y of Render without its SGR sequences.
func plainLine(s *Screen, y int) string {
	return sgrRE.ReplaceAllString(strings.Split(s.Render(), "\n")[y], "")
}

// colOf returns the display column of the first probe in line.
func colOf(line string, probe rune) int {
	col := 0
	for _, r := range line {
		if r == probe {
			return col
		}
		col += runeWidth(r)
	}
	return -1
}

func TestScreenRenderWide(t *testing.T) {
	cases := []struct {
		name  string
		cols  int
		in    string
		want  string // line 0 of Render, SGR removed, right-trimmed
		probe rune   // … found at display column col
		col   int
	}{
		{"CJK", 10, "a你b", "a你b", 'b', 3},
		{"two CJK", 10, "你好|", "你好|", '|', 4},
		{"emoji", 10, "😀|", "😀|", '|', 2},
		{"fullwidth and Hangul", 12, "ＡＢ한|", "ＡＢ한|", '|', 6},
		{"Claude Code prompt re-synced with CHA", 30, "hello 你好\x1b[11G 😀\x1b[14G world",
			"hello 你好 😀 world", 'w', 14},
		{"overflow is cut at cols", 20, strings.Repeat("你", 15) + "END", strings.Repeat("你", 10), 'E', -1},
		{"wide character that does not fit in the last column", 20, strings.Repeat("x", 19) + "你",
			strings.Repeat("x", 19), '你', -1},
		{"combining mark stays on its letter", 10, "e\u0301|", "e\u0301|", '|', 1},
		{"zero-width joiner stays with the character before it (tmux 3.3a)", 10, "👩\u200d💻|", "👩\u200d💻|", '|', 4},
		{"reverse blank after a wide character is kept", 10, "你\x1b[7m \x1b[0m|", "你 |", '|', 3},
		{"C1 control stored as text renders as space", 10, "a\u009bb", "a b", 'b', 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewScreen(c.cols, 3)
			s.Write([]byte(c.in))
			checkGeometry(t, s)
			line := plainLine(s, 0)
			if got := strings.TrimRight(line, " "); got != c.want {
				t.Errorf("line = %q, want %q", got, c.want)
			}
			if got := colOf(line, c.probe); got != c.col {
				t.Errorf("%q at column %d, want %d", c.probe, got, c.col)
			}
			if text := strings.Split(s.Text(), "\n")[0]; text != c.want {
				t.Errorf("Text line = %q, want %q", text, c.want)
			}
		})
	}
}

func TestScreenCursorDisplayColumn(t *testing.T) {
	s := NewScreen(20, 3)
	s.Write([]byte("a你好"))
	if st := s.State(); st.CursorX != 5 || st.CursorY != 0 {
		t.Errorf("cursor at %d,%d, want 5,0", st.CursorX, st.CursorY)
	}
	s.Write([]byte("\r\n\x1b[5C"))
	if st := s.State(); st.CursorX != 5 || st.CursorY != 1 {
		t.Errorf("cursor at %d,%d, want 5,1", st.CursorX, st.CursorY)
	}
}

func TestScreenRenderSGR(t *testing.T) {
	cases := []struct {
		name, in, want string // want: line 0 of a 6-column screen
	}{
		{"plain", "abc", "abc   "},
		{"one SGR per run", "\x1b[31mAB\x1b[0mC", "\x1b[0;31mAB\x1b[0mC   "},
		{"reverse", "\x1b[7mX", "\x1b[0;7mX\x1b[0m     "},
		{"reverse un-swapped", "\x1b[31;42;7mX", "\x1b[0;7;31;42mX\x1b[0m     "},
		{"reverse fg only", "\x1b[33;7mX", "\x1b[0;7;33mX\x1b[0m     "},
		{"erase with reverse on: background only", "\x1b[7;41m\x1b[K", "\x1b[0;41m      \x1b[0m"},
		{"bold leaves the colour alone", "\x1b[1;31mX", "\x1b[0;1;31mX\x1b[0m     "},
		{"bold 38;5;1 not brightened", "\x1b[1;38;5;1mX", "\x1b[0;1;31mX\x1b[0m     "},
		{"bold bright stays bright", "\x1b[1;91mX", "\x1b[0;1;91mX\x1b[0m     "},
		{"truecolour 0,1,5 kept apart from palette 5", "\x1b[38;2;0;1;5mX", "\x1b[0;38;2;0;1;5mX\x1b[0m     "},
		{"truecolour 0,0,5 kept apart from palette 5", "\x1b[38;2;0;0;5;48;2;0;0;0mX", "\x1b[0;38;2;0;0;5;48;2;0;0;0mX\x1b[0m     "},
		{"italic underline blink", "\x1b[3;4;5mX", "\x1b[0;3;4;5mX\x1b[0m     "},
		{"bright background", "\x1b[104mX", "\x1b[0;104mX\x1b[0m     "},
		{"256 colours", "\x1b[38;5;200;48;5;17mX", "\x1b[0;38;5;200;48;5;17mX\x1b[0m     "},
		{"truecolour", "\x1b[38;2;10;20;30mX", "\x1b[0;38;2;10;20;30mX\x1b[0m     "},
		{"colour to the end of the line", "\x1b[44mABCDEF", "\x1b[0;44mABCDEF\x1b[0m"},
		{"dim", "\x1b[2mX\x1b[22mY", "\x1b[0;2mX\x1b[0mY    "},
		{"hidden and strikethrough", "\x1b[8mX\x1b[28;9mY\x1b[29mZ", "\x1b[0;8mX\x1b[0;9mY\x1b[0mZ   "},
		{"curly underline, colon form", "\x1b[4:3mX\x1b[4:0mY", "\x1b[0;4:3mX\x1b[0mY    "},
		{"double underline (21)", "\x1b[21mX", "\x1b[0;4:2mX\x1b[0m     "},
		{"underline colour", "\x1b[4;58;2;1;2;3mX\x1b[59mY", "\x1b[0;4;58:2::1:2:3mX\x1b[0;4mY\x1b[0m    "},
		{"colon truecolour", "\x1b[38:2::200:100:50mX", "\x1b[0;38;2;200;100;50mX\x1b[0m     "},
		{"extras reset by SGR 0", "\x1b[2;9mX\x1b[0mY", "\x1b[0;2;9mX\x1b[0mY    "},
		{"dim line drawing", "\x1b(0\x1b[2mqx\x1b(B", "\x1b[0;2m─│\x1b[0m    "},
		{"line drawing", "\x1b(0qx\x1b(Bq", "─│q   "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewScreen(6, 2)
			s.Write([]byte(c.in))
			checkGeometry(t, s)
			if got := strings.Split(s.Render(), "\n")[0]; got != c.want {
				t.Errorf("line = %q, want %q", got, c.want)
			}
		})
	}
}

func TestScreenRenderSize(t *testing.T) {
	s := NewScreen(0, -5)
	if c, r := s.Size(); c != 1 || r != 1 {
		t.Errorf("size %dx%d, want 1x1", c, r)
	}
	s.Write([]byte("你好 hello\r\n\x1b[31mworld"))
	checkGeometry(t, s)
	for _, sz := range [][2]int{{7, 3}, {40, 10}, {1, 1}, {5000, 2}} {
		s.Resize(sz[0], sz[1])
		checkGeometry(t, s)
	}
	if c, _ := s.Size(); c != maxScreenDim {
		t.Errorf("cols %d, want clamped to %d", c, maxScreenDim)
	}
}

func TestScreenText(t *testing.T) {
	s, _ := screenOf(t, "\x1b[31mred\x1b[0m  \r\n\r\n  x")
	if got, want := s.Text(), "red\n\n  x\n"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

func FuzzScreenWrite(f *testing.F) {
	for _, seed := range []string{
		"hello\x1b[31mworld\x1b[0m\r\n",
		"\x1b[>7u\x1b[<u\x1b[?u\x1b[=1;1u",
		"abc\x1b[-1@\x1b[-1P\x1b[99999999I",
		"\x1b[38:2::255:0:0m\x1b[1;4:3m\x1b[58;2;1;2;3m",
		"\x1b]0;title\x07\x1b]52;c;eA==\x07\x1bP1$q\x1b\\\x1b]777;notify;a;b\x1b\\",
		"\x1b[?1049h\x1b[?2004h\x1b[?2026h\x1b[5 q\x1b[c\x1b[>c\x1b[6n\x1bc",
		"a你b😀\u0301\u200d\x1b[4b\x1b(0qx\x1b)B",
		"\x1b[;5H\x1b[0X\x1b[0S\x1b[3\x18A\x1b[r\x1b[0;0r",
		"\x1b[2;9;58;5;3m你\u0301\x1b[4h好\x1b[4l\U0010FFFD\x01\x02\x1b7\x1b[0m\x1b8x\x1b[?7l0123456789012345678你\x1b[3b",
	} {
		f.Add([]byte(seed), uint8(20), uint8(5))
	}
	f.Fuzz(func(t *testing.T, data []byte, cols, rows uint8) {
		s := NewScreen(int(cols%120)+1, int(rows%50)+1)
		s.SetReply(io.Discard)
		for i := 0; len(data) > 0; i++ {
			k := min(len(data), 1+(i*5)%13)
			if n, err := s.Write(data[:k]); n != k || err != nil {
				t.Fatalf("Write = %d, %v, want %d", n, err, k)
			}
			data = data[k:]
			if i == 3 {
				s.Resize(int(rows%50)+1, int(cols%50)+1)
			}
		}
		checkGeometry(t, s)
		st := s.State()
		if st.Err != "" {
			t.Fatalf("emulator panicked: %s", st.Err)
		}
		if c, r := s.Size(); st.CursorX < 0 || st.CursorX >= c || st.CursorY < 0 || st.CursorY >= r {
			t.Fatalf("cursor %d,%d outside %dx%d", st.CursorX, st.CursorY, c, r)
		}
	})
}

// A screen is at most MaxCols×MaxRows, and one that shrinks gives up the buffers
// sized to what it was: a run resized to 65535×65535 and back kept them for ever.
func TestScreenShrinkGivesUpBuffers(t *testing.T) {
	s := NewScreen(80, 24)
	s.Resize(65535, 65535)
	if c, r := s.Size(); c != MaxCols || r != MaxRows {
		t.Fatalf("size %dx%d, want %dx%d", c, r, MaxCols, MaxRows)
	}
	s.Write([]byte(strings.Repeat("x", 100_000)))
	s.Render()
	if cap(s.buf) <= shrinkKeep {
		t.Fatalf("the big screen's render buffer is %d bytes: the test shows nothing", cap(s.buf))
	}
	s.Resize(80, 24)
	if n := cap(s.buf) + cap(s.padded) + cap(s.scratch); n > 3*shrinkKeep {
		t.Errorf("after shrinking to 80x24 the screen keeps %d bytes of buffers", n)
	}
	s.Render()
	if cap(s.buf) > shrinkKeep {
		t.Errorf("the 80x24 render buffer is %d bytes", cap(s.buf))
	}
}
