package runs

import (
	"fmt"
	"strings"
	"testing"
)

// A PTY run's capture with its history has, before the screen, the lines that
// scrolled off it (as tmux's capture-pane -S - has them), up to scrollback_lines;
// without, the screen alone.
func TestCaptureWithHistory(t *testing.T) {
	d := testDefaults()
	d.ScrollbackLines = 500
	s := newSup(t, WithScreens(), WithDefaults(d))
	spec := childSpec(true, "flood", "60000") // 1,132 lines and a bit of one
	spec.Cols, spec.Rows = 80, 10
	id := spawn(t, s, spec)
	waitEnd(t, s, id)
	c, err := s.Capture(id, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if c.HistoryLines != 500 || len(c.Lines) != 510 {
		t.Fatalf("%d lines, %d of them history; want 500 of history and the 10 rows", len(c.Lines), c.HistoryLines)
	}
	var first int
	fmt.Sscanf(c.Lines[0], "%d", &first)
	for i, l := range c.Lines[:509] { // the history, then the screen but for the cut last line
		if want := fmt.Sprintf("%08d the quick brown fox", first+i); !strings.HasPrefix(l, want) {
			t.Fatalf("line %d is %q, want it to start %q", i, l, want)
		}
	}
	if first+509 != 1132 {
		t.Errorf("the history starts at line %d: not the last lines", first)
	}
	if screen, _ := s.Capture(id, false, false); len(screen.Lines) != 10 || screen.HistoryLines != 0 {
		t.Errorf("the capture without history: %d lines, %d of history", len(screen.Lines), screen.HistoryLines)
	}
}
