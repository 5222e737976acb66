package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo"
	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
)

// Keys are encoded at the run with its screen's modes, and a run readopted
// after its server was killed gets its screen, and so its modes, back from its
// transcript: an app that switched to application cursor keys before the kill gets
// its arrow keys as ESC O A after it, from the new server.
func TestServerKilledKeysKeepModes(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	if r := serverCorral(t, state, "spawn", "--pty", "--name", "keys", "--env", demo.ChildEnv+"=1", "--",
		corralBin, "keys", "switch"); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	keeper := keeperPID(t, state)
	endLater(t, testkit.Pin(t, keeper), syscall.SIGTERM, "keeper")
	logHas := func(what, s string) {
		eventually.Value(t, 20*time.Second, what, func() (string, bool) {
			out := serverCorral(t, state, "log", "keys").stdout
			return out, strings.Contains(out, s)
		})
	}
	logHas("the keys child to be ready", "ready")
	if r := serverCorral(t, state, "send-keys", "keys", "+"); r.code != 0 { // the app switches
		t.Fatalf("send-keys +: %+v", r)
	}
	logHas("the app to switch to application cursor keys", fmt.Sprintf("got %x", "+"))
	// A server killed loses the output it had not written to the transcript yet (at
	// most a burst's last transcriptWindow), which is what a new server rebuilds the screen from.
	transcript := transcriptOf(t, state, "keys")
	eventually.True(t, 20*time.Second, "the switch to reach the transcript", func() bool {
		b, _ := os.ReadFile(transcript)
		return bytes.Contains(b, []byte(fmt.Sprintf("got %x", "+")))
	})

	old := serverPID(t, state)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	newServerPID(t, state, old)
	if r := serverCorral(t, state, "send-keys", "keys", "Up"); r.code != 0 {
		t.Fatalf("send-keys Up: %+v", r)
	}
	logHas("the arrow key to reach the app", "got 1b")
	if out := serverCorral(t, state, "log", "keys").stdout; !strings.Contains(out, fmt.Sprintf("got %x", "\x1bOA")) {
		t.Fatalf("the resumed run's arrow key was not encoded for application cursor keys:\n%q", out)
	}

	if r := serverCorral(t, state, "shutdown"); r.code != 0 {
		t.Fatalf("shutdown: %+v", r)
	}
	waitGone(t, keeper, "the keeper, once nothing is kept")
}

// transcriptOf is the transcript of the state dir's run named name, from ls --json.
func transcriptOf(t *testing.T, state, name string) string {
	t.Helper()
	var ls struct {
		Runs []struct {
			Name string   `json:"name"`
			Logs []string `json:"logs"`
		} `json:"runs"`
	}
	r := serverCorral(t, state, "ls", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil {
		t.Fatalf("ls --json: %v: %+v", err, r)
	}
	for _, x := range ls.Runs {
		for _, l := range x.Logs {
			if x.Name == name && strings.HasSuffix(l, ".log") {
				return l
			}
		}
	}
	t.Fatalf("no transcript for %s in %s", name, r.stdout)
	return ""
}
