package terminal

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkHistoryText is the cost of reading a full transcript (MaxHistoryBytes) into
// scrollback lines: plain, and with an SGR colour change every few words, as a test
// runner or a compiler prints (scrollback keeps each character's pen).
func BenchmarkHistoryText(b *testing.B) {
	for _, c := range []struct {
		name, line string
	}{
		{"plain", "ok   corral/ui   0.214s  the quick brown fox jumps over the lazy dog\r\n"},
		{"colour", "\x1b[32mok\x1b[0m   \x1b[1mcorral/ui\x1b[0m   \x1b[38;5;244m0.214s\x1b[0m  the quick \x1b[31mbrown\x1b[0m fox\r\n"},
	} {
		data := []byte(strings.Repeat(c.line, MaxHistoryBytes/len(c.line)))
		b.Run(fmt.Sprintf("%s-%dMiB", c.name, len(data)>>20), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				HistoryText(data)
			}
		})
	}
}
