package screen_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"corral/ptyhost/screen"
)

// scrollbackLimit is the history-limit record.sh gives tmux (HL): above the lines
// any stream scrolls off, so that neither drops any.
const scrollbackLimit = 10000

// TestScrollbackFidelity replays each scrollback stream (testdata/scrollback: 3,000
// lines of coloured output, CR progress bars, and the agent-state corpus's Claude
// Code, Gemini and codex sessions) into a Screen at the size record.sh captured it
// at, in PTY-sized reads with a look at the screen now and then as a UI's frames
// make, and compares its Scrollback, history then screen, line for line and cell
// for cell with tmux's capture-pane -S - of the same bytes.
func TestScrollbackFidelity(t *testing.T) {
	captures, err := filepath.Glob(filepath.Join("testdata", "scrollback", "*.tmux"))
	if err != nil || len(captures) == 0 {
		t.Fatalf("no captures in testdata/scrollback (%v)", err)
	}
	for _, capture := range captures {
		name, cols, rows := scrollbackCase(t, capture)
		t.Run(fmt.Sprintf("%s-%dx%d", name, cols, rows), func(t *testing.T) {
			want, err := os.ReadFile(capture)
			if err != nil {
				t.Fatal(err)
			}
			s := screen.NewScreen(cols, rows)
			s.SetHistoryLimit(scrollbackLimit)
			stream := scrollbackStream(t, name)
			for i, p := 0, stream; len(p) > 0; i++ {
				n := min(len(p), 4095)
				s.Write(p[:n])
				p = p[n:]
				if i%8 == 7 {
					s.Render()
				}
			}
			if diffs := diffLines(t, s.Scrollback(), string(want), cols); len(diffs) > 0 {
				t.Errorf("%s's scrollback differs from tmux's in %d cells:\n%s", name, len(diffs), strings.Join(diffs[:min(len(diffs), 40)], "\n"))
			}
		})
	}
}

var scrollbackName = regexp.MustCompile(`^(.+)-(\d+)x(\d+)\.tmux$`)

// scrollbackCase reads NAME-COLSxROWS.tmux.
func scrollbackCase(t *testing.T, capture string) (string, int, int) {
	m := scrollbackName.FindStringSubmatch(filepath.Base(capture))
	if m == nil {
		t.Fatalf("%s is not NAME-COLSxROWS.tmux", capture)
	}
	cols, _ := strconv.Atoi(m[2])
	rows, _ := strconv.Atoi(m[3])
	return m[1], cols, rows
}

// scrollbackStream is testdata/scrollback/NAME.raw, or else the byte stream of the
// corpus recording NAME.cast (asciicast v2: its output events' data in order).
func scrollbackStream(t *testing.T, name string) []byte {
	if b, err := os.ReadFile(filepath.Join("testdata", "scrollback", name+".raw")); err == nil {
		return b
	}
	f, err := os.Open(filepath.Join("..", "..", "runs", "agentstate", "testdata", "corpus", name+".cast"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ev []any
		if json.Unmarshal(sc.Bytes(), &ev) != nil || len(ev) != 3 || ev[1] != "o" {
			continue // the header, or a resize
		}
		data, _ := ev[2].(string)
		out.WriteString(data)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// diffLines compares a Scrollback with a capture cell by cell, as TestFidelity
// compares screens; lines that one has and the other lacks differ whole.
func diffLines(t *testing.T, got []string, capture string, cols int) []string {
	t.Helper()
	want := strings.Split(strings.TrimSuffix(capture, "\n"), "\n")
	n := max(len(got), len(want))
	g, err := parseCells(strings.Join(got, "\n"), cols, n)
	if err != nil {
		t.Fatalf("Scrollback: %v", err)
	}
	w, err := parseCells(capture, cols, n)
	if err != nil {
		t.Fatalf("tmux's capture: %v", err)
	}
	diffs := diffCells(g, w)
	if len(got) != len(want) {
		diffs = append([]string{fmt.Sprintf("%d lines, tmux %d", len(got), len(want))}, diffs...)
	}
	return diffs
}
