package main

import (
	"encoding/json"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
)

// An agent under a restart policy is followed on every attempt: killed while it asks
// a question, its next attempt is not left "waiting", goes to its prompt (idle), and
// its own question is told again.
// toyService is a toy agent spawned under on-failure with the backoff given, driven
// through the CLI: its id, its state dir, its info, and ask, which submits a task and
// waits until the agent asks its question on attempt n.
type toyService struct {
	env   []string
	id    string
	state string
	t     *testing.T
}

type toyInfo struct {
	Run struct {
		PID        int    `json:"pid"`
		State      string `json:"state"`
		AgentState string `json:"agent_state"`
		Service    struct {
			Attempt int `json:"attempt"`
		} `json:"service"`
	} `json:"run"`
}

func spawnToyService(t *testing.T, env []string, backoff string) toyService {
	t.Helper()
	sp := agentCorral(t, env, "spawn", "--pty", "--agent", "toy", "--name", "toy", "--restart", "on-failure", "--backoff", backoff,
		"--shell", "--", toyAgent)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	return toyService{env: env, id: strings.TrimSpace(sp.stdout), state: strings.TrimPrefix(env[0], "CORRAL_STATE_DIR="), t: t}
}

func (ts toyService) info() toyInfo {
	var i toyInfo
	json.Unmarshal([]byte(agentCorral(ts.t, ts.env, "info", ts.id).stdout), &i)
	return i
}

func (ts toyService) ask(n int) {
	ts.t.Helper()
	if r := agentCorral(ts.t, ts.env, "submit", ts.id, "fix", "it"); r.code != 0 {
		ts.t.Fatalf("attempt %d: submit: %+v", n, r)
	}
	if r := agentCorral(ts.t, ts.env, "wait", ts.id, "--until", "waiting", "--timeout", "20s"); r.code != 0 {
		ts.t.Fatalf("attempt %d: wait --until waiting: %+v", n, r)
	}
}

// attempt2Idle waits for the second attempt to run, not left waiting, and idle at its
// prompt.
func (ts toyService) attempt2Idle(what string) {
	ts.t.Helper()
	i, ok := eventually.Within(20*time.Second, func() (toyInfo, bool) {
		i := ts.info()
		return i, i.Run.Service.Attempt == 2 && i.Run.State == "running"
	})
	if !ok || i.Run.AgentState == "waiting" {
		ts.t.Fatalf("%s: %+v", what, i.Run)
	}
	if r := agentCorral(ts.t, ts.env, "wait", ts.id, "--until", "idle", "--timeout", "20s"); r.code != 0 {
		ts.t.Fatalf("attempt 2 never idle at its prompt: %+v (%+v)", r, ts.info().Run)
	}
}

func TestAgentDetectedOnEveryAttempt(t *testing.T) {
	env, notified := agentEnv(t)
	ts := spawnToyService(t, env, "0")
	srv := testkit.Pin(t, serverPID(t, ts.state))
	endLater(t, srv, syscall.SIGTERM, "server")
	ts.ask(1)
	if err := syscall.Kill(ts.info().Run.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ts.attempt2Idle("attempt 2")
	ts.ask(2)
	lines, _ := eventually.Within(10*time.Second, func() ([]string, bool) {
		b, _ := os.ReadFile(notified)
		var asked []string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if strings.Contains(l, `"event":"waiting"`) || strings.Contains(l, `"event": "waiting"`) {
				asked = append(asked, l)
			}
		}
		return asked, len(asked) >= 2
	})
	if len(lines) != 2 {
		t.Errorf("questions told: %q", lines)
	}
	if r := agentCorral(t, ts.env, "shutdown"); r.code != 0 {
		t.Fatalf("shutdown: %+v", r)
	}
	waitGone(t, srv.PID, "server")
}
