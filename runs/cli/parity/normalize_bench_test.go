package parity

import (
	"strings"
	"testing"
)

// BenchmarkNormalize normalizes about 1 MiB of a PTY run's output in 32 KiB pieces:
// coloured results, a progress line rewritten with CR, a title now and then.
func BenchmarkNormalize(b *testing.B) {
	unit := "\x1b]0;step\x1b\\" + strings.Repeat("\x1b[1;32mok\x1b[0m step: done ✓\r\n", 30) + "50%\r100%\r\n"
	in := []byte(strings.Repeat(unit, (1<<20)/len(unit)))
	var pieces []piece
	for p := in; len(p) > 0; p = p[min(len(p), 32<<10):] {
		pieces = append(pieces, piece{data: p[:min(len(p), 32<<10)]})
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		_, _ = normalize(pieces)
	}
}
