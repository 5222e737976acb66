package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"corral/demo"
	"corral/demo/testkit/eventually"
)

// Mouse, copy mode, scrollback and the events pane of the real binary in tmux.
// Mouse events are sent as the SGR sequences a terminal writes (send-keys -l),
// since a detached tmux has no pointer to click with.

// sgrMouse is the SGR report of button b at 0-based cell (x, y); release ends with m.
func sgrMouse(b, x, y int, release bool) string {
	final := "M"
	if release {
		final = "m"
	}
	return fmt.Sprintf("\x1b[<%d;%d;%d%s", b, x+1, y+1, final)
}

// writeConfig writes a corral.toml into a fresh directory and returns its path.
func writeConfig(t *testing.T, toml string) string {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "corral.toml")
	if err := os.WriteFile(cfg, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// With [ui] mouse = true: a click selects a run, the wheel over the terminal pane
// scrolls its transcript at the first notch, and copy mode puts the selected lines on
// the clipboard with Corral's OSC 52, which tmux (set-clipboard on) keeps as a paste
// buffer. The OSC 52 a hosted program printed never becomes one.
func TestUIMouseClickWheelCopy(t *testing.T) {
	state := t.TempDir()
	cfg := writeConfig(t, "[ui]\nmouse = true\n\n"+
		"[[run]]\nname = \"hostile\"\npty = true\n"+
		"cmd = \"printf '\\\\033]52;c;%s\\\\a' $(printf hosted-secret | base64); echo hostile-done\"\n\n"+
		"[[run]]\nname = \"lines\"\ncmd = \"for i in $(seq 1 200); do echo line-$i; done\"\n")
	// The option is set from inside the pane, before Corral starts, so the hosted
	// program's OSC 52 would have been taken had it reached tmux.
	x := startTmux(t, 120, 40, fmt.Sprintf("tmux set -g set-clipboard on; env CORRAL_STATE_DIR=%s %s --local --config %s",
		state, corralBin, cfg))
	x.waitFor(`(?s)hostile\s+pty\s+exited.*lines\s+pipe\s+exited`, 20*time.Second)

	// Click where the row is drawn, whatever the layout: the screen line showing it.
	row := slices.IndexFunc(strings.Split(x.screen(), "\n"), regexp.MustCompile(`│.*lines\s+pipe\s+exited`).MatchString)
	x.text(sgrMouse(0, 3, row, false) + sgrMouse(0, 3, row, true))
	x.waitFor(`Details lines`, 10*time.Second)

	x.text(sgrMouse(64, 110, 10, false)) // wheel up over the terminal pane (right of the list)
	screen := x.waitFor(`SCROLL.*lines \d+–\d+ of 200`, 10*time.Second)
	if strings.Contains(screen, "line-200") {
		t.Fatalf("the first wheel notch did not scroll:\n%s", screen)
	}

	x.keys("c")
	x.waitFor(`COPY`, 10*time.Second)
	x.keys("v")
	x.keys("k")
	x.keys("y")
	screen = x.waitFor(`copied 2 line\(s\)`, 10*time.Second)
	m := regexp.MustCompile(`OSC 52\): (line-\d+) ⏎ (line-\d+)`).FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("the status line does not say what was copied:\n%s", screen)
	}
	want := m[1] + "\n" + m[2]
	if a, _ := strconv.Atoi(strings.TrimPrefix(m[1], "line-")); m[2] != fmt.Sprintf("line-%d", a+1) {
		t.Errorf("copied %q, want two consecutive lines", want)
	}
	// The status line is drawn before tmux has taken the OSC 52 that follows it:
	// until then show-buffer answers "no buffers" and fails.
	eventually.Value(t, 10*time.Second, fmt.Sprintf("the tmux buffer to be %q", want), func() (string, bool) {
		buf, err := x.command("show-buffer").CombinedOutput()
		return string(buf), err == nil && string(buf) == want
	})
	if all := x.run("list-buffers", "-F", "#{buffer_sample}"); strings.Contains(all, "hosted-secret") {
		t.Errorf("the hosted program's OSC 52 reached the host: buffers %q", all)
	}

	x.keys("Escape")
	x.waitFor(`Runs 2`, 10*time.Second)
	x.keys("q")
	// hostile was never selected by the user: whether its end counts as looked at
	// depends on what was selected when its end and its output were taken, so the quit
	// may ask about it first.
	if strings.Contains(x.waitFor(`CORRAL-EXIT=0|Quit\? y/Y`, 30*time.Second), "Quit? y/Y") {
		x.keys("y")
	}
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
	assertNothingLeft(t, state)
}

// Scrollback keeps the run's colours (capture-pane -e), the first PgUp scrolls a page,
// the transcript opens in $PAGER and comes back, and the events pane scrolls with a
// position in its title.
func TestUIScrollbackColourPagerEvents(t *testing.T) {
	state := t.TempDir()
	toml := "[[run]]\nname = \"colour\"\npty = true\n" +
		"cmd = \"for i in $(seq 1 120); do printf '\\\\033[31mred-%03d\\\\033[0m plain\\\\n' $i; done; sleep 600\"\n"
	for i := range 4 {
		toml += fmt.Sprintf("\n[[run]]\nname = \"quick%d\"\ncmd = \"true\"\n", i)
	}
	x := startTmux(t, 120, 40, fmt.Sprintf("env PAGER='less -R' CORRAL_STATE_DIR=%s %s --local --config %s",
		state, corralBin, writeConfig(t, toml)))
	x.waitFor(`(?s)colour\s+pty\s+running.*quick3\s+pipe\s+exited.*red-120`, 20*time.Second)

	for range 3 { // each reconcile adds a line per open record: more than the pane holds
		x.keys("r")
	}
	x.waitFor(`Events \d+–\d+/\d+`, 10*time.Second)
	x.keys("[")
	x.waitFor(`Events ↑\d+–\d+/\d+`, 10*time.Second)
	x.keys("]")
	x.waitFor(`Events \d+–\d+/\d+`, 10*time.Second)

	x.keys("PPage")
	screen := x.waitFor(`SCROLL.*lines \d+–\d+ of \d+`, 10*time.Second)
	m := regexp.MustCompile(`red-(\d{3})`).FindAllStringSubmatch(screen, -1)
	if len(m) == 0 || m[len(m)-1][1] >= "100" {
		t.Fatalf("the first PgUp did not scroll a page up from red-120:\n%s", screen)
	}
	styled := x.run("capture-pane", "-p", "-e", "-t", "t")
	if !regexp.MustCompile(`\x1b\[31mred-\d{3}\x1b\[(0|39)?m plain`).MatchString(styled) {
		t.Errorf("scrollback lost its colour:\n%q", styled)
	}

	x.keys("o")
	x.waitUntil("the pager", 10*time.Second, func(s string) bool {
		return strings.HasPrefix(s, "red-001 plain") && !strings.Contains(s, "SCROLL")
	})
	x.keys("q")
	x.waitFor(`SCROLL`, 10*time.Second)

	x.keys("Escape")
	x.keys("q")
	x.answer(`1 live run\(s\) will be ended`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 60*time.Second)
	assertNothingLeft(t, state)
}

// A shell in the UI: focus it and type a command, interrupt it with send-keys C-c,
// resize the terminal and see the child's stty size follow, cancel it, quit.
func TestUIShellSession(t *testing.T) {
	state := serverState(t)
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s PS1='$ ' %s -- bash --norc --noprofile",
		state, corralBin))
	x.waitFor(`bash\s+pty\s+running`, 20*time.Second)

	x.keys("Enter") // focus
	x.waitFor(`FOCUS`, 10*time.Second)
	x.text("echo hi-$((6*7))")
	x.keys("Enter")
	x.waitFor(`(?m)^.*hi-42`, 10*time.Second)

	x.text("stty size")
	x.keys("Enter")
	before := x.waitFor(sttyRE.String(), 10*time.Second)
	x.run("resize-window", "-t", "t", "-x", "100", "-y", "30")
	x.text("clear; stty size")
	x.keys("Enter")
	x.waitUntil("stty size to follow the resize from "+sizeOf(before), 10*time.Second, func(s string) bool {
		after := sizeOf(s)
		return after != "" && after != sizeOf(before)
	})

	x.text("sleep 1000")
	x.keys("Enter")
	x.keys("C-]") // leave focus
	x.keys("s")
	x.text("C-c")
	x.keys("Enter")
	x.keys("s")
	x.text(`"echo back-$((2+3))" Enter`)
	x.keys("Enter")
	x.waitFor(`back-5`, 10*time.Second) // the sleep was interrupted: the shell answers again

	x.keys("x")
	x.answer(`(?i)cancel.*\?`, "y")
	x.waitFor(`bash\s+(pty\s+)?exited.*cancel`, 20*time.Second) // a 100-column list drops the kind
	x.keys("q")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
	assertNothingLeft(t, state)
}

// sttyRE finds stty's "rows cols" at the left edge of the terminal pane.
var sttyRE = regexp.MustCompile(`│(\d+ \d+) +│`)

// sizeOf is the last "rows cols" line on a screen.
func sizeOf(screen string) string {
	m := sttyRE.FindAllStringSubmatch(screen, -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

// Two runs; quitting with them live asks first, then ends both, leaving nothing: q in
// a UI that runs them itself (--local), the shutdown key (Q) in one attached to the
// server, where q would detach.
func TestUIQuitWithLiveRuns(t *testing.T) {
	t.Run("local", func(t *testing.T) { testQuitWithLiveRuns(t, "--local", "q") })
	t.Run("server", func(t *testing.T) { testQuitWithLiveRuns(t, "", "Q") })
}

func testQuitWithLiveRuns(t *testing.T, flag, quit string) {
	state := serverState(t)
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s %s -- env CORRAL_CHILD=1 %s sleep",
		state, corralBin, flag, corralBin))
	x.waitFor(`running`, 20*time.Second)
	x.keys("n") // a second run, from the new-run form
	x.waitFor(`(?i)new run`, 10*time.Second)
	x.text("sleep 1000")
	x.keys("Enter")
	x.waitFor(`(?s)running.*running`, 20*time.Second)
	// The terminal's title says how many runs are live (OSC 2, which tmux keeps as the
	// pane title).
	eventually.Value(t, 10*time.Second, `the pane title "corral · 2 live"`, func() (string, bool) {
		title := strings.TrimSpace(x.run("display", "-p", "-t", "t", "#{pane_title}"))
		return title, title == "corral · 2 live"
	})
	x.keys(quit)
	x.answer(`2 live run\(s\) will be ended`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 60*time.Second)
	assertEnded(t, state, 2, "supervisor-shutdown")
}

// A [[run]] with autostart = false is listed as not started, is not in the registry,
// and starts on R; it is then a run like any other, and the events pane counts both.
func TestUIPendingRunStartsOnKey(t *testing.T) {
	state, dir := serverState(t), t.TempDir()
	cfg := filepath.Join(dir, "corral.toml")
	toml := "[[run]]\nname = \"first\"\ncmd = \"echo first-up\"\n\n" +
		"[[run]]\nname = \"later\"\ncmd = \"echo started-$((6*7))\"\nautostart = false\n"
	if err := os.WriteFile(cfg, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s --config %s", state, corralBin, cfg))
	x.waitFor(`(?s)first\s+pipe\s+exited.*later\s+pipe\s+not started`, 20*time.Second)
	if reps := registry(t, state); len(reps) != 1 || reps[0].Name != "first" {
		t.Fatalf("registry %+v, want only the autostart run", reps)
	}
	x.keys("j")
	x.waitFor(`Details later \(not started\)`, 10*time.Second)
	x.keys("R")
	x.waitFor(`started-42`, 20*time.Second)
	screen := x.waitFor(`later\s+pipe\s+exited`, 20*time.Second)
	if strings.Contains(screen, "not started") {
		t.Errorf("the pending row stayed after the start:\n%s", screen)
	}
	x.waitFor(`Events( [0-9–/]+)? · spawned 2 · escape events 0 `, 10*time.Second) // the supervisor's counters
	x.keys("q")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
	assertEnded(t, state, 2, "exit")
}

// corral demo --autoplay runs to the end in tmux; every scenario run reaches its
// expected reason (read back from the demo's registry), and nothing is left.
func TestDemoAutoplay(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo takes about a minute")
	}
	state := t.TempDir()
	x := startTmux(t, 140, 45, fmt.Sprintf("%s demo --autoplay --state-dir %s", corralBin, state))
	screen := x.waitFor(`CORRAL-EXIT=\d+`, 4*time.Minute)
	if !strings.Contains(screen, "CORRAL-EXIT=0") {
		t.Fatalf("autoplay failed:\n%s", screen)
	}
	want := map[string]string{"build": "exit", "silent-job": "no-output-timeout", "deadline": "overall-timeout",
		"wrapper": "manual-cancel", "stubborn": "overall-timeout", "daemonizer": "ownership-escape",
		"failing": "exit", "agent": "supervisor-shutdown"}
	for _, r := range registry(t, state) {
		if want[r.Name] != r.Reason {
			t.Errorf("%s ended %s, want %s", r.Name, r.Reason, want[r.Name])
		}
	}
	assertNothingLeft(t, state)
}

// An app that asked for focus reports (DEC 1004, as codex does) hears focus-in while
// its run is the one shown and focus-out when the user moves to another.
func TestUIFocusReportsReachTheApp(t *testing.T) {
	state := t.TempDir()
	keys := strings.Join(child("keys", "focus")[3:], `", "`)
	cfg := writeConfig(t, fmt.Sprintf("[[run]]\nname = \"app\"\npty = true\nargv = [\"%s\"]\nenv = { %s = \"1\" }\n\n"+
		"[[run]]\nname = \"other\"\ncmd = \"sleep 300\"\n", keys, demo.ChildEnv))
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s --local --config %s", state, corralBin, cfg))
	x.waitFor(`got 1b5b49`, 20*time.Second) // shown: focus-in
	x.keys("j")
	x.waitFor(`Details other`, 10*time.Second)
	x.keys("k")
	// Out when left, in again. The app may hear an out first, before the UI showed it
	// (a new run is looked at by nobody): the wait starts from an in.
	screen := x.waitFor(`(?s)got 1b5b49.*got 1b5b4f.*got 1b5b49\s*│`, 10*time.Second)
	if strings.Count(screen, "got 1b5b49") < 2 {
		t.Errorf("focus-in once only:\n%s", screen)
	}
	x.keys("q")
	x.answer(`2 live run\(s\) will be ended`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 60*time.Second)
}
