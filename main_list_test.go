package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"corral/runs"
)

// End-to-end tests of the UI at fifty runs, on the real binary in tmux: the list's
// keys and filter, the selection following a spawned run, and the process tree and
// the events title at 120 to 200 columns.

// spawnRun starts a run in the state dir's server as a script does (corral spawn).
func spawnRun(t *testing.T, state, name string) {
	t.Helper()
	if r := serverCorral(t, state, "spawn", "--name", name, "--", "sleep", "600"); r.code != 0 {
		t.Fatalf("corral spawn %s: exit %d: %s", name, r.code, r.stderr)
	}
}

// At 54 runs: G and g go to either end, ctrl+f/ctrl+b a page, / filters as it is typed
// (the arrows move among the matches), enter keeps the filter and j moves within it,
// runs spawned meanwhile are counted, esc clears it.
func TestUIListAtScale(t *testing.T) {
	state := serverState(t)
	var toml strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&toml, "[[run]]\nname = \"svc-%02d\"\ncmd = \"sleep 600\"\n\n", i)
	}
	for _, n := range []string{"web-a", "web-b", "web-c", "db"} {
		fmt.Fprintf(&toml, "[[run]]\nname = \"%s\"\ncmd = \"sleep 600\"\n\n", n)
	}
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s --config %s", state, corralBin,
		writeConfig(t, toml.String())))
	x.waitFor(`(?s)Runs 54.*Details svc-01 r`, 60*time.Second) // 17 rows a page at 120×40
	x.keys("G")
	x.waitFor(`Details db r`, 10*time.Second)
	x.keys("g")
	x.waitFor(`Details svc-01 r`, 10*time.Second)
	x.keys("C-f")
	x.waitUntil("svc-18 selected and svc-01 scrolled away", 10*time.Second, func(s string) bool {
		return strings.Contains(s, "Details svc-18 r") && !strings.Contains(s, "svc-01 ")
	})
	x.keys("C-b")
	x.waitFor(`Details svc-01 r`, 10*time.Second)

	x.keys("/")
	x.waitFor(`(?s)Runs 54 /─.*filter runs by name, id, kind, agent or state`, 10*time.Second)
	x.text("we")
	x.waitFor(`Runs 3 of 54 /we─`, 10*time.Second)
	x.text("b-")
	s := x.waitFor(`(?s)Runs 3 of 54 /web-─.*Details web-a r`, 10*time.Second)
	if rows := listRows(s); strings.Join(rows, " ") != "web-a web-b web-c" {
		t.Errorf("the filter web- lists %q", rows)
	}
	x.keys("Down")
	x.waitFor(`Details web-b r`, 10*time.Second)
	x.keys("Enter")
	x.waitUntil("the filter kept, the status line back", 10*time.Second, func(s string) bool {
		return strings.Contains(s, "Runs 3 of 54 /web-─") && !strings.Contains(s, "filter runs by name")
	})
	x.keys("j")
	x.waitFor(`Details web-c r`, 10*time.Second)

	spawnRun(t, state, "web-d")
	spawnRun(t, state, "cache")
	s = x.waitFor(`Runs 4 of 56 /web-─`, 20*time.Second)
	if rows := listRows(s); strings.Join(rows, " ") != "web-a web-b web-c web-d" {
		t.Errorf("after two spawns the filter web- lists %q", rows)
	}
	x.keys("Escape")
	x.waitUntil("the filter cleared", 10*time.Second, func(s string) bool {
		return strings.Contains(s, "Runs 56─") && strings.Contains(s, "svc-") && !strings.Contains(s, " of 56")
	})
	x.keys("Q")
	x.answer(`56 live run\(s\) will be ended`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 120*time.Second)
	assertEnded(t, state, 56, "supervisor-shutdown")
}

// listRowRE is a row of the run list: its name after the attention column.
var listRowRE = regexp.MustCompile(`^│[ ●] (\S+)`)

// listRows are the names of the rows a screen's run list shows.
func listRows(screen string) []string {
	var out []string
	for _, l := range strings.Split(screen, "\n")[1:] {
		if strings.HasPrefix(l, "└") {
			break
		}
		if m := listRowRE.FindStringSubmatch(l); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

// A run a script spawns while the UI is left alone takes the selection; of a burst,
// the first only; a run spawned just after the user moved does not; a run started from
// the UI does, though the user pressed keys.
func TestUISelectionFollowsSpawn(t *testing.T) {
	state := serverState(t)
	spawnRun(t, state, "first")
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s attach", state, corralBin))
	x.waitFor(`Details first r`, 20*time.Second)

	start := time.Now()
	for i := 1; i <= 5; i++ {
		spawnRun(t, state, fmt.Sprintf("burst-%d", i))
	}
	took := time.Since(start)
	s := x.waitSettled(`(?s)Runs 6.*burst-5`, 20*time.Second)
	if !strings.Contains(s, "Details burst-1 r") {
		t.Errorf("after a burst of 5 spawns (%s) the selection is not on the first:\n%s", took, s)
	}

	x.keys("k")
	x.waitFor(`Details first r`, 10*time.Second)
	spawnRun(t, state, "late")
	s = x.waitSettled(`(?s)Runs 7.*late`, 20*time.Second)
	if !strings.Contains(s, "Details first r") {
		t.Errorf("a spawn right after the user's key took the selection:\n%s", s)
	}

	x.keys("n")
	x.waitFor(`(?i)new run`, 10*time.Second)
	x.text("sleep 601")
	x.keys("Enter")
	x.waitFor(`(?s)Runs 8.*Details sleep r`, 20*time.Second)
	x.keys("Q")
	x.answer(`8 live run\(s\) will be ended`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 60*time.Second)
	assertEnded(t, state, 8, "supervisor-shutdown")
}

// rightPane are the lines of the pane whose top edge starts with title in the right
// column of a screen, without its frame.
func rightPane(screen, title string) []string {
	lw := leftColumn(screen)
	var out []string
	in := false
	for _, l := range strings.Split(screen, "\n") {
		r := []rune(l)
		if len(r) <= lw+1 {
			continue
		}
		right := string(r[lw:])
		switch {
		case strings.HasPrefix(right, "┌─"+title):
			in = true
		case in && strings.HasPrefix(right, "└"):
			return out
		case in:
			out = append(out, strings.TrimRight(string(r[lw+1:len(r)-1]), " "))
		}
	}
	return out
}

var escapeEventsRE = regexp.MustCompile(`┌─Events[^·]*· spawned \d+ · escape events (\d+)`)

// A codex-like agent whose two daemons leave its session, at 120, 160 and 200
// columns: the tree's MARK column whole, each daemon's command line whole, and the
// events title's escape events equal to the escape lines listed (at 160 the mark was
// cut to "esca", the command lines were not shown, and the title said "escape events
// 0" beside two lines). On sessions the daemons are escapees; on cgroups they are
// contained (members still), shown with their command lines all the same.
func TestUITreeAndEventsAtWidths(t *testing.T) {
	t.Run("sessions", func(t *testing.T) { testTreeAtWidths(t, "off", " escaped ") })
	// On cgroups the daemons stay the run's (contained): the same columns and lines.
	t.Run("cgroups", func(t *testing.T) {
		if runs.FindCgroups("").Dir == "" {
			t.Skip("no cgroup backend here")
		}
		testTreeAtWidths(t, "", " contained ")
	})
}

func testTreeAtWidths(t *testing.T, cgroupRoot, mark string) {
	state := t.TempDir()
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_CGROUP_ROOT=%s CORRAL_STATE_DIR=%s %s --local -- env CORRAL_CHILD=1 %s codex-like",
		cgroupRoot, state, corralBin, corralBin))
	x.waitFor(`agent ready`, 20*time.Second)
	argv := []string{corralBin, "agent-daemon", "app-server", "--managed-daemon", "pid-update-loop"}
	for _, sz := range [][2]int{{120, 40}, {160, 45}, {200, 50}} {
		x.run("resize-window", "-t", "t", "-x", fmt.Sprint(sz[0]), "-y", fmt.Sprint(sz[1]))
		what := fmt.Sprintf("at %d×%d the tree with two escaped daemons and the events title agreeing", sz[0], sz[1])
		x.waitUntilSettled(what, 20*time.Second, func(s string) bool {
			if leftColumn(s) != sz[0]*3/10 { // the layout of this size (3/10 of it on the left)
				return false
			}
			d := detailsLines(s)
			tree := strings.Join(d, "\n")
			words := screenWords(d)
			for _, w := range argv {
				if !words[w] {
					return false
				}
			}
			m := escapeEventsRE.FindStringSubmatch(s)
			listed := strings.Count(strings.Join(rightPane(s, "Events"), "\n"), "⚠ escape:")
			return strings.Count(tree, mark) == 2 && m != nil && m[1] == fmt.Sprint(listed) &&
				(listed > 0) == (mark == " escaped ")
		})
	}
	x.keys("q")
	x.answer(`1 live run\(s\) will be ended`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 60*time.Second)
	assertEnded(t, state, 1, "supervisor-shutdown")
}
