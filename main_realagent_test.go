package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"corral/runs/agentstate/agenttest"
)

// approveKey answers each CLI's permission question with yes.
var approveKey = map[string]string{"claude": "Enter", "codex": "y", "gemini": "Enter"}

// The real agent CLIs, offline against the scripted model server, driven as a script
// would: spawn, submit at once (it must not be lost), wait until the agent asks,
// approve, wait until it is idle again, read the answer on its screen; the [notify]
// command hears of the question once. Skipped for a CLI that is not installed
// (runs/agentstate/testdata/corpus/record.sh installs them).
func TestRealAgents(t *testing.T) {
	for _, a := range agenttest.Agents {
		t.Run(a.Name, func(t *testing.T) {
			a.Need(t)
			srv, err := agenttest.Start()
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			cache, err := os.UserCacheDir() // codex refuses helpers under a temp dir
			if err != nil {
				t.Skip(err)
			}
			root, err := os.MkdirTemp(cache, "corral-e2e-"+a.Name+"-")
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(root)
			launch, err := a.Prepare(root, srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			env, notified := agentEnv(t)
			realAgentTurn(t, a.Name, launch, env, notified)
		})
	}
}

func realAgentTurn(t *testing.T, name string, launch agenttest.Launch, env []string, notified string) {
	corralAt := func(args ...string) result {
		cmd := exec.Command(corralBin, args...)
		cmd.Env, cmd.Dir = append(append([]string{}, launch.Env...), env...), launch.Dir
		return run(t, cmd)
	}
	sp := corralAt(append([]string{"spawn", "--pty", "--agent", name, "--name", name, "--"}, launch.Argv...)...)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	srv := pin(t, serverPID(t, state))
	endLater(t, srv, syscall.SIGTERM, "server")
	if r := corralAt("submit", id, "Please check that the workspace is writable."); r.code != 0 {
		t.Fatalf("submit right after spawn: %+v\n%s", r, corralAt("screen", id).stdout)
	}
	if r := corralAt("wait", id, "--until", "waiting", "--timeout", "90s"); r.code != 0 {
		t.Fatalf("wait --until waiting: %+v\n%s", r, corralAt("explain", id).stdout)
	}
	corralAt("send-keys", id, approveKey[name])
	if r := corralAt("wait", id, "--until", "idle", "--timeout", "90s"); r.code != 0 {
		t.Fatalf("wait --until idle: %+v\n%s", r, corralAt("explain", id).stdout)
	}
	if r := corralAt("screen", id); !strings.Contains(r.stdout, agenttest.DoneToken) {
		t.Errorf("the answer is not on the screen:\n%s", r.stdout)
	}
	b, _ := os.ReadFile(notified)
	if n := strings.Count(string(b), `"event":"waiting"`); n != 1 {
		t.Errorf("%d waiting notifications, want 1:\n%s", n, b)
	}
	if r := corralAt("shutdown"); r.code != 0 {
		t.Errorf("shutdown: %+v", r)
	}
	waitGone(t, srv.PID, "server")
	if _, err := os.Stat(filepath.Join(launch.Dir, "corral-ok.txt")); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}
}
