package screen

import (
	"fmt"
	"strings"
	"testing"
)

// The cases tmux's captures cannot show (the fidelity streams cover the rest):
// what a run writes that looks like the wrapper's own stand-ins, marks that
// come after the screen was read, and a full key table.

func TestScreenReservedRunesFromTheRun(t *testing.T) {
	// The pad and key runes, and the feeder's marks, written by the run itself
	// must come out as the run wrote them (or, for SOH and STX, be ignored as a
	// terminal does), never be taken for the wrapper's own.
	s, _ := screenOf(t, "a\U0010FFFDb\U00100041c\x01d\x02e", "\r\n\x1b[2m\U0010FFFD\x1b[0m|")
	if got, want := textLine(s, 0), "a\U0010FFFDb\U00100041cde"; got != want {
		t.Errorf("line 0 = %q, want %q", got, want)
	}
	if got, want := strings.Split(s.Render(), "\n")[1], "\x1b[0;2m\U0010FFFD\x1b[0m|"; !strings.HasPrefix(got, want) {
		t.Errorf("line 1 = %q, want it to start %q", got, want)
	}
}

func TestScreenCombiningAfterRead(t *testing.T) {
	// A UI reads the screen between any two reads of the PTY: a mark in the next
	// read still joins the character before it, whether the character is still
	// pending or was fed to vt10x, at the margin too.
	cases := []struct {
		name   string
		writes []string
		line   string
		cursor int
	}{
		{"narrow", []string{"e", "\u0301|"}, "e\u0301|", 2},
		{"wide", []string{"你", "\u200d|"}, "你\u200d|", 3},
		{"two marks, two reads", []string{"a", "\u0301", "\u0302|"}, "a\u0301\u0302|", 2},
		{"dim", []string{"\x1b[2mo", "\u0308\x1b[0m|"}, "o\u0308|", 2},
		{"at the margin", []string{strings.Repeat("x", testCols-1) + "e", "\u0301"}, strings.Repeat("x", testCols-1) + "e\u0301", testCols - 1},
		{"after a control: dropped", []string{"e\r", "\u0301|"}, "|", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewScreen(testCols, testRows)
			for _, w := range c.writes {
				s.Write([]byte(w))
				checkGeometry(t, s) // reads, so the next Write finds the cell fed
			}
			if got := textLine(s, 0); got != c.line {
				t.Errorf("line 0 = %q, want %q", got, c.line)
			}
			if st := s.State(); st.CursorX != c.cursor {
				t.Errorf("cursor at column %d, want %d", st.CursorX, c.cursor)
			}
		})
	}
}

func TestScreenKeyTableStaysBounded(t *testing.T) {
	// More distinct dim, underline-coloured characters than there are keys:
	// the keys no cell holds any more are freed, so the last ones written
	// still show with their attributes, and the table never grows past its
	// bound. (Keys in output not yet fed are in use: a single Write larger than
	// the table would lose extras, but the host reads 32 KiB at a time.)
	s := NewScreen(10, 2)
	var b strings.Builder
	n := vtKeyCount + vtKeyCount/2
	for i := range n {
		fmt.Fprintf(&b, "\x1b[2;4;58;5;%dm%c", i%256, rune(0x4E00+i/256))
		if i%5 == 4 {
			b.WriteString("\r\n")
		}
	}
	for p := []byte(b.String()); len(p) > 0; { // in reads of the host's size
		k := min(len(p), benchChunk)
		s.Write(p[:k])
		p = p[k:]
	}
	checkGeometry(t, s)
	last := n - 1
	want := fmt.Sprintf("\x1b[0;2;4;58:5:%d m%c", last%256, rune(0x4E00+last/256))
	want = strings.Replace(want, " m", "m", 1)
	if got := strings.Split(s.Render(), "\n")[1]; !strings.Contains(got, want) {
		t.Errorf("last line %q, want it to hold %q", got, want)
	}
	if len(s.cells.vals) > vtKeyCount {
		t.Errorf("%d keys, more than %d", len(s.cells.vals), vtKeyCount)
	}
}

func TestScreenKeyTableFullOnAltScreen(t *testing.T) {
	// On the alternate screen nothing can be freed (the main screen is out of
	// sight): new cells lose their extras, never their text.
	s := NewScreen(10, 2)
	s.Write([]byte("\x1b[?1049h"))
	var b strings.Builder
	for i := range vtKeyCount + 10 {
		fmt.Fprintf(&b, "\x1b[9;58;5;%dm%c\r", i%256, rune(0x4E00+i/256))
	}
	b.WriteString("\x1b[0m\r\n\x1b[9mZ")
	s.Write([]byte(b.String()))
	checkGeometry(t, s)
	if got := textLine(s, 1); got != "Z" {
		t.Errorf("line 1 = %q, want Z", got)
	}
	if st := s.State(); st.Err != "" {
		t.Errorf("emulator restarted: %s", st.Err)
	}
}
