package terminal

import (
	"fmt"
	"testing"
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
		ls := HistoryText([]byte(c.in + "\r\n"))
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
	l := HistoryText([]byte("ab\x1b[31mcdef\x1b[0mgh 你好\r\n"))[0]
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
	if got := HistoryText([]byte("plain 你好\n"))[0].wrapped(7); fmt.Sprintf("%q", got) != `["plain " "你好"]` {
		t.Errorf("a plain line: %q", got)
	}
	if got := l.wrapped(80); len(got) != 1 || got[0] != l.Styled() {
		t.Errorf("a line that fits: %q, want %q", got, l.Styled())
	}
}
