package screen

import (
	"bytes"
	"runtime"
	"testing"
)

// TestBlankScreenCostsLittle: a screen nothing was written to holds no emulator
// cells, so a thousand idle runs do not pay for a thousand cell grids.
func TestBlankScreenCostsLittle(t *testing.T) {
	const n, most = 50, 8 << 10
	keep := make([]*Screen, n)
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	for i := range keep {
		keep[i] = NewScreen(120, 40)
		keep[i].Resize(200, 50)
		_ = keep[i].State()
		_ = keep[i].Modes()
		_, _ = keep[i].Activity()
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	runtime.KeepAlive(keep)
	if per := (int64(m1.HeapAlloc) - int64(m0.HeapAlloc)) / n; per > most {
		t.Errorf("a blank 200×50 screen takes %d bytes of heap; want at most %d", per, most)
	}
}

// TestScreenPrintsLate: a screen first written after it was resized, read and
// queried is the one a screen written from the start of the same size shows:
// text, colours, tabs, cursor, modes and the answer to a query.
func TestScreenPrintsLate(t *testing.T) {
	late := NewScreen(120, 40)
	var lateReply bytes.Buffer
	late.SetReply(&lateReply)
	late.Resize(100, 30) // while blank
	late.Resize(90, 20)
	blank := late.Render()
	st := late.State()
	if st.CursorX != 0 || st.CursorY != 0 || !st.CursorVisible || st.AltScreen {
		t.Errorf("blank screen state %+v; want the cursor home and visible", st)
	}
	if want := NewScreen(90, 20).Render(); blank != want {
		t.Errorf("blank late screen renders %q; want %q", blank, want)
	}
	if c, r := late.Size(); c != 90 || r != 20 {
		t.Errorf("blank screen size %d×%d; want 90×20", c, r)
	}

	fresh := NewScreen(90, 20)
	var freshReply bytes.Buffer
	fresh.SetReply(&freshReply)
	out := []byte("late\tprint\x1b[1;31m red\x1b[0m\r\n\tx\x1b[6n\x1b[?1h\x1b[?2004h")
	for _, s := range []*Screen{late, fresh} {
		if _, err := s.Write(out); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := late.Render(), fresh.Render(); got != want {
		t.Errorf("late screen renders %q; want %q", got, want)
	}
	if got, want := late.Text(), fresh.Text(); got != want {
		t.Errorf("late screen text %q; want %q", got, want)
	}
	if got, want := late.State(), fresh.State(); got != want {
		t.Errorf("late screen state %+v; want %+v", got, want)
	}
	if got, want := lateReply.String(), freshReply.String(); got != want || got == "" {
		t.Errorf("late screen answered %q; want %q", got, want)
	}
	if late.Version() == 0 {
		t.Error("the first print did not move the version")
	}
}
