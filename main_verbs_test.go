package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
)

// A mistake in a flag is one line on stderr, exit 2, saying which flag, the flag it
// was probably meant to be, or the unit a duration needs; nothing is started and no
// usage text buries it.
func TestFlagMistakesInOneLine(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--tiemout", "3s", "--", "true"}, "corral run: unknown flag --tiemout (did you mean --timeout?)"},
		{[]string{"run", "--timeout", "3", "--", "true"}, "corral run: --timeout 3: a duration needs a unit: 3s, 3m or 3h"},
		{[]string{"spawn", "--grace", "5", "--", "true"}, "corral spawn: --grace 5: a duration needs a unit"},
		{[]string{"ls", "--jsn"}, "corral ls: unknown flag --jsn (did you mean --json?)"},
		{[]string{"reconcile", "extra"}, `corral reconcile: unexpected argument "extra"`},
		{[]string{"attach", "--ssh"}, "corral attach: --ssh needs a value"},
		{[]string{"poll", "x", "--wiat", "1s"}, "corral poll: unknown flag --wiat (did you mean --wait?)"},
		{[]string{"poll", "x", "--wait", "3"}, "corral poll: --wait 3: a duration needs a unit"},
		{[]string{"submit", "x", "text", "--jsn"}, "corral submit: unknown flag --jsn (did you mean --json?); text that starts with - goes after --"},
		{[]string{"--tiemout", "3"}, "corral: unknown flag --tiemout (corral --help)"},
		{[]string{"lss"}, `corral: unknown command "lss" (did you mean ls?)`},
		{[]string{"help", "shutdwn"}, `corral help: unknown command "shutdwn" (did you mean shutdown?)`},
	}
	for _, c := range cases {
		r := run(t, corral(t, c.args...))
		if r.code != 2 || !strings.HasPrefix(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
			t.Errorf("corral %s: exit %d, stdout %q, stderr %q; want exit 2 and one line starting %q",
				strings.Join(c.args, " "), r.code, r.stdout, r.stderr, c.want)
		}
	}
}

// Every command and verb has its own help, the same by corral help X and X --help,
// on stdout with exit 0; spawn's is spawn's, not run's.
func TestEveryCommandHasItsHelp(t *testing.T) {
	for _, c := range table {
		name := c.Name
		h := run(t, corral(t, "help", name))
		f := run(t, corral(t, name, "--help"))
		want := "usage: corral " + name + " "
		if h.code != 0 || !strings.HasPrefix(h.stdout, want) || h.stderr != "" {
			t.Errorf("corral help %s: exit %d, stdout %.80q, stderr %q", name, h.code, h.stdout, h.stderr)
		}
		if f.code != 0 || f.stdout != h.stdout || f.stderr != "" {
			t.Errorf("corral %s --help: exit %d, stderr %q, stdout differs from corral help %s: %v",
				name, f.code, f.stderr, name, f.stdout != h.stdout)
		}
	}
	if h := run(t, corral(t, "help", "spawn")).stdout; !strings.Contains(h, "prints\nits id") || strings.Contains(h, "corral run [flags]") {
		t.Errorf("spawn's help is not its own:\n%s", h)
	}
	if h := run(t, corral(t, "help", "poll")).stdout; !strings.Contains(h, "-wait duration") {
		t.Errorf("poll's help does not list its flags:\n%s", h)
	}
	if h := run(t, corral(t, "help")); h.code != 0 || !strings.Contains(h.stdout, "  spawn [run flags]") {
		t.Errorf("corral help: %+v", h)
	}
}

// shutdown is idempotent: with no server running there is nothing to end, and it
// says so with exit 0 (JSON too).
func TestShutdownWithNoServerSucceeds(t *testing.T) {
	state := t.TempDir()
	if r := serverCorral(t, state, "shutdown"); r.code != 0 || !strings.Contains(r.stderr, "nothing to shut down") {
		t.Errorf("shutdown with no server: %+v", r)
	}
	var rep struct {
		Ended *int `json:"ended"`
	}
	r := serverCorral(t, state, "shutdown", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 0 || rep.Ended == nil || *rep.Ended != 0 {
		t.Errorf("shutdown --json with no server: %v %+v", err, r)
	}
}

// corral -- CMD whose program cannot start says why and exits as corral run would,
// instead of opening a UI on a spawn-error.
func TestUICommandThatCannotStart(t *testing.T) {
	r, _ := runWithin(t, corral(t, "--", "corral-no-such-program"), 10*time.Second)
	if r.code != 127 || !strings.Contains(r.stderr, `cannot start corral-no-such-program: exec: "corral-no-such-program": executable file not found`) {
		t.Errorf("corral -- a missing program: %+v", r)
	}
	r, _ = runWithin(t, corral(t, "--", "/etc/passwd"), 10*time.Second)
	if r.code != 126 || !strings.Contains(r.stderr, "permission denied") {
		t.Errorf("corral -- a file that is not executable: %+v", r)
	}
}

// remove forgets an ended run everywhere: the server, corral ls, and an attached UI's
// list, which drops the row without being told by its own user.
func TestRemoveLeavesListAndUI(t *testing.T) {
	state := t.TempDir()
	spawn := func(name string, cmd ...string) string {
		r := serverCorral(t, state, append([]string{"spawn", "--name", name, "--"}, cmd...)...)
		if r.code != 0 {
			t.Fatalf("spawn %s: %+v", name, r)
		}
		return strings.TrimSpace(r.stdout)
	}
	keep := spawn("keeper", "sleep", "300")
	srvPID := serverPID(t, state)
	endLater(t, testkit.Pin(t, srvPID), syscall.SIGTERM, "server")
	gone := spawn("goner", "true")
	if r := serverCorral(t, state, "wait", gone); r.code != 0 {
		t.Fatalf("wait: %+v", r)
	}
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s attach", state, corralBin))
	x.waitFor(`(?s)keeper\s+pipe\s+running.*goner\s+pipe\s+exited.*exit 0`, 20*time.Second)

	if r := serverCorral(t, state, "remove", "goner"); r.code != 0 {
		t.Fatalf("remove: %+v", r)
	}
	x.waitUntil("the removed run's row to leave the attached UI", 10*time.Second, func(s string) bool {
		// The events pane's history (what happened before the UI attached) still
		// names it; no other line may.
		n := 0
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "earlier · ") {
				n += strings.Count(l, "goner")
			}
		}
		return n == 0 || strings.Contains(s, "removed goner") && n == 1
	})
	if ls := serverCorral(t, state, "ls", "--json"); strings.Contains(ls.stdout, gone) || !strings.Contains(ls.stdout, keep) {
		t.Errorf("corral ls after remove still lists %s (or lost %s):\n%s", gone, keep, ls.stdout)
	}
	if r := serverCorral(t, state, "remove", "keeper"); r.code != 1 || !strings.Contains(r.stderr, "has not ended") {
		t.Errorf("remove of a live run: %+v", r)
	}
	if r := serverCorral(t, state, "shutdown"); r.code != 0 {
		t.Fatalf("shutdown: %+v", r)
	}
	waitGone(t, srvPID, "server after shutdown")
	assertNothingLeft(t, state)
}
