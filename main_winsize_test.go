package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo"
	"corral/demo/testkit"
)

// size is a terminal size read off a screen.
type size struct{ cols, rows int }

func (s size) String() string { return fmt.Sprintf("%dx%d", s.cols, s.rows) }

// childSizeRx is what the winsize child draws at its screen's top left: the size the
// kernel gives its terminal.
var childSizeRx = regexp.MustCompile(`size (\d+)x(\d+)`)

// croppedRx is the terminal pane's word that the run is larger than the pane.
var croppedRx = regexp.MustCompile(`(\d+)×(\d+) > pane (\d+)×(\d+)`)

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// seesWhole waits until x shows the whole of the child's screen at want (its top left
// "size", no word of a crop) and returns the size seen; a zero want takes any.
func (x *tmuxTerm) seesWhole(what string, want size) size {
	x.t.Helper()
	var got size
	x.waitUntilSettled(what, 20*time.Second, func(s string) bool {
		m := childSizeRx.FindStringSubmatch(s)
		if m == nil || croppedRx.MatchString(s) {
			return false
		}
		got = size{atoi(m[1]), atoi(m[2])}
		return want == (size{}) || got == want
	})
	return got
}

// seesCrop waits until x says the run, at want, is larger than its pane and shows the
// part the cursor is in: the child's bottom right "corner", not its top left "size".
// It returns the pane's size.
func (x *tmuxTerm) seesCrop(what string, want size) size {
	x.t.Helper()
	var pane size
	corner := "corner " + want.String()
	x.waitUntilSettled(what, 20*time.Second, func(s string) bool {
		m := croppedRx.FindStringSubmatch(s)
		if m == nil || (size{atoi(m[1]), atoi(m[2])}) != want || !strings.Contains(s, corner) || childSizeRx.MatchString(s) {
			return false
		}
		pane = size{atoi(m[3]), atoi(m[4])}
		return true
	})
	return pane
}

// Two UIs attached to one server at different sizes show one run (the winsize child,
// which draws the size its PTY has), under each window-size policy of the server's
// config ([ui] window_size): latest takes the size of the UI that attached or typed
// last, smallest and largest the smaller or larger of the two. The smaller UI showing
// the run larger than its pane says so in its title and shows the part the cursor is
// in; when the larger UI detaches, the run takes the smaller's size.
func TestWindowSizeTwoClients(t *testing.T) {
	for _, policy := range []string{"latest", "smallest", "largest"} {
		t.Run(policy, func(t *testing.T) {
			state := t.TempDir()
			cfg := filepath.Join(t.TempDir(), "corral.toml")
			if err := os.WriteFile(cfg, []byte("[ui]\nwindow_size = \""+policy+"\"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			// The server spawn starts on demand reads the config found without a flag.
			cmd := corral(t, "spawn", "--pty", "--name", "sizes", "--env", demo.ChildEnv+"=1", "--", corralBin, "winsize")
			cmd.Env = append(cmd.Env, "CORRAL_STATE_DIR="+state, "CORRAL_CONFIG="+cfg)
			if r := run(t, cmd); r.code != 0 {
				t.Fatalf("spawn: %+v", r)
			}
			endLater(t, testkit.Pin(t, serverPID(t, state)), syscall.SIGTERM, "server")
			attach := fmt.Sprintf("env CORRAL_STATE_DIR=%s %s attach", state, corralBin)

			big := startTmux(t, 170, 50, attach)
			b := big.seesWhole("the big UI alone", size{})
			small := startTmux(t, 110, 30, attach)
			var a size
			switch policy {
			case "latest": // the small UI attached last; then the big one types into the run
				a = small.seesWhole("the small UI, last to attach", size{})
				big.seesWhole("the big UI shows the run smaller than its pane", a)
				big.keys("Enter")
				big.waitFor(`FOCUS`, 10*time.Second)
				big.text("x")
				small.seesCrop("the small UI, after the big one typed", b)
				big.seesWhole("the big UI, which typed", b)
				big.keys("C-]")
			case "smallest":
				a = small.seesWhole("the small UI", size{})
				big.seesWhole("the big UI shows the smallest", a)
			case "largest":
				a = small.seesCrop("the small UI shows the largest, cropped", b)
				big.seesWhole("the big UI shows the largest", b)
			}
			if a.cols >= b.cols || a.rows >= b.rows {
				t.Fatalf("the small UI's pane %v is not smaller than the big one's %v", a, b)
			}
			// The big UI goes away: the run takes the small UI's size.
			big.run("kill-server")
			small.seesWhole("the small UI alone", a)
		})
	}
}

// corral server --window-size takes one of the three policies: another is one line and
// exit 2, before anything starts; its help names them.
func TestServerWindowSizeFlag(t *testing.T) {
	r := run(t, corral(t, "server", "--window-size", "biggest"))
	if r.code != 2 || !strings.Contains(r.stderr, `--window-size "biggest": want latest, smallest or largest`) ||
		strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Errorf("a wrong policy: %+v", r)
	}
	if r := run(t, corral(t, "help", "server")); r.code != 0 || !strings.Contains(r.stdout, "--window-size") ||
		!strings.Contains(r.stdout, "latest, smallest or largest") {
		t.Errorf("help server: %+v", r)
	}
}

// The window-size policy holds across a new server: a UI attached when the server is
// killed says its pane's size and the run it shows again once it has reconnected, so
// when a smaller UI attached to the new server shows another run, or leaves, the run
// takes the larger UI's size back (the new server knew of no other UI before).
func TestWindowSizeAfterReconnect(t *testing.T) {
	state := serverState(t)
	cfg := filepath.Join(t.TempDir(), "corral.toml")
	if err := os.WriteFile(cfg, []byte("[ui]\nwindow_size = \"latest\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := corral(t, "spawn", "--pty", "--name", "sizes", "--env", demo.ChildEnv+"=1", "--", corralBin, "winsize")
	cmd.Env = append(cmd.Env, "CORRAL_STATE_DIR="+state, "CORRAL_CONFIG="+cfg)
	if r := run(t, cmd); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	if r := serverCorral(t, state, "spawn", "--pty", "--name", "other", "--", "cat"); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	attach := fmt.Sprintf("env CORRAL_STATE_DIR=%s CORRAL_CONFIG=%s %s attach", state, cfg, corralBin)
	big := startTmux(t, 170, 50, attach)
	b := big.seesWhole("the big UI alone", size{})

	old := serverPID(t, state)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	next := newServerPID(t, state, old)
	big.waitFor(fmt.Sprintf(`reconnected to server pid %d`, next), 30*time.Second)
	big.seesWhole("the big UI, reconnected", b)

	small := startTmux(t, 110, 30, attach)
	a := small.seesWhole("the small UI, last to attach", size{})
	if a.cols >= b.cols || a.rows >= b.rows {
		t.Fatalf("the small UI's pane %v is not smaller than the big one's %v", a, b)
	}
	big.seesWhole("the big UI shows the run at the small UI's size", a)
	small.keys("Down") // the small UI shows the other run: the big UI alone shows this one
	small.waitFor(`─other pty─`, 10*time.Second)
	big.seesWhole("the big UI, once the small one showed another run", b)
	small.keys("Up")
	big.seesWhole("the big UI, the small one showing the run again", a)
	small.run("kill-server")
	big.seesWhole("the big UI, once the small one left", b)
}
