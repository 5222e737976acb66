package keys

import (
	"strings"
	"testing"
)

// BenchmarkModeTracker feeds a PTY run's output without a screen (corral parity,
// library use), about 1 MiB in one read: coloured words, and an editor's mode
// switches now and then.
func BenchmarkModeTracker(b *testing.B) {
	words := strings.Repeat("\x1b[38;5;208mword\x1b[0m plain text ", 50)
	in := []byte(strings.Repeat(words+"\x1b[?1h\x1b[?2004h\x1b[?1000;1006h\r\n", (1<<20)/len(words)))
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		var t ModeTracker
		t.Feed(in)
	}
}
