package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"corral/ui"
)

// End-to-end tests of the layout, the widths and removing a config run, on the real
// binary in tmux.

// leftColumn is the width of the UI's left column on a screen: where the run list's
// top right corner is on the first line (0: none).
func leftColumn(screen string) int {
	first, _, _ := strings.Cut(screen, "\n")
	i := strings.Index(first, "┐┌")
	if i < 0 {
		return 0
	}
	return len([]rune(first[:i])) + 1
}

// sizeWinch is a PTY program that prints its size at start and on every resize.
const sizeWinch = `bash --norc --noprofile -c 'trap "stty size" WINCH; stty size; while :; do sleep 0.2; done'`

// At 140×40 the terminal pane gets 96 of 140 columns (82 before); the layout key
// leaves the run list alone beside a full-height pane of 110 columns, and the PTY
// follows; the choice is in the state dir, so after a detach the next corral attach
// opens the same way; the key switches back.
func TestUILayoutRememberedAcrossAttach(t *testing.T) {
	state := serverState(t)
	x := startTmux(t, 140, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s -- %s", state, corralBin, sizeWinch))
	x.waitUntil("the terminal pane at 29 rows × 96 columns beside details", 20*time.Second, func(s string) bool {
		return sizeOf(s) == "29 96" && strings.Contains(s, "Details") && leftColumn(s) == 42
	})
	x.keys("l")
	x.waitUntil("the run list alone and a 37×110 pane", 20*time.Second, func(s string) bool {
		return sizeOf(s) == "37 110" && !strings.Contains(s, "Details") && !strings.Contains(s, "Events") &&
			leftColumn(s) == 28
	})
	b, err := os.ReadFile(filepath.Join(state, ui.PrefsFile))
	if err != nil || !strings.Contains(string(b), `"list"`) {
		t.Fatalf("prefs %q, %v", b, err)
	}
	x.keys("D")
	x.waitFor(`CORRAL-EXIT=0`, 20*time.Second)

	y := startTmux(t, 140, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s attach", state, corralBin))
	y.waitUntil("the run list alone again after attach", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "bash") && leftColumn(s) == 28 && !strings.Contains(s, "Details") &&
			sizeOf(s) == "37 110"
	})
	y.keys("l")
	y.waitUntil("details back, the pane at 29×96", 20*time.Second, func(s string) bool {
		return sizeOf(s) == "29 96" && strings.Contains(s, "Details") && leftColumn(s) == 42
	})
	y.keys("Q")
	y.answer(`1 live run\(s\) will be ended`, "y")
	y.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
	assertEnded(t, state, 1, "supervisor-shutdown")
}

// screenWords are the words of some lines of a screen, frame characters aside.
var screenWordRE = regexp.MustCompile(`[^\s│┌┐└┘─…]+`)

func screenWords(lines []string) map[string]bool {
	out := map[string]bool{}
	for _, l := range lines {
		for _, w := range screenWordRE.FindAllString(l, -1) {
			out[w] = true
		}
	}
	return out
}

// detailsLines are the lines inside the details pane of a screen (left column).
func detailsLines(screen string) []string {
	lw := leftColumn(screen)
	var out []string
	in := false
	for _, l := range strings.Split(screen, "\n") {
		r := []rune(l)
		if len(r) < lw {
			continue
		}
		left := string(r[:lw])
		switch {
		case strings.HasPrefix(left, "┌─Details"):
			in = true
		case in && strings.HasPrefix(left, "└"):
			return out
		case in:
			out = append(out, string(r[1:lw-1]))
		}
	}
	return out
}

// At 200 columns a long run name and its full reason are shown whole; at 80×24
// neither the details pane nor the help (two pages) cuts a word: every word they show
// is one they show at 200 columns.
func TestUIWidthsUsed(t *testing.T) {
	state, dir := t.TempDir(), t.TempDir()
	cfg := filepath.Join(dir, "corral.toml")
	toml := "[[run]]\nname = \"integration-tests-linux\"\ncmd = \"sleep 300\"\nno_output_timeout = \"1s\"\n"
	if err := os.WriteFile(cfg, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	x := startTmux(t, 200, 50, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s --local --config %s", state, corralBin, cfg))
	wide := x.waitFor(`integration-tests-linux\s+exited\s+no-output-timeout sig\d+`, 30*time.Second)
	// Settled: the watchdog's state comes with the next snapshot, after the exit event.
	wide = x.waitUntilSettled("the details of the ended run", 10*time.Second, func(s string) bool {
		d := strings.Join(detailsLines(s), "\n")
		return strings.Contains(d, "tree: ended") && strings.Contains(d, "fired") && strings.Contains(d, "verified")
	})
	wideDetails := screenWords(detailsLines(wide))
	x.keys("?")
	help := screenWords(strings.Split(x.waitSettled(`(?s)Help.*leave focus`, 10*time.Second), "\n")[1:])
	x.keys("Escape")

	x.run("resize-window", "-t", "t", "-x", "80", "-y", "24")
	narrow := x.waitUntilSettled("the 80-column layout", 10*time.Second, func(s string) bool {
		return leftColumn(s) == 26 && strings.Contains(strings.Join(detailsLines(s), "\n"), "owner") // the last fact
	})
	for w := range screenWords(detailsLines(narrow)) {
		if !wideDetails[w] {
			t.Errorf("details at 80×24 show %q, not a word of the details at 200:\n%s", w, narrow)
		}
	}
	x.keys("?")
	pages := x.waitSettled(`Help page 1/2`, 10*time.Second)
	x.keys("Down")
	pages += x.waitSettled(`Help page 2/2`, 10*time.Second)
	for _, l := range strings.Split(pages, "\n") {
		if strings.Contains(l, "Help page") {
			continue // the title, with the page number
		}
		for w := range screenWords([]string{l}) {
			if !help[w] && !strings.Contains(w, "CORRAL-EXIT") {
				t.Errorf("help at 80×24 shows %q, not a word of the help at 200:\n%s", w, pages)
			}
		}
	}
	x.keys("Escape")
	x.keys("q")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
	assertEnded(t, state, 1, "no-output-timeout")
}

// d on a config run that ended asks, and its row goes back to not started; R starts
// it again.
func TestUIRemoveConfigRunReturnsToNotStarted(t *testing.T) {
	state, dir := serverState(t), t.TempDir()
	cfg := filepath.Join(dir, "corral.toml")
	if err := os.WriteFile(cfg, []byte("[[run]]\nname = \"svc\"\ncmd = \"echo svc-up-$((6*7)) $$\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s --config %s", state, corralBin, cfg))
	first := x.waitFor(`svc\s+pipe\s+exited`, 20*time.Second)
	x.waitFor(`svc-up-42`, 10*time.Second)
	x.keys("d")
	x.answer(`listed as not started again`, "y")
	x.waitFor(`svc\s+pipe\s+not started`, 10*time.Second)
	x.waitFor(`Details svc \(not started\)`, 10*time.Second)
	x.keys("R")
	again := x.waitFor(`svc\s+pipe\s+exited`, 20*time.Second)
	if strings.Contains(again, "not started") {
		t.Errorf("the not-started row stayed after the start:\n%s", again)
	}
	x.waitFor(`svc-up-42`, 10*time.Second)
	// The removed run left the registry (corral remove's rule); the new one is there.
	removed := regexp.MustCompile(`Details svc (r[0-9a-f]+)`).FindStringSubmatch(first)
	if reps := registry(t, state); removed == nil || len(reps) != 1 || reps[0].RunID == removed[1] {
		t.Errorf("registry %+v, want the new run alone (screen before: %s)", reps, first)
	}
	x.keys("q")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
	assertNothingLeft(t, state)
}
