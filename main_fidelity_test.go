package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/tmuxcap"
)

// What package screen's TestFidelity checks for the Screen alone, end to
// end. A recorded program stream is replayed in a Corral pane (zoomed, in a private
// tmux), and the cells the outer tmux shows in the pane are compared, text and
// attributes, with the committed capture of a bare tmux pane fed the same bytes
// (ptyhost/screen/testdata/fidelity/NAME.tmux), so that nothing between the Screen and the
// terminal (the pane's frame, Lip Gloss, Bubble Tea's renderer) undoes what the
// Screen got right.
func TestReplayMatchesBareTmux(t *testing.T) {
	for _, name := range []string{"probe", "edges", "bce", "attrs"} {
		t.Run(name, func(t *testing.T) { replayMatchesBare(t, name) })
	}
}

const fidCols, fidRows = 80, 24 // the size record.sh records at

func replayMatchesBare(t *testing.T, name string) {
	dir := filepath.Join("ptyhost", "screen", "testdata", "fidelity")
	raw, err := os.ReadFile(filepath.Join(dir, name+".raw"))
	if err != nil {
		t.Fatal(err)
	}
	bare, err := os.ReadFile(filepath.Join(dir, name+".tmux"))
	if err != nil {
		t.Fatal(err)
	}
	cast := writeCast(t, raw)
	// A pane wider and taller than the recording: the replay keeps 80×24 and the
	// frame pads every line to the pane, which is where widths must agree.
	const w, h = 100, 30
	// TERM and COLORTERM as record.sh recorded with: truecolour reaches the outer
	// tmux as such (Bubble Tea maps it to the 256-colour palette on "screen").
	x := startTmux(t, w, h, fmt.Sprintf("env TERM=xterm-256color COLORTERM=truecolor CORRAL_STATE_DIR=%s %s replay --speed 100 %s",
		t.TempDir(), corralBin, cast))
	x.waitFor(`replay stream\.cast`, 20*time.Second)
	x.keys("z")
	x.waitUntil("the whole replay, zoomed", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "[zoom]") && strings.Contains(s, "· end of recording") // the title's progress
	})
	outer := parseCapture(t, x.run("capture-pane", "-p", "-e", "-t", "t"), h, w)
	want := parseCapture(t, string(bare), fidRows, fidCols)
	for y := range fidRows {
		line := outer[1+y] // line 0 is the pane's top edge
		if len(line) != w || line[0].Text != "│" || line[w-1].Text != "│" || rowString(line[1:w-1]) != rowString(line[1:1+fidCols]) {
			t.Errorf("row %d: the pane's frame is broken (%d cells):\n|%s|", y+1, len(line), rowString(line))
			continue
		}
		got := line[1 : 1+fidCols]
		for i := range fidCols {
			if g, wt := drawable(got[i]), drawable(want[y][i]); !tmuxcap.Same(g, wt) {
				t.Errorf("row %d col %d: Corral pane %v, bare tmux %v\n  pane |%s|\n  bare |%s|",
					y+1, i+1, g.Visible(), wt.Visible(), rowString(got), rowString(want[y]))
				break
			}
		}
	}
	x.keys("q")
	x.answer(`(?i)quit.*\?`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
}

// writeCast wraps a raw stream in an asciicast v2 recording of one output event.
func writeCast(t *testing.T, raw []byte) string {
	t.Helper()
	ev, err := json.Marshal([]any{0.0, "o", string(raw)})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "stream.cast")
	body := fmt.Sprintf("{\"version\": 2, \"width\": %d, \"height\": %d}\n%s\n", fidCols, fidRows, ev)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// parseCapture reads a whole capture of a rows-line screen into rows of at least
// cols cells (more when a line is wider: a broken frame).
func parseCapture(t *testing.T, capture string, rows, cols int) [][]tmuxcap.Cell {
	t.Helper()
	grid, err := tmuxcap.Parse(capture, cols, rows)
	if err != nil {
		t.Fatal(err)
	}
	return grid
}

// drawable is c without overline: Bubble Tea's cell model (ultraviolet's Style) has
// none, so a Corral pane cannot draw it; the Screen keeps it (package screen's
// TestFidelity).
func drawable(c tmuxcap.Cell) tmuxcap.Cell {
	c.Attr &^= tmuxcap.Overline
	return c
}

func rowString(row []tmuxcap.Cell) string { return strings.TrimRight(tmuxcap.Text(row), " ") }
