package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
)

// An agent started through env with a path in an assignment is recognised from its
// command, one started by sh -c after another command from the program in its
// terminal's foreground; explain and ls say how. After a kill -9 of the server, the
// one recognised in the foreground is known again, and its state judged from its kept
// screen, before it prints anything.
func TestAgentRecognisedThroughServer(t *testing.T) {
	env, _ := agentEnv(t)
	state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	bin := filepath.Join(t.TempDir(), "toy-agent")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"+toyAgent+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	spawn := func(name string, argv ...string) string {
		r := agentCorral(t, env, append([]string{"spawn", "--pty", "--name", name, "--"}, argv...)...)
		if r.code != 0 {
			t.Fatalf("spawn %s: %+v", name, r)
		}
		return strings.TrimSpace(r.stdout)
	}
	viaEnv := spawn("via-env", "env", "-u", "FOO", "HOME=/srv/agent-home", bin)
	srv := testkit.Pin(t, serverPID(t, state))
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	endLater(t, srv, syscall.SIGTERM, "server")
	viaSh := spawn("via-sh", "sh", "-c", "cd / && "+bin)
	for _, c := range []struct{ id, by string }{{viaEnv, "recognised: from the command (env … → toy-agent)"},
		{viaSh, "recognised: from the foreground process "}} {
		id, by := c.id, c.by
		if r := agentCorral(t, env, "wait", id, "--until", "idle", "--timeout", "20s"); r.code != 0 {
			t.Fatalf("wait --until idle: %+v", r)
		}
		if r := agentCorral(t, env, "explain", id); r.code != 0 || !strings.Contains(r.stdout, by) {
			t.Errorf("explain %s, want %q: %+v", id, by, r)
		}
	}
	if r := agentCorral(t, env, "explain", viaSh); !strings.Contains(r.stdout, "(sh … → toy-agent): /bin/sh "+bin) {
		t.Errorf("explain: not the agent's process: %s", r.stdout)
	}
	if r := agentCorral(t, env, "ls", "--json"); !strings.Contains(r.stdout, `"agent_by": "from the foreground process `) {
		t.Errorf("ls --json: no agent_by: %s", r.stdout)
	}

	srv.Signal(syscall.SIGKILL)
	waitGone(t, srv.PID, "the killed server")
	next := newServerPID(t, state, srv.PID)
	endLater(t, testkit.Pin(t, next), syscall.SIGTERM, "the new server")
	start := time.Now()
	if r := agentCorral(t, env, "wait", viaSh, "--until", "idle", "--timeout", "5s"); r.code != 0 {
		t.Fatalf("after the kill, wait --until idle: %+v", r)
	}
	t.Logf("the foreground agent idle again %v after the new server answered", time.Since(start).Round(time.Millisecond))
	if r := agentCorral(t, env, "explain", viaSh); !strings.Contains(r.stdout, "recognised: from the foreground process ") {
		t.Errorf("explain after the kill: %+v", r)
	}
	if r := agentCorral(t, env, "shutdown"); r.code != 0 {
		t.Fatalf("shutdown: %+v", r)
	}
}
