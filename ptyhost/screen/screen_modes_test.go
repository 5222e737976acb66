package screen

import (
	"math/rand/v2"
	"testing"
)

// lazyModeSeqs switch the input modes on and off, and reset them all (RIS).
var lazyModeSeqs = []string{"\x1b[?1h", "\x1b[?1l", "\x1b[?2004h", "\x1b[?2004l", "\x1b[?1;2004h", "\x1bc",
	"\x1b[?1000h", "\x1b[?1006h", "\x1b[?1003h", "\x1b[?1000l", "\x1b[?1006l"}

// TestModesWithoutCatchUp: Modes, which a key is encoded with at the run, is what an
// eager screen's State says after every read of random streams (text, colours,
// every kind of sequence and the mode switches, split anywhere), and reading it
// emulates nothing that is pending.
func TestModesWithoutCatchUp(t *testing.T) {
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 7))
		cols, rows := 20+rng.IntN(60), 3+rng.IntN(20)
		eager, lazy := newEager(cols, rows), NewScreen(cols, rows)
		fed := 0
		lazy.feedHook = func(p []byte) { fed += len(p) }
		var stream []byte
		for range 30 {
			stream = append(stream, lazyStream(rng, cols, rows)[:rng.IntN(2000)]...)
			stream = append(stream, lazyModeSeqs[rng.IntN(len(lazyModeSeqs))]...)
		}
		for at := 0; at < len(stream); {
			n := min(1+rng.IntN(64), len(stream)-at)
			eager.Write(stream[at : at+n])
			lazy.Write(stream[at : at+n])
			at += n
			before := fed
			got, want := lazy.Modes(), eager.State().Modes
			if got != want {
				t.Fatalf("seed %d at byte %d of %d: Modes() = %+v, an eager screen's %+v", seed, at, len(stream), got, want)
			}
			if fed != before {
				t.Fatalf("seed %d at byte %d: Modes() fed vt10x %d bytes", seed, at, fed-before)
			}
		}
	}
}
