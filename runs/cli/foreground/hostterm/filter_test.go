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

// feed writes in through a filter of mode in chunks of chunk bytes, then flushes.
func feed(t *testing.T, mode Mode, in string, chunk int) string {
	t.Helper()
	var out bytes.Buffer
	f := NewMode(&out, mode)
	b := []byte(in)
	for len(b) > 0 {
		n := min(chunk, len(b))
		if k, err := f.Write(b[:n]); k != n || err != nil {
			t.Fatalf("Write = %d, %v", k, err)
		}
		b = b[n:]
	}
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// A frame a server rendered reaches the UI's terminal with its text, newlines and SGR
// only: no string (OSC, DCS, APC, PM, SOS), no other sequence, no control character,
// whatever a hostile server puts in it.
func TestFrameFilter(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"text and SGR pass", "a\x1b[1;31mred\x1b[0m\n\x1b[38:5:208mé✓\x1b[m", "a\x1b[1;31mred\x1b[0m\n\x1b[38:5:208mé✓\x1b[m"},
		{"DCS dropped", "a\x1bP+q544e\x1b\\b", "ab"},
		{"APC dropped", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"PM and SOS dropped", "a\x1b^x\x1b\\b\x1bXy\x1b\\c", "abc"},
		{"OSC dropped", "a\x1b]52;c;ZWNobw==\x07b\x1b]0;t\x1b\\c", "abc"},
		{"queries and modes dropped", "a\x1b[6n\x1b[c\x1b[?1049h\x1b[2J\x1b[8;1;1tb", "ab"},
		{"two-byte sequences dropped", "a\x1bc\x1bZ\x1b7b", "ab"},
		{"controls dropped", "a\x05\x07\r\x08\x7fb\n", "ab\n"},
		{"C1 dropped", "a\xc2\x9b6n\xc2\x90q\xc2\x9cb\x9b6n", "a6nqb6n"},
		{"latin-1 supplement passes", "\xc2\xa0\xc2\xbf", "\xc2\xa0\xc2\xbf"},
		{"SGR with other bytes dropped", "a\x1b[1\r2mb\x1b[?1mc", "abc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, chunk := range []int{1, 2, 3, 1000} {
				if got := feed(t, Frame, c.in, chunk); got != c.want {
					t.Errorf("chunks of %d: %q → %q, want %q", chunk, c.in, got, c.want)
				}
			}
			if got := Clean(c.in, Frame); got != c.want {
				t.Errorf("Clean(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// Run output printed to be read at a terminal (corral log, poll, screen): what would
// act on the terminal is shown as cat -v shows it; text, SGR, newlines, tabs and CRLF
// pass.
func TestVisibleFilter(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"text, SGR, tabs and CRLF pass", "a\tb\x1b[1;31mred\x1b[0m\r\né✓\n", "a\tb\x1b[1;31mred\x1b[0m\r\né✓\n"},
		{"cursor position report shown", "a\x1b[6nb", "a^[[6nb"},
		{"device attributes shown", "\x1b[c\x1b[>c\x1b[=c", "^[[c^[[>c^[[=c"},
		{"ENQ and BEL shown", "a\x05b\x07", "a^Eb^G"},
		{"lone CR shown", "50%\r100%\r\n", "50%^M100%\r\n"},
		{"CR at the end shown", "a\r", "a^M"},
		{"OSC shown", "\x1b]52;c;ZWNobw==\x07", "^[]52;c;ZWNobw==^G"},
		{"DCS shown", "\x1bP$q\"p\x1b\\", "^[P$q\"p^[\\"},
		{"two-byte ESC shown", "\x1bZ\x1bc", "^[Z^[c"},
		{"C1 shown", "\xc2\x9b6n\x9b6n", "M-BM-^[6nM-^[6n"},
		{"DEL and backspace shown", "a\x08\x7f", "a^H^?"},
		{"controls in a CSI shown", "\x1b[1\r2m", "^[[1^M2m"},
		{"unfinished sequence shown", "a\x1b[12", "a^[[12"},
		{"ESC at the end shown", "a\x1b", "a^["},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, chunk := range []int{1, 2, 3, 1000} {
				if got := feed(t, Visible, c.in, chunk); got != c.want {
					t.Errorf("chunks of %d: %q → %q, want %q", chunk, c.in, got, c.want)
				}
			}
		})
	}
}
