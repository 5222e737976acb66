package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
)

// The runs a test starts, in the order it starts them: live ones (which the keeper
// keeps, and hands back in an order of its own) between ended ones.
var endedOrder = []string{"l1", "bad", "l2", "stop", "l3", "good", "l4"}

// endedWant is what each ended run's row and record say.
var endedWant = map[string]struct {
	reason string
	code   *int
	row    string // the run list's words after the state
}{
	"bad":  {"exit", ptr(3), "exit 3"},
	"stop": {"manual-cancel", nil, "manual-cancel"},
	"good": {"exit", ptr(0), "exit 0"},
}

func ptr(n int) *int { return &n }

// listRowRx is a row of the attached UI's run list: its name, kind and state.
var listRowRx = regexp.MustCompile(`(?m)^│\W*([a-z0-9]+)\s+(pty|pipe)\s+(running|exited|exiting|starting)\s+\S+\s*(.*?)\s*│`)

// listRows is the run list on x's screen, top to bottom: name → the row's state and
// what follows its age.
func endedRows(s string) (names []string, rows map[string]string) {
	rows = map[string]string{}
	for _, m := range listRowRx.FindAllStringSubmatch(s, -1) {
		names = append(names, m[1])
		rows[m[1]] = m[3] + " " + m[4]
	}
	return names, rows
}

// seesEndedInOrder waits until x's run list holds every run of endedOrder in that
// order, the ended ones with their reasons.
func seesEndedInOrder(t *testing.T, x *tmuxTerm, when string) {
	t.Helper()
	x.waitUntilSettled("every run in its order "+when, 20*time.Second, func(s string) bool {
		names, rows := endedRows(s)
		if !slices.Equal(names, endedOrder) {
			return false
		}
		for name, w := range endedWant {
			if !strings.HasPrefix(rows[name], "exited") || !strings.Contains(rows[name], w.row) {
				return false
			}
		}
		return true
	})
}

// checkEndedListed checks corral ls --json (the registry) and corral info (the
// server): every run in its order, the ended ones with their reasons and exit codes.
func checkEndedListed(t *testing.T, state, when string) {
	t.Helper()
	var ls struct {
		Runs []lsEntry `json:"runs"`
	}
	r := serverCorral(t, state, "ls", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil {
		t.Fatalf("%s: ls --json: %v: %+v", when, err, r)
	}
	var names []string
	for _, x := range ls.Runs {
		names = append(names, x.Name)
		if w, ended := endedWant[x.Name]; ended && (x.State != "exited" || x.Reason != w.reason || !sameCode(x.ExitCode, w.code)) {
			t.Errorf("%s: ls --json: %+v", when, x)
		}
	}
	if !slices.Equal(names, endedOrder) {
		t.Errorf("%s: ls --json lists %v, want %v", when, names, endedOrder)
	}
	for name, w := range endedWant {
		r := serverCorral(t, state, "info", name)
		var info struct {
			Run struct {
				State    string `json:"state"`
				Reason   string `json:"reason"`
				ExitCode *int   `json:"exit_code"`
			} `json:"run"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &info); r.code != 0 || err != nil {
			t.Errorf("%s: info %s: %v: %+v", when, name, err, r)
			continue
		}
		if i := info.Run; i.State != "exited" || i.Reason != w.reason || !sameCode(i.ExitCode, w.code) {
			t.Errorf("%s: info %s: %+v", when, name, i)
		}
	}
	if r := serverCorral(t, state, "wait", "bad"); r.code != 3 {
		t.Errorf("%s: wait bad: %+v, want exit 3", when, r)
	}
}

func sameCode(a, b *int) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

// Ended runs survive their server: with live runs between them, a run that exited 3,
// one cancelled and one that exited 0 stay listed as they ended, in the order the runs
// were created, after SIGKILL of the server (the keeper's next server) and after an
// upgrade: in corral ls --json, corral info, corral wait's exit code, the run list of
// the UI that was attached throughout (it reconnects each time) and of a UI attached
// afresh.
func TestEndedRunsSurviveServer(t *testing.T) {
	state := serverState(t)
	for _, name := range endedOrder {
		var cmd []string
		switch name {
		case "bad":
			cmd = []string{"--shell", "--", "echo failing; exit 3"}
		case "stop":
			cmd = []string{"--", "sleep", "1000"}
		case "good":
			cmd = []string{"--", "true"}
		default:
			cmd = []string{"--pty", "--shell", "--", `while read l; do echo "got $l"; done`}
		}
		if r := serverCorral(t, state, append([]string{"spawn", "--name", name}, cmd...)...); r.code != 0 {
			t.Fatalf("spawn %s: %+v", name, r)
		}
		switch name {
		case "stop":
			if r := serverCorral(t, state, "kill", name); r.code != 0 {
				t.Fatalf("kill: %+v", r)
			}
			serverCorral(t, state, "wait", name)
		case "bad", "good":
			serverCorral(t, state, "wait", name)
		}
	}
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	x := startTmux(t, 160, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s attach", state, corralBin))
	seesEndedInOrder(t, x, "before")
	checkEndedListed(t, state, "before")

	old := serverPID(t, state)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	killed := newServerPID(t, state, old)
	x.waitFor(fmt.Sprintf(`reconnected to server pid %d`, killed), 30*time.Second)
	seesEndedInOrder(t, x, "after the kill")
	checkEndedListed(t, state, "after the kill")

	newBin := copyOfCorral(t)
	if up := withBin(t, newBin, state, "server", "--upgrade"); up.code != 0 {
		t.Fatalf("upgrade: %+v", up)
	}
	next := serverPID(t, state)
	x.waitFor(fmt.Sprintf(`reconnected to server pid %d`, next), 30*time.Second)
	seesEndedInOrder(t, x, "after the upgrade")
	checkEndedListed(t, state, "after the upgrade")
	fresh := startTmux(t, 160, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s attach", state, corralBin))
	seesEndedInOrder(t, fresh, "in a UI attached after the upgrade")
	if strings.Contains(x.screen(), "is not in the new server") {
		t.Errorf("the attached UI dropped a run:\n%s", x.screen())
	}
}
