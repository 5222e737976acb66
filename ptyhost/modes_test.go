package ptyhost

import "testing"

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
