package screen

import (
	"runtime"
	"strings"
	"testing"
)

// An ended run's big screen compacts to what it holds: a screen resized to the
// largest a terminal can be, with a few lines written, keeps its rows down to the
// cursor's and its columns out to the widest line (a wide character at its end
// whole); its text, its cursor and what a
// renderer showing the cursor's part would show are the same; and the emulator's
// cells of 1000×500 (about 16 MB) are given back.
func TestScreenCompactKeepsWhatItShows(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	before := heap()
	s := NewScreen(80, 24)
	s.Resize(MaxCols, MaxRows)
	s.Write([]byte("first line\r\n\x1b[41m  red  \x1b[m\r\n\x1b[8;60Hfar out\x1b[10;70Hwide 中\x1b[12;5H"))
	big := heap()
	text, render, st := trimmed(s.Text()), trimmed(s.Render()), s.State()
	fc, fr, c, r := s.Compact()
	if fc != MaxCols || fr != MaxRows || c != 76 || r != 12 {
		t.Errorf("compacted %dx%d to %dx%d, want %dx%d to 76x12", fc, fr, c, r, MaxCols, MaxRows)
	}
	if sc, sr := s.Size(); sc != c || sr != r {
		t.Errorf("size %dx%d after compacting to %dx%d", sc, sr, c, r)
	}
	if got := trimmed(s.Text()); got != text {
		t.Errorf("text after compacting:\n%q\nwant\n%q", got, text)
	}
	if got := trimmed(s.Render()); got != render {
		t.Errorf("render after compacting:\n%q\nwant\n%q", got, render)
	}
	if got := s.State(); got.CursorX != st.CursorX || got.CursorY != st.CursorY || st.CursorX != 4 || st.CursorY != 11 {
		t.Errorf("cursor at %d,%d after compacting, %d,%d before (want 4,11)", got.CursorX, got.CursorY, st.CursorX, st.CursorY)
	}
	after := heap()
	t.Logf("heap in use: %.1f MB before the screen, %.1f MB at 1000x500, %.1f MB compacted", mb(before), mb(big), mb(after))
	if big < before+10<<20 || after > before+2<<20 {
		t.Errorf("heap in use %.1f MB before, %.1f MB at 1000x500, %.1f MB compacted: not given back", mb(before), mb(big), mb(after))
	}
	runtime.KeepAlive(s)
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }

// trimmed is a screen's text without the blanks at the end of its lines and the
// blank lines at its end: what Compact may cut.
func trimmed(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}
