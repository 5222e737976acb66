package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/reaper"
	"corral/runs"
	"corral/runs/agentstate/agenttest"
)

// approveKey answers each CLI's permission question with yes.
var approveKey = map[string]string{"claude": "Enter", "codex": "y", "gemini": "Enter", "opencode": "Enter"}

// The real agent CLIs, offline against the scripted model server, driven as a script
// would: spawn, submit at once (it must not be lost), wait until the agent asks,
// approve, wait until it is idle again, read the answer on its screen; the [notify]
// command hears of the question once. Skipped for a CLI that is not installed, or not
// at the version the corpus was recorded with (runs/agentstate/testdata/corpus/record.sh
// installs them; CORRAL_AGENTS_LATEST names a prefix whose CLIs run whatever their
// version: make agents-latest).
func TestRealAgents(t *testing.T) {
	for _, a := range agenttest.Agents {
		t.Run(a.Name, func(t *testing.T) {
			_, launch, _ := realAgentLaunch(t, a, "corral-e2e-"+a.Name+"-")
			env, notified := agentEnv(t)
			realAgentTurn(t, a.Name, launch, env, notified)
		})
	}
}

// realAgentLaunch prepares the real CLI a against a scripted model server, in a home
// of its own (made with prefix) under the user's cache directory: codex refuses
// helpers under a temp dir. The server and the home go when the test has ended, after
// the session the test starts (agentSession, endLater: cleanups run the latest
// first). A CLI that is not installed is skipped.
func realAgentLaunch(t *testing.T, a agenttest.Agent, prefix string) (*agenttest.Server, agenttest.Launch, string) {
	t.Helper()
	a.Need(t)
	srv, err := agenttest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip(err)
	}
	root, err := os.MkdirTemp(cache, prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	launch, err := a.Prepare(root, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return srv, launch, root
}

// launchCorral runs corral in launch's directory with launch's environment and env
// (agentEnv's).
func launchCorral(t *testing.T, launch agenttest.Launch, env []string) func(args ...string) result {
	return func(args ...string) result {
		cmd := exec.Command(corralBin, args...)
		cmd.Env, cmd.Dir = append(append([]string{}, launch.Env...), env...), launch.Dir
		return run(t, cmd)
	}
}

func realAgentTurn(t *testing.T, name string, launch agenttest.Launch, env []string, notified string) {
	corralAt := launchCorral(t, launch, env)
	sp := corralAt(append([]string{"spawn", "--pty", "--agent", name, "--name", name, "--"}, launch.Argv...)...)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	srv := testkit.Pin(t, serverPID(t, state))
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

// Two real codex runs of one CODEX_HOME share the app-server daemon the first one
// started (codex 0.169: `codex app-server --listen unix:// --managed-daemon`, out of
// its session). Killing the first must not end the second (it died in the
// same millisecond, "remote app server … transport failed"): the daemon passes to the
// second, shown as shared there; the second still does a whole turn (ask, approve,
// answer) through it; killing the second ends the daemon. On either backend.
func TestRealCodexSharedDaemon(t *testing.T) {
	a, _ := agenttest.Lookup("codex")
	_, launch, _ := realAgentLaunch(t, a, "corral-e2e-codex-shared-")
	env, _ := agentEnv(t)
	corralAt := launchCorral(t, launch, env)
	var ids []string
	for _, name := range []string{"first", "second"} {
		sp := corralAt(append([]string{"spawn", "--pty", "--agent", "codex", "--name", name, "--"}, launch.Argv...)...)
		if sp.code != 0 {
			t.Fatalf("spawn: %+v", sp)
		}
		ids = append(ids, strings.TrimSpace(sp.stdout))
		if len(ids) == 1 {
			state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
			endLater(t, testkit.Pin(t, serverPID(t, state)), syscall.SIGTERM, "server")
		}
		if r := corralAt("wait", ids[len(ids)-1], "--until", "idle", "--timeout", "90s"); r.code != 0 {
			t.Fatalf("wait --until idle: %+v\n%s", r, corralAt("screen", ids[len(ids)-1]).stdout)
		}
	}
	first, second := ids[0], ids[1]
	daemon := appServer(t, lsRun(t, corralAt, first).PID)
	if r := corralAt("kill", first); r.code != 0 {
		t.Fatalf("kill %s: %+v", first, r)
	}
	corralAt("wait", first, "--timeout", "30s")
	if p, err := reaper.ReadProc(daemon.PID); err != nil || p.StartTime != daemon.StartTime || p.State == 'Z' {
		ev, _ := os.ReadFile(filepath.Join(strings.TrimPrefix(env[0], "CORRAL_STATE_DIR="), "events.jsonl"))
		t.Fatalf("the app-server (pid %d) ended with the run that started it\n%s", daemon.PID, ev)
	}
	if got := lsRun(t, corralAt, second); got.State != "running" || !slices.ContainsFunc(got.Shared, isAppServer) {
		ev, _ := os.ReadFile(filepath.Join(strings.TrimPrefix(env[0], "CORRAL_STATE_DIR="), "events.jsonl"))
		t.Fatalf("second run after the first was killed: %+v; want running with the daemon shared\n%s", got, ev)
	}
	if r := corralAt("submit", second, "Please check that the workspace is writable."); r.code != 0 {
		t.Fatalf("submit: %+v\n%s", r, corralAt("screen", second).stdout)
	}
	if r := corralAt("wait", second, "--until", "waiting", "--timeout", "90s"); r.code != 0 {
		t.Fatalf("wait --until waiting: %+v\n%s", r, corralAt("screen", second).stdout)
	}
	corralAt("send-keys", second, approveKey["codex"])
	if r := corralAt("wait", second, "--until", "idle", "--timeout", "90s"); r.code != 0 {
		t.Fatalf("wait --until idle: %+v\n%s", r, corralAt("screen", second).stdout)
	}
	if r := corralAt("screen", second); !strings.Contains(r.stdout, agenttest.DoneToken) {
		t.Errorf("the second codex did not finish its turn:\n%s", r.stdout)
	}
	corralAt("kill", second)
	corralAt("wait", second, "--timeout", "30s")
	waitGone(t, daemon.PID, "the app-server, with the last run that used it")
	corralAt("shutdown")
}

// lsRun is one run's line of corral ls --json.
func lsRun(t *testing.T, corralAt func(...string) result, id string) (out struct {
	RunID  string         `json:"run_id"`
	PID    int            `json:"pid"`
	State  string         `json:"state"`
	Shared []runs.Escapee `json:"shared"`
}) {
	t.Helper()
	var ls struct {
		Runs []json.RawMessage `json:"runs"`
	}
	r := corralAt("ls", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil {
		t.Fatalf("ls --json: %v\n%s", err, r.stdout)
	}
	for _, raw := range ls.Runs {
		json.Unmarshal(raw, &out)
		if out.RunID == id {
			return out
		}
	}
	t.Fatalf("run %s not in ls --json:\n%s", id, r.stdout)
	return
}

// appServer finds codex's app-server daemon among the descendants of a run's root.
func appServer(t *testing.T, root int) reaper.Proc {
	t.Helper()
	var found reaper.Proc
	eventually.True(t, 30*time.Second, "codex's app-server daemon", func() bool {
		all, err := reaper.ListAll()
		if err != nil {
			return false
		}
		for _, p := range reaper.Descendants(all, root) {
			argv, _ := reaper.ReadCmdline(p.PID)
			if isAppServer(runs.Escapee{Argv: argv}) {
				found = p
				return true
			}
		}
		return false
	})
	return found
}

func isAppServer(e runs.Escapee) bool {
	return len(e.Argv) > 2 && e.Argv[1] == "app-server" && slices.Contains(e.Argv, "--managed-daemon")
}
