package screen

import (
	"strings"
	"testing"
)

// An agent's announcements, as the real CLIs write them (screen_activity.go): a title
// that starts or stops spinning, and codex's OSC 7501.
func TestScreenActivity(t *testing.T) {
	tests := []struct {
		name   string
		stream string
		seq    uint64
		idle   bool
	}{
		{"nothing said", "hello\r\n\x1b[1mbold\x07", 0, false},
		{"a plain title waits", "hello\r\n\x1b]0;file - VIM\x07\x1b]2;other - VIM\x07", 1, true},
		{"claude starts waiting", "\x1b]0;✳ Claude Code\x07", 1, true},
		{"claude works", "\x1b]0;✳ Claude Code\x07\x1b]0;⠂ Claude Code\x07\x1b]0;⠐ Claude Code\x07", 2, false},
		{"claude waits", "\x1b]0;⠂ Claude Code\x07\x1b]0;⠐ Claude Code\x07\x1b]0;✳ Claude Code\x07", 2, true},
		{"codex waits", "\x1b]0;agt\x07\x1b]7501;state=working:app=codex\x1b\\\x1b]0;⠸ agt\x07" +
			"\x1b]0;agt\x07\x1b]7501;state=idle:app=codex\x1b\\", 5, true},
		{"codex works", "\x1b]7501;state=idle:app=codex\x1b\\\x1b]7501;state=working:app=codex\x07", 2, false},
		{"unknown state", "\x1b]7501;state=thinking\x07", 0, false},
		{"split across writes", "\x1b]0;⠂ x\x07\x1b]75|01;state=id|le\x1b|\\", 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewScreen(80, 24)
			for _, part := range strings.Split(tt.stream, "|") {
				s.Write([]byte(part))
			}
			if seq, idle := s.Activity(); seq != tt.seq || idle != tt.idle {
				t.Fatalf("Activity() = %d, %v; want %d, %v", seq, idle, tt.seq, tt.idle)
			}
		})
	}
}
