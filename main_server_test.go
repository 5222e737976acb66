package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// serverCmd is corral with the given state dir (the server is per state dir).
func serverCorral(t testing.TB, state string, args ...string) result {
	t.Helper()
	cmd := corral(t, args...)
	cmd.Env = append(cmd.Env, "CORRAL_STATE_DIR="+state)
	return run(t, cmd)
}

// serverPID reads the running server's pid from its lock file.
func serverPID(t testing.TB, state string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(state, "server.lock"))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		t.Fatalf("server pid: %q %v", b, err)
	}
	return pid
}

// endLater sends sig to fp when the test ends, if it is still that process, and
// waits for it to go. By fingerprint, not number: by then the process may be long
// gone and its number another process's (numbers wrap within minutes on a busy
// machine).
func endLater(t *testing.T, fp reaper.Fingerprint, sig syscall.Signal, what string) {
	t.Cleanup(func() {
		if fp.Signal(sig) == nil {
			waitGone(t, fp.PID, what)
		}
	})
}

// waitGone waits for pid to be gone (or a zombie nobody has reaped yet).
func waitGone(t testing.TB, pid int, what string) {
	t.Helper()
	eventually.True(t, 15*time.Second, fmt.Sprintf("%s (pid %d) to be gone", what, pid), func() bool {
		p, err := reaper.ReadProc(pid)
		return err != nil || p.State == 'Z'
	})
}

// A script drives a run through the server, which spawn starts on demand: send-keys
// reaches the program, poll shows its reply, wait with a timeout gives up with 124,
// kill ends it (manual-cancel, verified empty), wait prints corral run's report and
// exits as corral run would; shutdown ends the server, and nothing is left.
func TestServerControlVerbs(t *testing.T) {
	state := t.TempDir()
	sp := serverCorral(t, state, "spawn", "--pty", "--name", "echoer", "--shell", "--", `while read l; do echo "got $l"; done`)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 || !strings.HasPrefix(id, "r") {
		t.Fatalf("spawn: %+v", sp)
	}
	srvPID := serverPID(t, state)
	endLater(t, testkit.Pin(t, srvPID), syscall.SIGTERM, "server")
	if r := serverCorral(t, state, "send-keys", "echoer", "hello", "Enter"); r.code != 0 {
		t.Fatalf("send-keys: %+v", r)
	}
	var seen string
	eventually.Value(t, 10*time.Second, "poll to show the reply", func() (string, bool) {
		seen += serverCorral(t, state, "poll", id, "--wait", "1s").stdout
		return seen, strings.Contains(seen, "got hello")
	})
	if r := serverCorral(t, state, "wait", id, "--timeout", "50ms"); r.code != 124 {
		t.Errorf("wait --timeout on a live run: %+v", r)
	}
	if r := serverCorral(t, state, "kill", id[:5]); r.code != 0 {
		t.Fatalf("kill by id prefix: %+v", r)
	}
	w := serverCorral(t, state, "wait", "--json", id)
	var rep struct {
		Reason  string `json:"reason"`
		Cleanup struct {
			VerifiedEmpty bool `json:"verified_empty"`
		} `json:"cleanup"`
		PID int `json:"pid"`
	}
	if err := json.Unmarshal([]byte(w.stdout), &rep); err != nil || w.code != 130 ||
		rep.Reason != "manual-cancel" || !rep.Cleanup.VerifiedEmpty {
		t.Fatalf("wait: %v %+v %+v", err, w, rep)
	}
	if !summaryRE.MatchString(w.stderr) {
		t.Errorf("wait's summary line: %q", w.stderr)
	}
	if r := serverCorral(t, state, "poll", "nope"); r.code != 1 || !strings.Contains(r.stderr, `no run "nope"`) {
		t.Errorf("poll of an unknown run: %+v", r)
	}
	if r := serverCorral(t, state, "shutdown"); r.code != 0 {
		t.Fatalf("shutdown: %+v", r)
	}
	waitGone(t, srvPID, "server after shutdown")
	waitGone(t, rep.PID, "the run's process")
	if r := serverCorral(t, state, "poll", id); r.code != 1 || !strings.Contains(r.stderr, "no corral server is running") {
		t.Errorf("poll with no server: %+v", r)
	}
}

// shutdown ends every live run with supervisor-shutdown, verified, before it answers.
func TestServerShutdownEndsRuns(t *testing.T) {
	state := t.TempDir()
	var ids []string
	for range 3 {
		sp := serverCorral(t, state, "spawn", "--", "sleep", "300")
		if sp.code != 0 {
			t.Fatalf("spawn: %+v", sp)
		}
		ids = append(ids, strings.TrimSpace(sp.stdout))
	}
	srvPID := serverPID(t, state)
	var pids []int
	for _, id := range ids {
		var p struct {
			State string `json:"state"`
		}
		r := serverCorral(t, state, "poll", "--json", id)
		json.Unmarshal([]byte(r.stdout), &p)
		if p.State != "running" {
			t.Fatalf("%s: %+v", id, r)
		}
	}
	list := serverCorral(t, state, "ls", "--json")
	var ls struct {
		Runs []struct {
			PID int `json:"pid"`
		} `json:"runs"`
	}
	json.Unmarshal([]byte(list.stdout), &ls)
	for _, r := range ls.Runs {
		pids = append(pids, r.PID)
	}
	if len(pids) != 3 {
		t.Fatalf("ls: %s", list.stdout)
	}
	if r := serverCorral(t, state, "shutdown", "--json"); r.code != 0 || !strings.Contains(r.stdout, `"ended": 3`) {
		t.Fatalf("shutdown: %+v", r)
	}
	waitGone(t, srvPID, "server")
	for _, pid := range pids {
		if p, err := reaper.ReadProc(pid); err == nil && p.State != 'Z' {
			t.Errorf("run pid %d alive after shutdown", pid)
		}
	}
}

// The terminal closes, the runs go on: a UI attached to the server shows a run a
// script spawned, sends it keys and shows its screen through the socket; the tmux
// server that holds the UI is killed (the terminal closing: SIGHUP); the runs are
// still alive and keep their output; a new terminal attaches and shows what was
// written meanwhile; the shutdown key ends every run and the server.
func TestAttachDetachReattach(t *testing.T) {
	state := t.TempDir()
	sp := serverCorral(t, state, "spawn", "--pty", "--name", "echoer", "--shell", "--", `while read l; do echo "got $l"; done`)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	srvPID := serverPID(t, state)
	endLater(t, testkit.Pin(t, srvPID), syscall.SIGTERM, "server")
	attach := fmt.Sprintf("env CORRAL_STATE_DIR=%s %s attach", state, corralBin)
	x := startTmux(t, 120, 40, attach)
	x.waitFor(`echoer\s+pty\s+running`, 20*time.Second)

	// A run a script spawns while the UI is attached shows up in it.
	if r := serverCorral(t, state, "spawn", "--name", "scripted", "--", "sleep", "300"); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	x.waitFor(`scripted\s+pipe\s+running`, 20*time.Second)
	// Nobody touched the UI: the new run took the selection (ui/follow.go). Back up.
	x.waitFor(`Details scripted r`, 10*time.Second)
	x.keys("k")
	x.waitFor(`Details echoer r`, 10*time.Second)

	// Keys typed in focus reach the run; its screen comes back as frames.
	x.typeInFocus("hello", `got hello`)

	// The terminal goes away.
	x.run("kill-server")
	if r := serverCorral(t, state, "send-keys", "echoer", "while-away", "Enter"); r.code != 0 {
		t.Fatalf("the run did not outlive the terminal: %+v", r)
	}
	var seen string
	eventually.Value(t, 10*time.Second, "output written while detached", func() (string, bool) {
		seen += serverCorral(t, state, "poll", "echoer", "--wait", "1s").stdout
		return seen, strings.Contains(seen, "got while-away")
	})

	// Back in a new terminal: everything is there, with what was written meanwhile.
	y := startTmux(t, 120, 40, attach)
	y.waitFor(`scripted\s+pipe\s+running`, 20*time.Second)
	y.waitFor(`got while-away`, 10*time.Second)

	// The shutdown key ends every run and the server.
	y.keys("Q")
	y.answer(`2 live run\(s\) will be ended`, "y")
	y.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
	waitGone(t, srvPID, "server after shutdown")
	assertEnded(t, state, 2, "supervisor-shutdown")
}

// attach --ssh runs each of its connections through `ssh HOST corral proxy`. Here
// $CORRAL_SSH is a stand-in for ssh that runs the command on this host (the
// real-sshd tests are main_hosts_linux_test.go's): the proxy bridges to the server,
// the UI shows its runs and drives them, and detaching leaves no proxy behind.
func TestAttachOverSSHProxy(t *testing.T) {
	state := serverState(t) // its server and keeper gone before the dir: the keeper writes keeper.status as its server ends
	sp := serverCorral(t, state, "spawn", "--pty", "--name", "far", "--shell", "--", `while read l; do echo "far $l"; done`)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	fakeSSH := filepath.Join(t.TempDir(), "fake-ssh")
	// ssh's arguments: its options, "--", the host, and the remote command as one line.
	os.WriteFile(fakeSSH, []byte("#!/bin/sh\nwhile [ \"$1\" != -- ]; do shift; done\nshift 2\nexec sh -c \"$1\"\n"), 0o755)
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_SSH=%s PATH=%s:$PATH %s attach --ssh somehost --state-dir %s",
		fakeSSH, filepath.Dir(corralBin), corralBin, state))
	x.waitFor(`far\s+pty\s+running`, 20*time.Second)
	x.typeInFocus("hi", `far hi`)
	x.keys("D")
	x.waitFor(`CORRAL-EXIT=0`, 10*time.Second)
	if r := serverCorral(t, state, "poll", "--json", "far"); !strings.Contains(r.stdout, `"state": "running"`) {
		t.Errorf("the run did not outlive the detach: %+v", r)
	}
}

// typeInFocus focuses the selected run, types a line, waits for want on the screen
// and leaves focus.
func (x *tmuxTerm) typeInFocus(line, want string) {
	x.t.Helper()
	x.keys("Enter")
	x.waitFor(`FOCUS`, 10*time.Second)
	x.text(line)
	x.keys("Enter")
	x.waitFor(want, 10*time.Second)
	x.keys("C-]")
}

// serverState is a state dir whose server, if a test's UI started one, is shut down
// (every run ended) and waited for when the test ends.
func serverState(t testing.TB) string {
	t.Helper()
	state := t.TempDir()
	t.Cleanup(func() {
		b, err := os.ReadFile(filepath.Join(state, "server.lock"))
		if err != nil {
			return
		}
		keeper, _ := os.ReadFile(filepath.Join(state, "keeper.lock"))
		serverCorral(t, state, "shutdown")
		if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid > 1 {
			waitGone(t, pid, "server")
		}
		if pid, _ := strconv.Atoi(strings.TrimSpace(string(keeper))); pid > 1 {
			waitGone(t, pid, "keeper") // it follows once it keeps nothing
		}
	})
	return state
}

// corral --config starts the config's runs in the server; opened again while they run
// it attaches to them instead of starting them twice. corral -- CMD always starts CMD.
func TestConfigRunsStartOnce(t *testing.T) {
	state, dir := serverState(t), t.TempDir()
	cfg := filepath.Join(dir, "corral.toml")
	os.WriteFile(cfg, []byte("[[run]]\nname = \"svc\"\ncmd = \"echo svc-up; sleep 300\"\n"), 0o644)
	open := fmt.Sprintf("env CORRAL_STATE_DIR=%s %s --config %s", state, corralBin, cfg)
	x := startTmux(t, 120, 40, open)
	x.waitFor(`svc\s+pipe\s+running`, 20*time.Second)
	x.keys("D")
	x.waitFor(`CORRAL-EXIT=0`, 10*time.Second)
	y := startTmux(t, 120, 40, open)
	y.waitFor(`svc\s+pipe\s+running`, 20*time.Second)
	y.keys("D")
	y.waitFor(`CORRAL-EXIT=0`, 10*time.Second)
	if reps := registry(t, state); len(reps) != 1 {
		t.Fatalf("the config's run was started %d times: %+v", len(reps), reps)
	}
	z := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s -- sleep 300", state, corralBin))
	z.waitFor(`sleep\s+pty\s+running`, 20*time.Second)
	z.keys("D")
	z.waitFor(`CORRAL-EXIT=0`, 10*time.Second)
	if reps := registry(t, state); len(reps) != 2 {
		t.Fatalf("corral -- CMD did not start its run: %+v", reps)
	}
}

// With more PTY runs than the frames a UI keeps streamed, the pane still shows the
// selected run's screen, whichever it is (the UI names it: Core.Watch).
func TestAttachedScreensFollowSelection(t *testing.T) {
	state := serverState(t)
	for i := 1; i <= 6; i++ {
		r := serverCorral(t, state, "spawn", "--pty", "--name", fmt.Sprintf("p%d", i), "--shell", "--",
			fmt.Sprintf("echo screen-of-p%d; exec cat", i))
		if r.code != 0 {
			t.Fatalf("spawn: %+v", r)
		}
	}
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s attach", state, corralBin))
	x.waitFor(`screen-of-p1`, 20*time.Second)
	for i := 2; i <= 6; i++ {
		x.keys("j")
		x.waitFor(fmt.Sprintf("screen-of-p%d", i), 10*time.Second)
	}
	x.keys("D")
	x.waitFor(`CORRAL-EXIT=0`, 10*time.Second)
}

// A run spawned through the server starts where its client is, with the client's
// environment and PATH, not the server's (which is / and the first client's).
func TestSpawnRunsWhereTheClientIs(t *testing.T) {
	state := serverState(t)
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "only-here"), []byte("#!/bin/sh\necho found-on-client-path\n"), 0o755)
	work := t.TempDir()
	cmd := corral(t, "spawn", "--name", "where", "--shell", "--", `pwd; echo "v=$CLIENT_ONLY"; only-here`)
	cmd.Env = append(cmd.Env, "CORRAL_STATE_DIR="+state, "CLIENT_ONLY=yes", "PATH="+bin+":"+os.Getenv("PATH"))
	cmd.Dir = work
	if r := run(t, cmd); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	w := serverCorral(t, state, "wait", "where")
	out := serverCorral(t, state, "log", "where").stdout
	if w.code != 0 || !strings.Contains(out, work+"\n") || !strings.Contains(out, "v=yes") ||
		!strings.Contains(out, "found-on-client-path") {
		t.Fatalf("wait %+v, log:\n%s", w, out)
	}
}

// A run starts with the default action for SIGHUP and SIGINT whatever its caller
// ignored: a Corral under nohup or started as a script's background job, and the
// server itself (it ignores SIGHUP to outlive its terminal), used to hand their
// ignores to every run, so the hang-up step and interrupt did nothing.
func TestRunsStartWithDefaultSignals(t *testing.T) {
	const show = `grep SigIgn /proc/self/status`
	ignoring := func(args ...string) *exec.Cmd { // corral with SIGHUP and SIGINT ignored
		return exec.Command("sh", append([]string{"-c", `trap '' HUP INT; exec "$@"`, "sh", corralBin}, args...)...)
	}
	check := func(t *testing.T, out string) {
		t.Helper()
		m := regexp.MustCompile(`SigIgn:\s*([0-9a-f]+)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no SigIgn in %q", out)
		}
		mask, _ := strconv.ParseUint(m[1], 16, 64)
		if hupInt := uint64(1<<0 | 1<<1); mask&hupInt != 0 {
			t.Fatalf("the run ignores SIGHUP or SIGINT: SigIgn %s", m[1])
		}
	}
	t.Run("run", func(t *testing.T) {
		cmd := ignoring("run", "--", "sh", "-c", show)
		cmd.Env = append(os.Environ(), "CORRAL_STATE_DIR="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		check(t, string(out))
	})
	t.Run("server", func(t *testing.T) {
		state := serverState(t)
		cmd := ignoring("spawn", "--pty", "--", "sh", "-c", show)
		cmd.Env = append(os.Environ(), "CORRAL_STATE_DIR="+state)
		id, err := cmd.Output()
		if err != nil {
			t.Fatalf("spawn: %v", err)
		}
		serverCorral(t, state, "wait", strings.TrimSpace(string(id)), "--timeout", "20s")
		check(t, serverCorral(t, state, "log", strings.TrimSpace(string(id))).stdout)
	})
}
