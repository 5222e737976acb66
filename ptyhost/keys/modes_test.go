package keys

import (
	"strings"
	"testing"
)

func TestModeTracker(t *testing.T) {
	cases := []struct {
		name   string
		chunks []string
		want   Modes
	}{
		{"none", []string{"plain text"}, Modes{}},
		{"app cursor", []string{"\x1b[?1h"}, Modes{AppCursor: true}},
		{"bracketed", []string{"x\x1b[?2004hy"}, Modes{BracketedPaste: true}},
		{"combined params", []string{"\x1b[?1;2004h"}, Modes{AppCursor: true, BracketedPaste: true}},
		{"on then off", []string{"\x1b[?2004h", "\x1b[?2004l"}, Modes{}},
		{"split across reads", []string{"\x1b", "[?20", "04", "h"}, Modes{BracketedPaste: true}},
		{"not private", []string{"\x1b[2004h\x1b[1h"}, Modes{}},
		{"other mode", []string{"\x1b[?25h\x1b[?1049h"}, Modes{}},
		{"reset", []string{"\x1b[?1;2004h", "\x1bc"}, Modes{}},
		{"esc restarts", []string{"\x1b[?20\x1b[?1h"}, Modes{AppCursor: true}},
		{"mouse sgr", []string{"\x1b[?1000h\x1b[?1006h"}, Modes{Mouse: 1000, MouseSGR: true}},
		{"mouse last set wins", []string{"\x1b[?1000;1003h"}, Modes{Mouse: 1003}},
		{"mouse off", []string{"\x1b[?1002h", "\x1b[?1002l"}, Modes{}},
		{"x10", []string{"\x1b[?9h"}, Modes{Mouse: 9}},
		{"overlong params ignored", []string{"\x1b[?" + string(make([]byte, 100)) + "h"}, Modes{}},
		// Where x/ansi's parser reads differently from a byte scanner:
		{"split at every byte", strings.Split("\x1b[?1000;1006h\x1b[?1h", ""), Modes{AppCursor: true, Mouse: 1000, MouseSGR: true}},
		{"reset split", []string{"\x1b[?1;2004h\x1b", "c"}, Modes{}},
		{"more params than kept", []string{"\x1b[?" + strings.Repeat("25;", 40) + "2004h"}, Modes{}},
		{"long list of modes", []string{"\x1b[?1000;1002;1003;1006;1004;1005;1015;2004h"},
			Modes{Mouse: 1003, MouseSGR: true, BracketedPaste: true}},
		{"leading zeros", []string{"\x1b[?0001h"}, Modes{AppCursor: true}},
		{"sub-parameters name no mode", []string{"\x1b[?1:2004h\x1b[?1000:1;1006h"}, Modes{MouseSGR: true}},
		{"intermediate", []string{"\x1b[?1$h"}, Modes{}},
		{"8-bit CSI not obeyed", []string{"\x9b?1h"}, Modes{}},
		{"after strings ended by BEL and ST", []string{"\x1b]0;t\x07\x1b[?1h\x1bP+q\x1b", "\\\x1b[?2004h"},
			Modes{AppCursor: true, BracketedPaste: true}},
		{"CAN abandons", []string{"\x1b[?1\x18h"}, Modes{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var tr ModeTracker
			for _, ch := range c.chunks {
				tr.Feed([]byte(ch))
			}
			if got := tr.Modes(); got != c.want {
				t.Fatalf("modes = %+v, want %+v", got, c.want)
			}
		})
	}
}
