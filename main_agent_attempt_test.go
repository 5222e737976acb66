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
func TestAgentDetectedOnEveryAttempt(t *testing.T) {
	env, notified := agentEnv(t)
	sp := agentCorral(t, env, "spawn", "--pty", "--agent", "toy", "--name", "toy", "--restart", "on-failure", "--backoff", "0",
		"--shell", "--", toyAgent)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	srv := testkit.Pin(t, serverPID(t, state))
	endLater(t, srv, syscall.SIGTERM, "server")
	type info struct {
		Run struct {
			PID        int    `json:"pid"`
			State      string `json:"state"`
			AgentState string `json:"agent_state"`
			Service    struct {
				Attempt int `json:"attempt"`
			} `json:"service"`
		} `json:"run"`
	}
	infoOf := func() info {
		var i info
		json.Unmarshal([]byte(agentCorral(t, env, "info", id).stdout), &i)
		return i
	}
	ask := func(n int) {
		t.Helper()
		if r := agentCorral(t, env, "submit", id, "fix", "it"); r.code != 0 {
			t.Fatalf("attempt %d: submit: %+v", n, r)
		}
		if r := agentCorral(t, env, "wait", id, "--until", "waiting", "--timeout", "20s"); r.code != 0 {
			t.Fatalf("attempt %d: wait --until waiting: %+v", n, r)
		}
	}
	ask(1)
	if err := syscall.Kill(infoOf().Run.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	i, ok := eventually.Within(20*time.Second, func() (info, bool) {
		i := infoOf()
		return i, i.Run.Service.Attempt == 2 && i.Run.State == "running"
	})
	if !ok || i.Run.AgentState == "waiting" {
		t.Fatalf("attempt 2: %+v", i.Run)
	}
	if r := agentCorral(t, env, "wait", id, "--until", "idle", "--timeout", "20s"); r.code != 0 {
		t.Fatalf("attempt 2 never idle at its prompt: %+v (%+v)", r, infoOf().Run)
	}
	ask(2)
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
	if r := agentCorral(t, env, "shutdown"); r.code != 0 {
		t.Fatalf("shutdown: %+v", r)
	}
	waitGone(t, srv.PID, "server")
}
