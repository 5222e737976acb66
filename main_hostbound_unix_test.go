//go:build unix

package main

import (
	"context"
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

	"corral/demo/testkit/eventually"
)

// fakeHost is a [[host]] "far" reached through a fake ssh: a script put in
// $CORRAL_SSH that does what script says, each instance's pid noted.
type fakeHost struct {
	t     *testing.T
	env   []string
	pids  string // the file each fake ssh appends its pid to
	state string // this machine's state dir
}

// newFakeHost writes the fake ssh (script: what it runs after noting its pid; its
// arguments are ssh's, the remote command line last) and a config naming host far
// with extra lines in its entry.
func newFakeHost(t *testing.T, script, extra string) *fakeHost {
	t.Helper()
	dir := t.TempDir()
	h := &fakeHost{t: t, pids: filepath.Join(dir, "pids"), state: serverState(t)}
	ssh := filepath.Join(dir, "fake-ssh")
	if err := os.WriteFile(ssh, []byte("#!/bin/sh\necho $$ >> "+h.pids+"\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "corral.toml")
	if err := os.WriteFile(cfg, []byte("[[host]]\nname = \"far\"\nssh = \"far\"\n"+extra), 0o644); err != nil {
		t.Fatal(err)
	}
	h.env = []string{"CORRAL_SSH=" + ssh, "CORRAL_CONFIG=" + cfg, "CORRAL_STATE_DIR=" + h.state}
	t.Cleanup(h.noneLeft)
	return h
}

// corral runs corral with the fake host, killed after limit (a hang is a failure,
// not a hung test), and says how long it took.
func (h *fakeHost) corral(limit time.Duration, args ...string) (result, time.Duration) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, corralBin, args...)
	cmd.Env = append(os.Environ(), h.env...)
	start := time.Now()
	r := run(h.t, cmd)
	took := time.Since(start)
	if ctx.Err() != nil {
		h.t.Errorf("corral %s: still running after %s, killed: %+v", strings.Join(args, " "), limit, r)
	}
	return r, took
}

// noneLeft checks that every fake ssh has ended: none outlives the command that
// started it.
func (h *fakeHost) noneLeft() {
	b, _ := os.ReadFile(h.pids)
	for _, f := range strings.Fields(string(b)) {
		pid, _ := strconv.Atoi(f)
		if pid <= 1 {
			continue
		}
		eventually.True(h.t, 10*time.Second, fmt.Sprintf("fake ssh %d to end", pid), func() bool {
			return syscall.Kill(pid, 0) != nil
		})
	}
}

// A host whose ssh never answers (a fake that says nothing and never exits, as one
// stuck connecting): ls shows this machine's runs and the host's error within
// --timeout; kill and poll --host return once their --timeout has passed, each with
// one line saying so, and spawn --host (whose --timeout is the run's) after the
// default bound; no ssh is left behind.
func TestHostNeverAnswers(t *testing.T) {
	h := newFakeHost(t, "exec sleep 3600", "")
	if r, _ := h.corral(time.Minute, "spawn", "--name", "here", "--", "sleep", "600"); r.code != 0 {
		t.Fatalf("spawn here: %+v", r)
	}
	ls, took := h.corral(30*time.Second, "ls", "--timeout", "3s")
	if ls.code != 1 || !lsRow("local", "here", "pipe", "running").MatchString(ls.stdout) ||
		!strings.Contains(ls.stderr, "corral ls: host far (ssh far): the server does not answer within 3s") || took > 8*time.Second {
		t.Errorf("ls with a host that never answers, after %s: %+v", took, ls)
	}
	if !regexp.MustCompile(`(?m)^far\s+not listed: host far \(ssh far\): the server does not answer within 3s`).MatchString(ls.stdout) {
		t.Errorf("ls's table does not say host far was not listed:\n%s", ls.stdout)
	}
	t.Logf("ls --timeout 3s returned after %s", took.Round(time.Millisecond))
	for _, verb := range [][]string{{"kill", "--host", "far", "--timeout", "5s", "here"}, {"poll", "--host", "far", "--timeout", "2s", "here"}} {
		r, took := h.corral(30*time.Second, verb...)
		if r.code != 1 || !regexp.MustCompile(`^corral `+verb[0]+`: host far \(ssh far\): the server does not answer within [25]s: ssh did not connect, or corral there did not greet`).MatchString(r.stderr) ||
			took > 10*time.Second {
			t.Errorf("%s with a host that never answers, after %s: %+v", strings.Join(verb, " "), took, r)
		}
		t.Logf("%s returned after %s", strings.Join(verb, " "), took.Round(time.Millisecond))
	}
	// spawn's --timeout is the run's: reaching the host has the default bound.
	r, took := h.corral(time.Minute, "spawn", "--host", "far", "--", "true")
	if r.code != 1 || !strings.Contains(r.stderr, "corral spawn: host far (ssh far): the server does not answer within 15s") || took > 25*time.Second {
		t.Errorf("spawn --host with a host that never answers, after %s: %+v", took, r)
	}
	t.Logf("spawn --host returned after %s", took.Round(time.Millisecond))
	if r, _ := h.corral(time.Minute, "poll", "here"); r.code != 0 {
		t.Errorf("the local run was touched: %+v", r)
	}
}

// A host that answers garbage for ever (a fake ssh printing "garbage" lines without
// end): ls shows this machine's runs and says the host's reply is not corral's, at
// once, without reading it all; a verb, spawn included, fails the same way; no ssh is
// left behind.
func TestHostAnswersGarbage(t *testing.T) {
	h := newFakeHost(t, "exec yes garbage", "")
	if r, _ := h.corral(time.Minute, "spawn", "--name", "here", "--", "sleep", "600"); r.code != 0 {
		t.Fatalf("spawn here: %+v", r)
	}
	ls, took := h.corral(30*time.Second, "ls")
	if ls.code != 1 || !lsRow("local", "here", "pipe", "running").MatchString(ls.stdout) ||
		!strings.Contains(ls.stderr, "corral ls: host far (ssh far): the reply is not corral's protocol") || took > 8*time.Second {
		t.Errorf("ls with a host that answers garbage, after %s: %+v", took, ls)
	}
	if !regexp.MustCompile(`(?m)^far\s+not listed: host far \(ssh far\): the reply is not corral's protocol`).MatchString(ls.stdout) {
		t.Errorf("ls's table does not say host far was not listed:\n%s", ls.stdout)
	}
	t.Logf("ls returned after %s", took.Round(time.Millisecond))
	for _, verb := range [][]string{{"kill", "--host", "far", "--timeout", "5s", "here"}, {"spawn", "--host", "far", "--", "true"}} {
		r, took := h.corral(30*time.Second, verb...)
		if r.code != 1 || !strings.Contains(r.stderr, `host far (ssh far): hello: the reply is not corral's protocol: it began "garbage\n"`) || took > 5*time.Second {
			t.Errorf("%s with a host that answers garbage, after %s: %+v", strings.Join(verb, " "), took, r)
		}
	}
}

// corral doctor takes --timeout for its hosts, as every verb that reaches a host
// does: a host whose ssh never answers is reported as not reached once it has
// passed, not after the default bound (15 s); no ssh is left behind.
func TestDoctorHostTimeout(t *testing.T) {
	h := newFakeHost(t, "exec sleep 3600", "")
	r, took := h.corral(30*time.Second, "doctor", "--timeout", "2s")
	if r.code != 1 || !regexp.MustCompile(`(?m)^host far:\s+ssh far: host far \(ssh far\): the server does not answer within 2s`).MatchString(r.stdout) ||
		took > 8*time.Second {
		t.Errorf("doctor --timeout 2s with a host that never answers, after %s: %+v", took, r)
	}
	t.Logf("doctor --timeout 2s returned after %s", took.Round(time.Millisecond))
}

// localSSH is a fake ssh that runs the remote command line on this machine, as ssh
// to localhost would: the host is this machine under another state dir.
const localSSH = `while [ "$1" != "--" ]; do shift; done
shift 2
exec sh -c "$*"`

// corral shutdown on a host with a UI attached over ssh: the server stays down. The
// UI's reconnects run corral proxy there without --start, which reaches a running
// server only; before, each one started a new server within a tenth of a second.
func TestShutdownWithSSHUIStaysDown(t *testing.T) {
	far := serverState(t)
	h := newFakeHost(t, localSSH, fmt.Sprintf("corral = %q\nstate_dir = %q\n", corralBin, far))
	if r, _ := h.corral(time.Minute, "spawn", "--host", "far", "--pty", "--name", "there", "--", "sleep", "600"); r.code != 0 {
		t.Fatalf("spawn --host far: %+v", r)
	}
	x := startTmux(t, 140, 40, "env "+strings.Join(h.env, " ")+" "+corralBin+" attach --ssh far")
	x.waitFor(`far · connected[\s\S]*there\s+pty\s+running`, 30*time.Second)
	if r, _ := h.corral(time.Minute, "shutdown", "--host", "far"); r.code != 0 || !strings.Contains(r.stderr, "server shut down; 1 live run(s) ended") {
		t.Fatalf("shutdown --host far: %+v", r)
	}
	x.waitFor(`far · unreachable`, 30*time.Second)
	// The UI tries again after half a second, then after 1, 2 s…: a few tries.
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); {
		if r := serverCorral(t, far, "info", "there"); !strings.Contains(r.stderr, "no corral server is running") {
			t.Fatalf("a server runs on far again after its shutdown, with the UI attached: %+v", r)
		}
		time.Sleep(200 * time.Millisecond) // sampled: what is checked is that nothing happens
	}
	x.keys("D")
	x.waitFor(`CORRAL-EXIT=0`, 10*time.Second)
}

// alive reports whether any fake ssh still runs.
func (h *fakeHost) alive() []int {
	b, _ := os.ReadFile(h.pids)
	var live []int
	for _, f := range strings.Fields(string(b)) {
		if pid, _ := strconv.Atoi(f); pid > 1 && syscall.Kill(pid, 0) == nil {
			live = append(live, pid)
		}
	}
	return live
}

// A UI attached to a host whose ssh never answers quits at once, and its ssh ends
// with it: when it detaches, and when it is killed outright (SIGKILL: the kernel
// ends ssh with its parent).
func TestUIWithHungHostEndsItsSSH(t *testing.T) {
	h := newFakeHost(t, "exec sleep 3600", "")
	ui := "env " + strings.Join(h.env, " ") + " " + corralBin + " attach --ssh far"
	x := startTmux(t, 140, 40, ui)
	x.waitFor(`far · connecting`, 30*time.Second)
	eventually.True(t, 10*time.Second, "the UI's ssh to start", func() bool { return len(h.alive()) > 0 })
	start := time.Now()
	x.keys("D")
	x.waitFor(`CORRAL-EXIT=0`, 10*time.Second)
	t.Logf("detached after %s", time.Since(start).Round(time.Millisecond))
	eventually.True(t, 5*time.Second, "no ssh left after the UI detached", func() bool { return len(h.alive()) == 0 })

	y := startTmux(t, 140, 40, ui)
	y.waitFor(`far · connecting`, 30*time.Second)
	eventually.True(t, 10*time.Second, "the second UI's ssh to start", func() bool { return len(h.alive()) > 0 })
	killed := false
	for _, p := range y.paneProcs() {
		if p.Comm == "corral" {
			syscall.Kill(p.PID, syscall.SIGKILL)
			killed = true
		}
	}
	if !killed {
		t.Fatal("no corral in the pane")
	}
	y.waitFor(`CORRAL-EXIT=137`, 10*time.Second)
	eventually.True(t, 5*time.Second, "no ssh left after the UI was killed", func() bool { return len(h.alive()) == 0 })
}
