package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/runs/api"
	"corral/runs/client"
)

// A keeper nothing wedges, and a daemon that holds nothing of its caller: the binary
// moved and deleted under live runs, an upgrade target that never answers, SIGTERM to
// a keeper with no run and to one whose servers cannot come up, a caller's pipe and
// jobserver descriptors.

// The binary the keeper and server run is moved, then deleted, with a run live; the
// server is killed: the keeper still starts a server (through the descriptor it holds),
// the run goes on under it with the same pid, and that server starts new runs.
func TestKeeperServesAfterItsBinaryIsDeleted(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	bin := copyOfCorral(t)
	if r := withBin(t, bin, state, "spawn", "--name", "live", "--", "sleep", "300"); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	keeper, old := keeperPID(t, state), serverPID(t, state)
	endLater(t, testkit.Pin(t, keeper), syscall.SIGKILL, "keeper") // only if the test failed
	before := lsRuns(t, state)["live"]
	moved := bin + ".moved"
	if err := os.Rename(bin, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(moved); err != nil {
		t.Fatal(err)
	}
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	next := newServerPID(t, state, old)
	if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", next)); exe != bin+" (deleted)" && exe != moved+" (deleted)" {
		t.Errorf("the new server runs %q, want the deleted binary", exe)
	}
	// Started through the descriptor the keeper holds, it still goes by its binary's
	// name (ps, pgrep), not the descriptor's number.
	want := filepath.Base(bin)
	want = want[:min(len(want), 15)]
	if comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", next)); strings.TrimSpace(string(comm)) != want {
		t.Errorf("the new server is named %q, want %q", strings.TrimSpace(string(comm)), want)
	}
	if after := lsRuns(t, state)["live"]; after.PID != before.PID || after.State != "running" {
		t.Fatalf("the run across the server's death: before %+v, after %+v", before, after)
	}
	for _, pty := range []bool{false, true} {
		args := []string{"spawn", "--name", fmt.Sprintf("after-pty-%v", pty), "--", "sh", "-c", "echo started"}
		if pty {
			args = append(args[:1], append([]string{"--pty"}, args[1:]...)...)
		}
		if r := serverCorral(t, state, args...); r.code != 0 {
			t.Fatalf("spawn under the server of a deleted binary: %+v", r)
		}
	}
}

// upgradeTo asks the state dir's server to hand its runs to exe, as corral server
// --upgrade does with its own binary.
func upgradeTo(t *testing.T, state, exe string) api.UpgradeReply {
	t.Helper()
	conn, err := client.DialSocket(state)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	args, _ := json.Marshal(api.UpgradeArgs{Exe: exe})
	if err := json.NewEncoder(conn).Encode(api.Request{V: api.Version, Verb: api.Upgrade.Name(), Args: args}); err != nil {
		t.Fatal(err)
	}
	var resp api.Response
	if err := json.NewDecoder(conn).Decode(&resp); err != nil || resp.Error != nil {
		t.Fatalf("upgrade: %v %+v", err, resp.Error)
	}
	var rep api.UpgradeReply
	json.Unmarshal(resp.Result, &rep)
	return rep
}

// An upgrade to a binary that starts and never answers: the keeper kills it within its
// bound and starts its own binary again, whose server takes the run back before its
// lease (10 s) could expire; nothing is reaped.
func TestUpgradeTargetThatNeverAnswers(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	if r := serverCorral(t, state, "spawn", "--name", "live", "--", "sleep", "300"); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGKILL, "keeper") // only if the test failed
	dir := t.TempDir()
	pidFile, script := filepath.Join(dir, "pid"), filepath.Join(dir, "hangs")
	os.WriteFile(script, fmt.Appendf(nil, "#!/bin/sh\necho $$ > %s.tmp; mv %s.tmp %s\nexec sleep 300\n", pidFile, pidFile, pidFile), 0o755)
	before := lsRuns(t, state)["live"]
	old := serverPID(t, state)
	start := time.Now()
	if rep := upgradeTo(t, state, script); rep.PID != old {
		t.Fatalf("upgrade answered by pid %d, want %d", rep.PID, old)
	}
	var hung int
	eventually.True(t, 10*time.Second, "the keeper to start the target", func() bool {
		b, _ := os.ReadFile(pidFile)
		hung, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return hung > 1
	})
	endLater(t, testkit.Pin(t, hung), syscall.SIGKILL, "the target") // only if the test failed
	next := newServerPID(t, state, old)
	took := time.Since(start)
	t.Logf("upgrade to a target that never answers: the keeper's own binary serves %s after the request", took.Round(time.Millisecond))
	if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", next)); exe != corralBin {
		t.Errorf("the server after the failed upgrade runs %q, want %q", exe, corralBin)
	}
	if took >= 10*time.Second {
		t.Errorf("the runs had no server for %s: over a lease (10 s)", took)
	}
	waitGone(t, hung, "the target that never answered")
	if after := lsRuns(t, state)["live"]; after.PID != before.PID || after.State != "running" {
		t.Fatalf("the run across the failed upgrade: before %+v, after %+v", before, after)
	}
	if ev := readEvents(t, state); strings.Contains(ev, "orphan-reaped") || strings.Contains(ev, `"reason":"supervisor-shutdown"`) {
		t.Errorf("a run was ended by the failed upgrade:\n%s", ev)
	}
	if log, _ := os.ReadFile(filepath.Join(state, "keeper.log")); !strings.Contains(string(log), "did not answer") {
		t.Errorf("keeper.log does not say the target did not answer:\n%s", log)
	}
}

// SIGTERM to a keeper with no run, whose server does not end (stopped): the keeper
// ends within its bound, and its server with it.
func TestIdleKeeperEndsOnSIGTERM(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	k := withState(corralCmd(corralBin, "server", "--daemon"), state)
	if err := k.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = k.Wait(); close(exited) }()
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			k.Process.Kill()
			<-exited
		}
	})
	var srv int
	eventually.True(t, 20*time.Second, "the server to answer", func() bool {
		c, err := client.Dial(state)
		if err == nil {
			srv = c.Hello.PID
			c.Close()
		}
		return err == nil
	})
	fp := testkit.Pin(t, srv)
	fp.Signal(syscall.SIGSTOP)
	t.Cleanup(func() { fp.Signal(syscall.SIGCONT) })
	start := time.Now()
	k.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
		t.Logf("an idle keeper whose server is stopped ended %s after SIGTERM (%v)", time.Since(start).Round(time.Millisecond), waitErr)
	case <-time.After(20 * time.Second):
		t.Fatalf("the keeper with no run did not end on SIGTERM")
	}
	waitGone(t, srv, "its server")
}

// The keeper's servers cannot come up (another process holds the server lock) while
// it keeps a run: after its tries the keeper says so in keeper.log and keeper.status;
// corral kill, doctor and ls say the keeper runs but its server does not, and why —
// never "no server running"; SIGTERM makes it say what it keeps and how to end it,
// and it goes on; once the lock is free a server comes up with the run.
func TestKeeperWithoutServerSaysSo(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	if r := serverCorral(t, state, "spawn", "--name", "live", "--", "sleep", "300"); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	run := recordedPID(t, state, "live")
	keeper, old := keeperPID(t, state), serverPID(t, state)
	kfp := testkit.Pin(t, keeper)
	endLater(t, kfp, syscall.SIGKILL, "keeper") // only if the test failed
	t.Cleanup(func() { kfp.Signal(syscall.SIGCONT) })
	// The keeper waits while the server dies and the lock is taken: its next servers
	// find the lock held.
	kfp.Signal(syscall.SIGSTOP)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	lock, err := os.OpenFile(filepath.Join(state, "server.lock"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	// A killed server reads as a zombie before its last thread has let go of its files.
	eventually.True(t, 10*time.Second, "the server lock to be free", func() bool {
		return syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
	})
	kfp.Signal(syscall.SIGCONT)

	eventually.Value(t, 30*time.Second, "keeper.status to say no server came up", func() (string, bool) {
		b, _ := os.ReadFile(filepath.Join(state, "keeper.status"))
		var st struct {
			Failures int `json:"failures"`
		}
		json.Unmarshal(b, &st)
		return string(b), st.Failures >= 3
	})
	down := fmt.Sprintf("the keeper (pid %d) is running but its server is not: ", keeper)
	if log, _ := os.ReadFile(filepath.Join(state, "keeper.log")); !strings.Contains(string(log), "no server could be started") ||
		!strings.Contains(string(log), "already running") {
		t.Errorf("keeper.log:\n%s", log)
	}
	r := serverCorral(t, state, "kill", "live")
	t.Logf("corral kill while no server comes up: %s", r.stderr)
	if r.code == 0 || !strings.Contains(r.stderr, down) || strings.Contains(r.stderr, "no corral server") {
		t.Errorf("kill while no server comes up: %+v", r)
	}
	kept := fmt.Sprintf("left-alone\tpid %d\tkept by the keeper (pid %d), whose server is down: ", run, keeper)
	if r := serverCorral(t, state, "reconcile"); r.code != 0 || !strings.Contains(r.stdout, kept) || !strings.Contains(r.stdout, "no server came up in") {
		t.Errorf("reconcile while the keeper keeps the runs: %+v", r)
	}
	spawnStart := time.Now()
	if r := serverCorral(t, state, "spawn", "--", "true"); r.code == 0 || !strings.Contains(r.stderr, down) || time.Since(spawnStart) > 5*time.Second {
		t.Errorf("spawn while no server comes up (%s): %+v", time.Since(spawnStart).Round(time.Millisecond), r)
	}
	if r := serverCorral(t, state, "doctor"); !strings.Contains(r.stdout, down) || !strings.Contains(r.stdout, "no server came up in") {
		t.Errorf("doctor while no server comes up:\n%s", r.stdout)
	}
	if r := serverCorral(t, state, "ls"); !strings.Contains(r.stderr, down) {
		t.Errorf("ls while no server comes up: %+v", r)
	}

	kfp.Signal(syscall.SIGTERM)
	eventually.Value(t, 10*time.Second, "the keeper to say what it keeps", func() (string, bool) {
		log, _ := os.ReadFile(filepath.Join(state, "keeper.log"))
		return string(log), strings.Contains(string(log), "it keeps 1 run(s)") && strings.Contains(string(log), fmt.Sprintf("kill %d", run))
	})
	for _, p := range []struct {
		pid  int
		what string
	}{{keeper, "the keeper"}, {run, "the run"}} {
		if pr, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.pid)); err != nil || strings.Contains(string(pr), ") Z ") {
			t.Fatalf("%s (pid %d) ended on SIGTERM: it keeps runs", p.what, p.pid)
		}
	}

	lock.Close() // the next try comes up
	newServerPID(t, state, old)
	if r := lsRuns(t, state)["live"]; r.PID != run || r.State != "running" {
		t.Fatalf("the run once a server is back: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(state, "keeper.status")); err != nil {
		t.Fatalf("keeper.status: %v", err)
	}
	if r := serverCorral(t, state, "doctor"); strings.Contains(r.stdout, "no server came up") {
		t.Errorf("doctor once a server is back:\n%s", r.stdout)
	}
}

// pipeInode is the inode of the pipe f is an end of, as /proc/PID/fd shows it.
func pipeInode(t *testing.T, f *os.File) string {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("pipe:[%d]", st.Ino)
}

// holding lists the descriptors of pid that are one of pipes.
func holding(pid int, pipes ...string) []string {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil {
			for _, p := range pipes {
				if l == p {
					out = append(out, e.Name()+"→"+l)
				}
			}
		}
	}
	return out
}

// A caller with a pipe on fd 7 and a jobserver's pair on 8 and 9 (make's
// --jobserver-auth) spawns the state dir's first run, which starts the keeper and the
// server: spawn returns at once, the pipe's reader sees EOF once the caller has
// exited, and neither the keeper, the server nor the run holds any of them.
func TestSpawnLeavesCallersDescriptors(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	jr, jw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pipes := []string{pipeInode(t, r), pipeInode(t, jr)}
	cmd := withState(corralCmd(corralBin, "spawn", "--name", "job", "--", "sleep", "300"), state)
	cmd.Env = append(cmd.Env, "MAKEFLAGS= -j4 --jobserver-auth=8,9")
	cmd.ExtraFiles = []*os.File{nil, nil, nil, nil, w, jr, jw} // fds 7, 8 and 9
	start := time.Now()
	res := run(t, cmd)
	w.Close()
	jr.Close()
	jw.Close()
	if res.code != 0 {
		t.Fatalf("spawn: %+v", res)
	}
	spawned := time.Since(start)
	eof := make(chan error, 1)
	go func() { _, err := io.ReadAll(r); eof <- err }()
	keeper, srv := keeperPID(t, state), serverPID(t, state)
	job := lsRuns(t, state)["job"].PID
	select {
	case <-eof:
		t.Logf("spawn with fds 7-9 open returned in %s; the pipe's reader saw EOF %s after", spawned.Round(time.Millisecond),
			(time.Since(start) - spawned).Round(time.Millisecond))
	case <-time.After(10 * time.Second):
		t.Errorf("the pipe on fd 7 saw no EOF: the keeper holds %v, the server %v, the run %v",
			holding(keeper, pipes...), holding(srv, pipes...), holding(job, pipes...))
	}
	for _, p := range []struct {
		pid  int
		what string
	}{{keeper, "the keeper"}, {srv, "the server"}, {job, "the run"}} {
		if h := holding(p.pid, pipes...); len(h) > 0 || p.pid <= 1 {
			t.Errorf("%s (pid %d) holds the caller's descriptors: %v", p.what, p.pid, h)
		}
	}
}
