package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/runs/agentstate/agenttest"
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

// The real CLIs, started as people wrap them, are recognised without --agent and
// followed to their prompt: through env -u with a path in an assignment (from the
// command) and through sh -c after another command (from the foreground program:
// claude's native executable, codex's node launcher and its binary, gemini's node).
// Skipped for a CLI that is not installed.
func TestRealAgentsRecognisedHoweverStarted(t *testing.T) {
	for _, a := range agenttest.Agents {
		t.Run(a.Name, func(t *testing.T) {
			_, launch, root := realAgentLaunch(t, a, "corral-recog-"+a.Name+"-")
			env, _ := agentEnv(t)
			corralAt := launchCorral(t, launch, env)
			home := "HOME=" + root
			for _, e := range launch.Env {
				if strings.HasPrefix(e, "HOME=") {
					home = e
				}
			}
			quoted := make([]string, len(launch.Argv))
			for i, w := range launch.Argv {
				quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
			}
			for _, c := range []struct {
				argv []string
				by   string
			}{
				{append([]string{"env", "-u", "FOO", home}, launch.Argv...), "from the command (env … → "},
				{[]string{"sh", "-c", "cd . && " + strings.Join(quoted, " ")}, "from the foreground process "},
			} {
				sp := corralAt(append([]string{"spawn", "--pty", "--"}, c.argv...)...)
				id := strings.TrimSpace(sp.stdout)
				if sp.code != 0 {
					t.Fatalf("spawn: %+v", sp)
				}
				if r := corralAt("wait", id, "--until", "idle", "--timeout", "90s"); r.code != 0 {
					t.Fatalf("%q: wait --until idle: %+v\n%s", c.argv, r, corralAt("screen", id).stdout)
				}
				r := corralAt("explain", id)
				if !strings.Contains(r.stdout, "agent "+a.Name+",") || !strings.Contains(r.stdout, "recognised: "+c.by) {
					t.Errorf("%q: explain:\n%s", c.argv, r.stdout)
				}
				t.Logf("%s: %s", a.Name, firstLine(r.stdout, "recognised: "))
				corralAt("cancel", id)
			}
			state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
			pid := serverPID(t, state)
			if r := corralAt("shutdown"); r.code != 0 {
				t.Errorf("shutdown: %+v", r)
			}
			waitGone(t, pid, "server")
		})
	}
}

// firstLine is the first line of text that starts with prefix.
func firstLine(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}
