package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/reaper"
	"corral/runs/agentstate/agenttest"
)

// The real agent CLIs resumed after a reboot, offline against the scripted model
// server (which saves every request it gets): spawned, one turn done (a question, an
// approved command, the answer), its conversation id pinned at launch (claude,
// gemini) or learnt (codex: its session file); then the keeper, the server and the run
// killed; corral restore starts it again with the CLI's resume form, and the next
// request the model gets carries the earlier conversation. Skipped for a CLI that is
// not installed (CORRAL_AGENTS_PREFIX names where they are). Not parallel: the
// server's request dump is named by the environment.
func TestRealRestore(t *testing.T) {
	for _, name := range []string{"claude", "codex", "gemini"} {
		t.Run(name, func(t *testing.T) { realRestore(t, name, false) })
	}
}

// The real agent CLIs under a restart policy: after a turn the agent is killed (a
// crash), and its next attempt resumes its conversation (Claude Code refuses its
// pinned id again: started as it was, every attempt would fail at once), the model's
// next request carrying the earlier turn.
func TestRealNextAttemptResumes(t *testing.T) {
	for _, name := range []string{"claude", "codex", "gemini"} {
		t.Run(name, func(t *testing.T) { realRestore(t, name, true) })
	}
}

const (
	firstPrompt  = "Please check that the workspace is writable."
	secondPrompt = "Please say what you found before the reboot."
)

// realRestore spawns agent name, does one turn, and ends it: a reboot (the keeper, the
// server and the run killed, then corral restore) or, with attempt, the agent killed
// under a restart policy. Either way the conversation must go on.
func realRestore(t *testing.T, name string, attempt bool) {
	a, _ := agenttest.Lookup(name)
	a.Need(t)
	dump := t.TempDir()
	t.Setenv("CORRAL_AGENTTEST_DUMP", dump)
	_, launch, _ := realAgentLaunch(t, a, "corral-e2e-restore-"+name+"-")
	env, _ := agentEnv(t)
	state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	t.Cleanup(func() { shutdownState(t, env, state) })
	corralAt := launchCorral(t, launch, env)
	spawn := []string{"spawn", "--pty", "--agent", name, "--name", name}
	if attempt {
		spawn = append(spawn, "--restart", "on-failure", "--backoff", "0")
	}
	sp := corralAt(append(append(spawn, "--"), launch.Argv...)...)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	keeper, srv := keeperPID(t, state), serverPID(t, state)
	endLater(t, testkit.Pin(t, srv), syscall.SIGTERM, "server")
	endLater(t, testkit.Pin(t, keeper), syscall.SIGTERM, "keeper")
	if r := corralAt("submit", id, firstPrompt); r.code != 0 {
		t.Fatalf("submit: %+v\n%s", r, corralAt("screen", id).stdout)
	}
	if r := corralAt("wait", id, "--until", "waiting", "--timeout", "90s"); r.code != 0 {
		t.Fatalf("wait --until waiting: %+v\n%s", r, corralAt("screen", id).stdout)
	}
	corralAt("send-keys", id, approveKey[name])
	if r := corralAt("wait", id, "--until", "idle", "--timeout", "90s"); r.code != 0 {
		t.Fatalf("wait --until idle: %+v\n%s", r, corralAt("screen", id).stdout)
	}
	var sid string
	eventually.Value(t, 30*time.Second, "the run's conversation id", func() (string, bool) {
		sid = infoOfAt(t, corralAt, id).SessionID
		return sid, sid != ""
	})
	pid := infoOfAt(t, corralAt, id).PID
	t.Logf("%s ran as pid %d with conversation %s", name, pid, sid)

	before := len(dumped(t, dump))
	var next string
	if attempt {
		next = killAttempt(t, corralAt, id, pid, sid)
	} else {
		next = reboot(t, corralAt, state, id, keeper, srv, pid, sid)
	}
	if r := corralAt("submit", next, secondPrompt); r.code != 0 {
		t.Fatalf("submit after the conversation resumed: %+v\n%s", r, corralAt("screen", next).stdout)
	}
	// The model's next request carries the earlier conversation: the first prompt and
	// the answer to it, before the new prompt.
	var body string
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("screen of %s:\n%s\nrequests since the end: %q", next, corralAt("screen", next).stdout, dumped(t, dump)[before:])
		}
	})
	eventually.Value(t, 90*time.Second, "a request with the second prompt", func() (string, bool) {
		for _, f := range dumped(t, dump)[before:] {
			b, _ := os.ReadFile(f)
			if strings.Contains(string(b), secondPrompt) {
				body = string(b)
				return body, true
			}
		}
		return "", false
	})
	if !strings.Contains(body, firstPrompt) || !strings.Contains(body, "corral-ok.txt") {
		t.Errorf("the resumed request does not carry the earlier conversation:\n%.3000s", body)
	}
	corralAt("wait", next, "--until", "idle", "--timeout", "90s")
	if r := corralAt("shutdown"); r.code != 0 {
		t.Errorf("shutdown: %+v", r)
	}
}

// killAttempt kills the agent (pid, its attempt's root) of run id under a restart
// policy and returns the run once its next attempt, resuming conversation sid, is
// idle at its prompt.
func killAttempt(t *testing.T, corralAt func(...string) result, id string, pid int, sid string) string {
	t.Helper()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("info of %s after the kill:\n%s\nscreen:\n%s", id, corralAt("info", id).stdout, corralAt("screen", id).stdout)
		}
	})
	testkit.Pin(t, pid).Signal(syscall.SIGKILL)
	waitGone(t, pid, "the killed agent")
	eventually.True(t, 60*time.Second, "the next attempt running", func() bool {
		i := infoOfAt(t, corralAt, id)
		return i.State == "running" && i.PID != 0 && i.PID != pid
	})
	if r := corralAt("wait", id, "--until", "idle", "--timeout", "90s"); r.code != 0 {
		t.Fatalf("the next attempt never got to its prompt: %+v\n%s", r, corralAt("screen", id).stdout)
	}
	i := infoOfAt(t, corralAt, id)
	if i.SessionID != sid || !slices.Contains(i.Spec.Argv, sid) || slices.Contains(i.Spec.Argv, "--session-id") {
		t.Fatalf("the next attempt: conversation %q, command %q; want %s resumed", i.SessionID, i.Spec.Argv, sid)
	}
	t.Logf("attempt 2: %q", i.Spec.Argv)
	return id
}

// reboot kills the keeper, the server and run id's whole session at once, runs corral
// restore, and returns the restored run once it is idle at its prompt.
func reboot(t *testing.T, corralAt func(...string) result, state, id string, keeper, srv, pid int, sid string) string {
	t.Helper()
	name := infoOfAt(t, corralAt, id).Name
	// Every process of the run goes with it: its tree, and what left its session (codex's
	// app-server daemon) but not its cgroup.
	procs := []int{keeper, srv, pid}
	if all, err := reaper.ListAll(); err == nil {
		for _, p := range reaper.Descendants(all, pid) {
			procs = append(procs, p.PID)
		}
	}
	if cg := infoOfAt(t, corralAt, id).Cgroup; cg != "" {
		b, _ := os.ReadFile(filepath.Join(cg, "cgroup.procs"))
		for _, f := range strings.Fields(string(b)) {
			if p, err := strconv.Atoi(f); err == nil && !slices.Contains(procs, p) {
				procs = append(procs, p)
			}
		}
	}
	var pinned []reaper.Fingerprint
	for _, p := range procs {
		if fp, err := reaper.Identify(p); err == nil {
			pinned = append(pinned, fp)
		}
	}
	for _, fp := range pinned {
		fp.Signal(syscall.SIGKILL)
	}
	for _, p := range procs {
		waitGone(t, p, "a process of the rebooted machine")
	}
	began := time.Now()
	res := corralAt("restore")
	took := time.Since(began)
	endLater(t, testkit.Pin(t, serverPID(t, state)), syscall.SIGTERM, "the server after the reboot")
	if res.code != 0 {
		t.Fatalf("restore: %+v", res)
	}
	t.Logf("restore: %s", res.stdout)
	next := infoOfAt(t, corralAt, id).RestoredBy
	if next == "" {
		t.Fatalf("not restored: %+v", res)
	}
	if got := infoOfAt(t, corralAt, next); got.SessionID != sid || got.State != "running" {
		t.Fatalf("the restored run: %+v, want running with %s\n%s", got, sid, res.stdout)
	}
	if r := corralAt("wait", next, "--until", "idle", "--timeout", "90s"); r.code != 0 {
		t.Fatalf("the resumed %s never got to its prompt: %+v\n%s", name, r, corralAt("screen", next).stdout)
	}
	t.Logf("corral restore took %v; the resumed %s was idle at its prompt %v after it began", took, name, time.Since(began))
	return next
}

// dumped are the scripted server's saved requests, in arrival order.
func dumped(t *testing.T, dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	slices.Sort(files)
	return files
}

func infoOfAt(t *testing.T, corralAt func(...string) result, id string) runJSON {
	t.Helper()
	return decodeInfo(t, id, corralAt("info", id))
}
