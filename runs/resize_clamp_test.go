package runs

import (
	"strings"
	"testing"
)

// A resize past what a terminal can be is clamped, for the run's screen, its Info
// and the PTY the child reads its size from; and a spec asking for such a size
// starts clamped. Before: 65535×65535 was taken, ~90 MB held per run.
func TestResizeClamped(t *testing.T) {
	s := newSup(t, WithScreens())
	id := spawn(t, s, Spec{Shell: "sleep 30", PTY: true, Cols: 65535, Rows: 9000})
	defer s.Cancel(id)
	check := func(when string, cols, rows uint16) {
		t.Helper()
		info, _ := s.Info(id)
		sc, err := s.Screen(id)
		if err != nil {
			t.Fatal(err)
		}
		c, r := sc.Size()
		if info.Cols != cols || info.Rows != rows || c != int(cols) || r != int(rows) {
			t.Errorf("%s: info %dx%d, screen %dx%d; want %dx%d", when, info.Cols, info.Rows, c, r, cols, rows)
		}
	}
	check("spawned at 65535x9000", 1000, 500)
	if err := s.Resize(id, 80, 24); err != nil {
		t.Fatal(err)
	}
	check("resized to 80x24", 80, 24)
	if err := s.Resize(id, 65535, 65535); err != nil {
		t.Fatal(err)
	}
	check("resized to 65535x65535", 1000, 500)
	_, p, err := s.live(id)
	if err != nil {
		t.Fatal(err)
	}
	if c, rows := p.Size(); c != 1000 || rows != 500 {
		t.Errorf("the PTY is %dx%d, want 1000x500", c, rows)
	}
	if err := s.ResizeFor(id, "viewer", 60000, 60000); err != nil {
		t.Fatal(err)
	}
	check("a viewer's 60000x60000", 1000, 500)
}

// A run that ends with a big screen (resized to the clamp, 1000×500) gives its cells
// back: its screen is kept at what it holds, its text whole; before, the 1000×500
// screen was kept until the run was removed. Its Info keeps the size it ran at.
func TestEndedBigScreenCompacted(t *testing.T) {
	s := newSup(t, WithScreens())
	id := spawn(t, s, Spec{Shell: "read x; printf 'big-screen-end'", PTY: true, Cols: 80, Rows: 24})
	if err := s.Resize(id, 65535, 65535); err != nil {
		t.Fatal(err)
	}
	sc, err := s.Screen(id)
	if err != nil {
		t.Fatal(err)
	}
	if c, r := sc.Size(); c != 1000 || r != 500 {
		t.Fatalf("screen %dx%d before the end, want 1000x500", c, r)
	}
	if err := s.Write(id, []byte("go\n")); err != nil {
		t.Fatal(err)
	}
	info := waitEnd(t, s, id)
	c, r := sc.Size()
	if c*r >= bigScreen || c < len("big-screen-end") || !strings.Contains(sc.Text(), "big-screen-end") {
		t.Errorf("the ended run's screen is %dx%d, text %q", c, r, strings.TrimSpace(sc.Text()))
	}
	if info.Cols != 1000 || info.Rows != 500 {
		t.Errorf("the ended run's info says %dx%d, want the size it ran at, 1000x500", info.Cols, info.Rows)
	}
	t.Logf("the ended run's screen: %dx%d", c, r)
}
