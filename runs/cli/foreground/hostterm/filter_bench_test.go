package hostterm

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// BenchmarkFilter is corral run --pty's output path: ls --color style text with a
// title set now and then, about 1 MiB in 32 KiB writes.
func BenchmarkFilter(b *testing.B) {
	names := strings.Repeat("\x1b[01;34mdirectory\x1b[0m  \x1b[01;32mscript.sh\x1b[0m  notes.txt  ", 10)
	in := []byte(strings.Repeat(names+"\x1b]0;~/src\x07\r\n", (1<<20)/len(names)))
	buf := make([]byte, 32<<10)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		// The struct hides bytes.Reader's WriterTo, so the copy writes buf-sized pieces.
		_, _ = io.CopyBuffer(NewFilter(io.Discard), struct{ io.Reader }{bytes.NewReader(in)}, buf)
	}
}

// BenchmarkCleanFrame is a frame from a server made safe before the UI draws it: 40
// rows of 120 columns with a colour change every few words, what a busy agent's
// screen renders to.
func BenchmarkCleanFrame(b *testing.B) {
	row := strings.Repeat("\x1b[1;34mword\x1b[0m text \x1b[38;5;208mmore\x1b[m  ", 6)
	frame := strings.TrimSuffix(strings.Repeat(row+"\n", 40), "\n")
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		_ = Clean(frame, Frame)
	}
}
