package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// A run the UI opens with starts at its pane's size: the recording's header is the
// size the program saw when it started (it prints it), and no resize follows before
// its output (the header said 120×40, then the first event resized).
func TestCastHeaderIsTheStartSize(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	x := startTmux(t, 150, 45, fmt.Sprintf("%s --local --state-dir %s -- sh -c 'echo size=$(stty size)'", corralBin, state))
	x.waitFor(`size=\d+ \d+`, 20*time.Second)
	casts, _ := filepath.Glob(filepath.Join(state, "logs", "*.cast"))
	if len(casts) != 1 {
		t.Fatalf("recordings %v, want one", casts)
	}
	var cols, rows int
	var events []string
	// The recording reaches the file when the run ends.
	eventually.Value(t, 20*time.Second, "a size in the recording", func() ([]string, bool) {
		f, err := os.Open(casts[0])
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		var h struct{ Width, Height int }
		if sc.Scan() && json.Unmarshal(sc.Bytes(), &h) == nil {
			events = events[:0]
			for sc.Scan() {
				events = append(events, sc.Text())
			}
			for _, e := range events {
				i := strings.Index(e, "size=")
				if i < 0 {
					continue
				}
				if n, _ := fmt.Sscanf(e[i+5:], "%d %d", &rows, &cols); n == 2 && (cols != h.Width || rows != h.Height) {
					t.Fatalf("header %d×%d, the program started at %d×%d", h.Width, h.Height, cols, rows)
				}
			}
		}
		f.Close()
		return events, cols != 0
	})
	for _, e := range events {
		if strings.Contains(e, `"r"`) {
			t.Errorf("a resize in the recording of a run started at its pane's size: %s", e)
		}
	}
	if cols == 120 && rows == 40 {
		t.Errorf("started at the default 120×40 in a 150×45 terminal")
	}
}

// corral replay: the status line says what the player's keys do, the pane's title
// shows the progress, and the keys work outside focus: paused at the start, 10 s on
// three times reaches the middle, End the end, Home the start again on a reset screen,
// space plays on. Paused, the position is exact, whatever the machine's load.
func TestReplaySeekAndProgress(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "long.cast")
	os.WriteFile(rec, []byte(`{"version": 2, "width": 50, "height": 10}
[0.0, "o", "alpha-start\r\n"]
[30.0, "o", "bravo-middle\r\n"]
[60.0, "o", "charlie-end\r\n"]
`), 0o600)
	x := startTmux(t, 160, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s replay %s", t.TempDir(), corralBin, rec))
	x.waitUntil("the start, its progress and the hints", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "alpha-start") && strings.Contains(s, "/ 1:00") &&
			strings.Contains(s, "→ on 10 s") && strings.Contains(s, "space pause/resume")
	})
	x.keys("Space")
	x.waitFor(`/ 1:00 · paused`, 20*time.Second)
	x.keys("Home")
	x.waitFor(`0:00 / 1:00 · paused`, 20*time.Second)
	x.keys("Right")
	x.keys("Right")
	x.keys("Right")
	x.waitUntil("the middle after 3 × 10 s", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "0:30 / 1:00 · paused") && strings.Contains(s, "bravo-middle") &&
			!strings.Contains(s, "charlie-end")
	})
	x.keys("End")
	x.waitUntil("the end", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "1:00 / 1:00 · end of recording") && strings.Contains(s, "charlie-end")
	})
	x.keys("Home")
	x.waitUntil("the start again, on a reset screen", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "alpha-start") && !strings.Contains(s, "bravo-middle") &&
			!strings.Contains(s, "charlie-end") && strings.Contains(s, "0:00 / 1:00 · paused")
	})
	x.keys("Space")
	x.waitUntil("playing again", 20*time.Second, func(s string) bool {
		return regexp.MustCompile(`0:0\d / 1:00`).MatchString(s) && !strings.Contains(s, "paused")
	})
	x.keys("q")
	x.answer(`(?i)quit.*\?`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
}

// A PTY run's recording plays back inside a Corral pane.
func TestReplayRecording(t *testing.T) {
	state := t.TempDir()
	rec := corral(t, "run", "--pty", "--state-dir", state, "--shell", "--", "printf 'hello \\033[32mreplay\\033[0m\\n'")
	if r := run(t, rec); r.code != 0 {
		t.Fatalf("record: exit %d %s", r.code, r.stderr)
	}
	casts, _ := filepath.Glob(filepath.Join(state, "logs", "*.cast"))
	if len(casts) != 1 {
		t.Fatalf("recordings %v, want one", casts)
	}
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s replay --speed 4 %s", t.TempDir(), corralBin, casts[0]))
	x.waitFor(`hello replay`, 20*time.Second)
	x.waitFor(`end of recording`, 20*time.Second)
	x.keys("q")
	x.answer(`(?i)quit.*\?`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
	if r := run(t, corral(t, "replay", filepath.Join(state, "nope.cast"))); r.code != 2 {
		t.Errorf("a missing recording: exit %d, want 2", r.code)
	}

	// A recording that was resized plays at its sizes, whatever the pane's: 40×10, then
	// 60×12, where 60 #s fill one line.
	resized := filepath.Join(t.TempDir(), "resized.cast")
	os.WriteFile(resized, []byte(`{"version": 2, "width": 40, "height": 10}
[0.0, "o", "before\r\n"]
[0.05, "r", "60x12"]
[0.1, "o", "`+strings.Repeat("#", 60)+`after"]
`), 0o600)
	x = startTmux(t, 160, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s replay %s", t.TempDir(), corralBin, resized))
	full := regexp.MustCompile(`│#{60} +│`) // 60 #s and the line's end: no wrap at 40
	x.waitUntil("the replay at 60×12", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "· 60×12") && full.MatchString(s) && strings.Contains(s, "│after")
	})
	x.keys("q")
	x.answer(`(?i)quit.*\?`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
}
