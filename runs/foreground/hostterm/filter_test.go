package hostterm

import (
	"bytes"
	"testing"
)

func TestHostFilter(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"text and SGR pass", "a\x1b[1;31mred\x1b[0m\r\n", "a\x1b[1;31mred\x1b[0m\r\n"},
		{"cursor and erase pass", "\x1b[2J\x1b[H\x1b[?25l\x1b7x\x1b8", "\x1b[2J\x1b[H\x1b[?25l\x1b7x\x1b8"},
		{"title dropped", "a\x1b]0;pwned\x07b", "ab"},
		{"clipboard dropped", "a\x1b]52;c;ZWNobyBoaQ==\x1b\\b", "ab"},
		{"DCS dropped", "a\x1bP+q544e\x1b\\b", "ab"},
		{"APC dropped", "a\x1b_Gx\x1b\\b", "ab"},
		{"window ops dropped", "a\x1b[21tb\x1b[8;100;100t", "ab"},
		{"charset passes", "\x1b(0q\x1b(B", "\x1b(0q\x1b(B"},
		// Where a filter on x/ansi's parser would differ: its UTF-8 state takes the byte
		// after a lead byte whatever it is, so the ESC would pass as part of a character
		// and the host terminal, which resynchronises there, would run the OSC.
		{"OSC after a cut character dropped", "a\xc3\x1b]52;c;ZWNobw==\x07b", "a\xc3b"},
		{"PM and SOS dropped", "a\x1b^x\x1b\\b\x1bXy\x1b\\c", "abc"},
		{"control in a CSI passes in place", "\x1b[1\r2m", "\x1b[1\r2m"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, chunk := range []int{1, 2, 3, 1000} { // split anywhere
				var out bytes.Buffer
				f := NewFilter(&out)
				in := []byte(c.in)
				for len(in) > 0 {
					n := min(chunk, len(in))
					if k, err := f.Write(in[:n]); k != n || err != nil {
						t.Fatalf("Write = %d, %v", k, err)
					}
					in = in[n:]
				}
				if out.String() != c.want {
					t.Errorf("chunks of %d: %q → %q, want %q", chunk, c.in, out.String(), c.want)
				}
			}
		})
	}
}
