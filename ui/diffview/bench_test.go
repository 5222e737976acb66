package diffview

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"corral/runs/workspace"
)

// bigDiff is a diff of n lines: files of 100 lines, two hunks each, lines of
// code-like width (some with tabs).
func bigDiff(n int) []byte {
	var b strings.Builder
	for f := 0; b.Len() == 0 || strings.Count(b.String(), "\n") < n; f++ {
		fmt.Fprintf(&b, "diff --git a/pkg/file%04d.go b/pkg/file%04d.go\nindex 1234567..89abcde 100644\n--- a/pkg/file%04d.go\n+++ b/pkg/file%04d.go\n", f, f, f, f)
		for h := range 2 {
			fmt.Fprintf(&b, "@@ -%d,46 +%d,46 @@ func handler%d(w http.ResponseWriter, r *http.Request) {\n", h*100+1, h*100+1, h)
			for i := range 47 {
				switch i % 6 {
				case 2:
					fmt.Fprintf(&b, "-\tif err := store.Save(ctx, record%d); err != nil { return fmt.Errorf(\"save: %%w\", err) }\n", i)
				case 3:
					fmt.Fprintf(&b, "+\tif err := store.SaveAll(ctx, records[%d:]); err != nil { return fmt.Errorf(\"save all: %%w\", err) }\n", i)
				default:
					fmt.Fprintf(&b, " \tvalue%d := compute(input, %d) // a context line of ordinary width\n", i, i)
				}
			}
		}
	}
	lines := strings.SplitAfter(b.String(), "\n")
	return []byte(strings.Join(lines[:n], ""))
}

func TestBigDiffFirstScreen(t *testing.T) {
	text := bigDiff(50000)
	start := time.Now()
	m := newView(200, 50)
	gen := m.Open("agent", testWT)
	m, _ = m.Update(m.Load(gen, text, workspace.Stat{}, testWT)())
	v := m.View()
	took := time.Since(start)
	if m.doc.Len() != 50000 || !strings.Contains(v, "line 1/50000") {
		t.Fatalf("%d lines; bar %q", m.doc.Len(), plainLines(m)[0])
	}
	// Its time is BenchmarkFirstScreen's to judge (budget 100 ms), not a test's.
	t.Logf("first screen of a 50,000-line diff (%d bytes): %v", len(text), took)
}

// BenchmarkFirstScreen: from the diff's bytes in hand to the first View with content,
// 50,000 lines (the budget: 100 ms).
func BenchmarkFirstScreen(b *testing.B) {
	text := bigDiff(50000)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		m := newView(200, 50)
		gen := m.Open("agent", testWT)
		m, _ = m.Update(m.Load(gen, text, workspace.Stat{}, testWT)())
		_ = m.View()
	}
}

// BenchmarkScrollFrame: one key (a line down) and the View it draws, in the middle of a
// 50,000-line diff, searching (matches marked).
func BenchmarkScrollFrame(b *testing.B) {
	for _, c := range []struct {
		name  string
		query string
	}{{"plain", ""}, {"search", "save"}} {
		b.Run(c.name, func(b *testing.B) {
			m := loaded(b, string(bigDiff(50000)), 200, 50)
			m.query = c.query
			m.find(false)
			m.top = 25000
			down, up := keyMsg("j"), keyMsg("k")
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				k := down
				if i++; i%2 == 0 {
					k = up
				}
				m, _ = m.Update(k)
				_ = m.View()
			}
		})
	}
}

// BenchmarkScrollFrameSmall is the same frame on a 100-line diff: a frame must cost
// the same whatever the diff's length.
func BenchmarkScrollFrameSmall(b *testing.B) {
	m := loaded(b, string(bigDiff(100)), 200, 50)
	m.top = 25
	down, up := keyMsg("j"), keyMsg("k")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := down
		if i++; i%2 == 0 {
			k = up
		}
		m, _ = m.Update(k)
		_ = m.View()
	}
}

// BenchmarkSearch: a search typed and accepted over 50,000 lines.
func BenchmarkSearch(b *testing.B) {
	m := loaded(b, string(bigDiff(50000)), 200, 50)
	b.ReportAllocs()
	for b.Loop() {
		m.query = "saveall"
		m.find(true)
	}
}

// A frame's allocations do not grow with the diff: a line down and its View allocate
// about as much on 50,000 lines as on 100 (only the window is drawn).
func TestFrameCostDoesNotGrowWithTheDiff(t *testing.T) {
	frame := func(lines int) float64 {
		m := loaded(t, string(bigDiff(lines)), 200, 50)
		m.top = lines / 2
		m.clamp()
		down, up := keyMsg("j"), keyMsg("k")
		i := 0
		return testing.AllocsPerRun(50, func() {
			k := down
			if i++; i%2 == 0 {
				k = up
			}
			m, _ = m.Update(k)
			_ = m.View()
		})
	}
	small, big := frame(100), frame(50000)
	if big > small*1.2+10 {
		t.Errorf("a frame allocates %.0f times on 50,000 lines against %.0f on 100", big, small)
	}
}
