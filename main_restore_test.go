package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/demo/testkit/gittest"
	"corral/reaper"
	"corral/runs/workspace"
)

// resumableAgent is a toy agent CLI that takes a conversation id: --sid ID pins a new
// one, --continue-from ID resumes one; without either, when TOY_LEARNT is set, it
// makes one up and reports it through corral hook, as Claude Code's hooks carry
// session_id. It writes how it started (its mode, its id, its directory, TOY_MARK from
// its environment and its other arguments) as one line of $TOY_LOG, then waits at its
// prompt.
const resumableAgent = `#!/bin/sh
mode=start id=
rest=
while [ $# -gt 0 ]; do
  case "$1" in
    --sid) id=$2; shift 2 ;;
    --continue-from) mode=resume id=$2; shift 2 ;;
    *) rest="$rest $1"; shift ;;
  esac
done
if [ -z "$id" ] && [ -n "$TOY_LEARNT" ]; then
  id=$(cat /proc/sys/kernel/random/uuid)
  "$CORRAL_BIN" hook "{\"hook_event_name\":\"SessionStart\",\"session_id\":\"$id\"}"
fi
echo "$mode $id $(pwd -P) mark=$TOY_MARK args=$rest" >> "$TOY_LOG"
printf '\033]0;toy\007toy ready\r\n\r\n> '
exec sleep 600
`

// resumableRules are the toy's rule files: one agent that takes an id at launch, one
// whose id is learnt from its hook.
const resumableRules = `agent = "pinned"
commands = ["pinned-agent"]

[[rule]]
name = "prompt"
state = "idle"
region = "bottom 2"
any = ['^>']

[session]
pin    = ["--sid", "{id}"]
given  = ["--sid", "--continue-from"]
resume = ["--continue-from", "{id}"]
drop   = ["--sid=", "--continue-from="]
prompt = true
`

const learntRules = `agent = "learnt"
commands = ["learnt-agent"]

[[rule]]
name = "prompt"
state = "idle"
region = "bottom 2"
any = ['^>']

[session]
given  = ["--continue-from"]
resume = ["--continue-from", "{id}"]
drop   = ["--continue-from="]
hook   = ["session_id"]
`

// restoreEnv is agentEnv with the toys' rules and programs; it returns the env, the
// state dir and the programs' directory.
func restoreEnv(t *testing.T) (env []string, state, bin string) {
	env, _ = agentEnv(t)
	cfg := strings.TrimPrefix(env[1], "XDG_CONFIG_HOME=")
	for name, rules := range map[string]string{"pinned.toml": resumableRules, "learnt.toml": learntRules} {
		if err := os.WriteFile(filepath.Join(cfg, "corral", "agents", name), []byte(rules), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	bin = t.TempDir()
	for _, name := range []string{"pinned-agent", "learnt-agent"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(resumableAgent), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	state = strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	t.Cleanup(func() { shutdownState(t, env, state) }) // a failed test's server, its keeper and runs too
	return append(env, "CORRAL_BIN="+corralBin), state, bin
}

// shutdownState ends the state dir's server (its runs, then its keeper) if one runs.
func shutdownState(t *testing.T, env []string, state string) {
	b, err := os.ReadFile(filepath.Join(state, "server.lock"))
	if err != nil {
		return
	}
	keeper, _ := os.ReadFile(filepath.Join(state, "keeper.lock"))
	agentCorral(t, env, "shutdown")
	for _, f := range [][]byte{b, keeper} {
		if pid, _ := strconv.Atoi(strings.TrimSpace(string(f))); pid > 1 {
			waitGone(t, pid, "the test's server or keeper")
		}
	}
}

// toyLines are the lines the toys wrote to log.
func toyLines(log string) []string {
	b, _ := os.ReadFile(log)
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// runJSON is corral info's JSON of one run.
type runJSON struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	State     string `json:"state"`
	Reason    string `json:"reason"`
	PID       int    `json:"pid"`
	SessionID string `json:"session_id"`
	Spec      struct {
		Argv []string `json:"argv"`
	} `json:"spec"`
	RestoredFrom string              `json:"restored_from"`
	RestoredBy   string              `json:"restored_by"`
	Cgroup       string              `json:"cgroup"`
	Worktree     *workspace.Worktree `json:"worktree"`
}

func infoOf(t *testing.T, env []string, id string) runJSON {
	t.Helper()
	return decodeInfo(t, id, agentCorral(t, env, "info", id))
}

func decodeInfo(t *testing.T, id string, r result) runJSON {
	t.Helper()
	var out struct {
		Run runJSON `json:"run"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
		t.Fatalf("info %s: %+v", id, r)
	}
	return out.Run
}

// A reboot, simulated: the keeper, the server and every run killed at once. corral
// restore then starts each lost agent run again as a new run of its name, in its
// directory or its worktree (the same one, nothing made again), with its environment
// additions, resuming the conversation it recorded —
// pinned at launch (--sid) or learnt from its hook — with its initial prompt not
// typed again; a plain command is not restored. A second restore does nothing and
// says so; an id a live run holds is refused, naming that run.
func TestRestoreAfterReboot(t *testing.T) {
	env, state, bin := restoreEnv(t)
	env = append(env, gittest.Isolation...)
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q", "-b", "main")
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "base")
	log := filepath.Join(t.TempDir(), "toy.log")
	spawn := func(name string, extra []string, argv ...string) string {
		t.Helper()
		args := append([]string{"spawn", "--pty", "--name", name, "--dir", dir, "--env", "TOY_LOG=" + log,
			"--env", "TOY_MARK=" + name}, extra...)
		r := agentCorral(t, env, append(append(args, "--"), argv...)...)
		if r.code != 0 {
			t.Fatalf("spawn %s: %+v", name, r)
		}
		return strings.TrimSpace(r.stdout)
	}
	pinned := spawn("pinned", []string{"--worktree"}, filepath.Join(bin, "pinned-agent"), "do-the-task")
	learnt := spawn("learnt", []string{"--env", "TOY_LEARNT=1"}, filepath.Join(bin, "learnt-agent"))
	plain := spawn("plain", nil, "sleep", "600")
	eventually.True(t, 20*time.Second, "both toys to start and the learnt one's id to be learnt", func() bool {
		return len(toyLines(log)) == 2 && infoOf(t, env, learnt).SessionID != ""
	})
	pin := infoOf(t, env, pinned)
	learn := infoOf(t, env, learnt)
	// A hook from outside the run (no run secret in its environment) naming it plants
	// no conversation.
	agentCorral(t, env, "hook", "--run", learnt, `{"hook_event_name":"SessionStart","session_id":"0b5e3a57-9d5c-4c3e-8f0e-000000000bad"}`)
	if got := infoOf(t, env, learnt).SessionID; got != learn.SessionID {
		t.Fatalf("a hook from outside the run planted conversation %q (the run's: %q)", got, learn.SessionID)
	}
	if len(pin.SessionID) != 36 || pin.Worktree == nil {
		t.Fatalf("the pinned toy's id and worktree: %+v", pin)
	}
	wt := canon(t, pin.Worktree.Dir)
	// A second run the user started on the same conversation: after the reboot the
	// first one resumes it, and this one is refused while that one lives.
	twin := spawn("twin", nil, filepath.Join(bin, "pinned-agent"), "--sid", pin.SessionID)
	eventually.True(t, 20*time.Second, "the twin to start", func() bool { return len(toyLines(log)) == 3 })
	if got := infoOf(t, env, twin).SessionID; got != pin.SessionID {
		t.Fatalf("the twin's id, named by its command: %q, want %q", got, pin.SessionID)
	}
	start := toyLines(log)
	if !slices.Contains(start, "start "+pin.SessionID+" "+wt+" mark=pinned args= do-the-task") ||
		!slices.Contains(start, "start "+learn.SessionID+" "+canon(t, dir)+" mark=learnt args=") {
		t.Fatalf("the toys started as %q; want pinned with %s, learnt with %s", start, pin.SessionID, learn.SessionID)
	}
	// The reboot: the server and the keeper as they are now, and the runs, each of
	// them still there (a process gone before it is named, not left to a bare pid).
	srv, keeper := serverPID(t, state), keeperPID(t, state)
	var procs []int
	for _, id := range []string{pinned, learnt, plain, twin} {
		procs = append(procs, infoOf(t, env, id).PID)
	}
	// All pinned before any is killed: once the keeper is gone, the runs lose their
	// terminal and may end of its hangup before their own kill.
	var pins []reaper.Fingerprint
	for i, pid := range append([]int{keeper, srv}, procs...) {
		fp, err := reaper.Identify(pid)
		if err != nil {
			t.Fatalf("%s (pid %d) is gone before the reboot: %v", []string{"the keeper", "the server", "pinned", "learnt", "plain", "twin"}[i], pid, err)
		}
		pins = append(pins, fp)
	}
	for _, fp := range pins {
		fp.Signal(syscall.SIGKILL) // an error: it ended already, as a reboot would have ended it
	}
	for _, pid := range append([]int{keeper, srv}, procs...) {
		waitGone(t, pid, "a process of the rebooted machine")
	}
	began := time.Now()
	first := agentCorral(t, env, "restore")
	t.Logf("corral restore after the reboot (a server started, the records reconciled, 2 runs restored): %v", time.Since(began))
	endLater(t, testkit.Pin(t, serverPID(t, state)), syscall.SIGTERM, "the server after the reboot")
	if first.code != 0 {
		t.Fatalf("restore: %+v", first)
	}
	eventually.True(t, 20*time.Second, "the restored toys to start", func() bool { return len(toyLines(log)) == 5 })
	again := toyLines(log)[3:]
	if !slices.Contains(again, "resume "+pin.SessionID+" "+wt+" mark=pinned args=") ||
		!slices.Contains(again, "resume "+learn.SessionID+" "+canon(t, dir)+" mark=learnt args=") {
		t.Fatalf("restored as %q; want both resumed with their ids, in %s, the prompt not again\n%s", again, dir, first.stdout)
	}
	if strings.Contains(first.stdout, plain) {
		t.Errorf("a plain command without restore = true was restored:\n%s", first.stdout)
	}
	if !strings.Contains(first.stdout, twin+" (twin): not restored: its conversation "+pin.SessionID+" is held by live run") {
		t.Errorf("the twin holding the pinned run's id was not refused:\n%s", first.stdout)
	}
	old := infoOf(t, env, pinned)
	if old.Reason != "lost" || old.RestoredBy == "" {
		t.Fatalf("the lost record: %+v", old)
	}
	next := infoOf(t, env, old.RestoredBy)
	if next.Name != "pinned" || next.State != "running" || next.SessionID != pin.SessionID || next.RestoredFrom != pinned ||
		next.Worktree == nil || *next.Worktree != *pin.Worktree {
		t.Errorf("the restored run: %+v", next)
	}
	if out, _ := exec.Command("git", "-C", dir, "worktree", "list", "--porcelain").Output(); strings.Count(string(out), "worktree ") != 2 {
		t.Errorf("the restore made another worktree:\n%s", out)
	}
	if got := infoOf(t, env, infoOf(t, env, learnt).RestoredBy); got.SessionID != learn.SessionID {
		t.Errorf("the restored learnt run holds %q, want %q", got.SessionID, learn.SessionID)
	}

	// Never twice: a second restore starts nothing and says why; naming the run fails.
	second := agentCorral(t, env, "restore")
	if second.code != 0 || !strings.Contains(second.stdout, "restored already, as run "+old.RestoredBy) {
		t.Errorf("second restore: %+v", second)
	}
	if r := agentCorral(t, env, "restore", pinned); r.code == 0 || !strings.Contains(r.stderr, "restored already") {
		t.Errorf("restore of a restored run: %+v", r)
	}
	// By its name, which the run it restored has too: the lost one is meant.
	if r := agentCorral(t, env, "restore", "pinned"); r.code == 0 ||
		!strings.Contains(r.stderr, pinned+": restored already, as run "+old.RestoredBy) {
		t.Errorf("restore of a restored run by its name: %+v", r)
	}
	held := agentCorral(t, env, "restore", "twin")
	if held.code == 0 || !strings.Contains(held.stderr, "is held by live run "+old.RestoredBy) {
		t.Errorf("restore of an id a live run holds: %+v", held)
	}
	if n := len(toyLines(log)); n != 5 {
		t.Errorf("a second restore started something: %d lines", n)
	}
	agentCorral(t, env, "shutdown")
}

// canon is dir with its links resolved, as pwd -P prints it.
func canon(t *testing.T, dir string) string {
	p, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
