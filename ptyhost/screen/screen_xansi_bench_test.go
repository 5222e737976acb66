package screen

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// BenchmarkScreenScanXAnsi runs x/ansi's parser, with no handler at all, over the
// inputs of BenchmarkScreenWrite*: the least a scanner built on it would cost the
// run's reader, before forwarding a byte to vt10x (is it cheap enough for the
// normaliser to be one?). Compare with BenchmarkScreenWriteOnly.
func BenchmarkScreenScanXAnsi(b *testing.B) {
	for _, in := range benchInputs() {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			p := ansi.NewParser()
			for b.Loop() {
				for _, c := range in.data {
					p.Advance(c)
				}
			}
		})
	}
}

// BenchmarkScreenWriteOnly is the lazy path alone: the Screen's Write, what the
// run's reader pays for a read, with no Render.
func BenchmarkScreenWriteOnly(b *testing.B) {
	for _, in := range benchInputs() {
		b.Run(in.name, func(b *testing.B) {
			s := benchScreen()
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			for b.Loop() {
				for p := in.data; len(p) > 0; {
					n := min(len(p), benchChunk)
					_, _ = s.Write(p[:n])
					p = p[n:]
				}
			}
		})
	}
}
