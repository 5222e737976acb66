package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo"
	"corral/demo/testkit/eventually"
	"corral/reaper"
	"corral/runs"
)

// The cgroup backend where Corral's own cgroup is delegated to its user, as systemd
// delegates user@UID.service (Delegate=yes: the directory and its cgroup.procs,
// cgroup.threads and cgroup.subtree_control chowned to the user): the server, an
// unprivileged user's, started inside that cgroup with no CORRAL_CGROUP_ROOT, makes its
// runs' cgroups below it, says so (corral doctor, the hello), and ends a run by
// cgroup.kill. Built here by root: a cgroup made on the cgroup2 mount and delegated to
// nobody.

// delegation is a cgroup delegated to an unprivileged user for one test, and that
// user's corral: its binary, home and state dir.
type delegation struct {
	t          *testing.T
	cgroup     string // the delegated cgroup
	fd         int    // its directory, open: commands start inside it
	uid, gid   int
	bin, state string
	env        []string
}

// delegate makes a cgroup on the cgroup2 mount and delegates it to nobody as systemd
// does (files is which of its files are chowned with the directory); everything in it
// is killed and it is removed when the test ends. It skips where that cannot be done.
func delegate(t *testing.T, files ...string) *delegation {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("delegating a cgroup to another user needs root")
	}
	mount, err := reaper.Cgroup2Mount()
	if err != nil {
		t.Skip("no cgroup2 mount: ", err)
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skip("no user nobody: ", err)
	}
	uid, _ := strconv.Atoi(nobody.Uid)
	gid, _ := strconv.Atoi(nobody.Gid)
	d := &delegation{t: t, uid: uid, gid: gid, fd: -1,
		cgroup: filepath.Join(mount, fmt.Sprintf("corral-test-delegated-%d-%d", os.Getpid(), time.Now().UnixNano()))}
	if err := os.Mkdir(d.cgroup, 0o755); err != nil {
		t.Skipf("cannot make a cgroup on %s: %v", mount, err)
	}
	t.Cleanup(d.remove)
	for _, name := range append([]string{""}, files...) {
		if err := os.Chown(filepath.Join(d.cgroup, name), uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	if d.fd, err = syscall.Open(d.cgroup, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0); err != nil {
		t.Fatal(err)
	}
	// nobody's own corral: the test binary's directory is root's alone (0700).
	home, err := os.MkdirTemp("", "corral-delegated")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	d.bin, d.state = filepath.Join(home, "corral"), filepath.Join(home, "state")
	if err := os.Link(corralBin, d.bin); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(d.state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(home, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{home, d.state} {
		if err := os.Chown(p, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != runs.CgroupRootEnv && k != "HOME" &&
			!strings.HasPrefix(k, "XDG_") && !strings.HasPrefix(k, "CORRAL_") {
			d.env = append(d.env, kv)
		}
	}
	d.env = append(d.env, "HOME="+home, "CORRAL_STATE_DIR="+d.state)
	return d
}

// command is nobody's corral with args, started inside the delegated cgroup.
func (d *delegation) command(args ...string) *exec.Cmd {
	cmd := exec.Command(d.bin, args...)
	cmd.Env, cmd.Dir = d.env, filepath.Dir(d.bin)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(d.uid), Gid: uint32(d.gid)},
		UseCgroupFD: true, CgroupFD: d.fd}
	return cmd
}

// corral runs nobody's corral with args to its end.
func (d *delegation) corral(args ...string) result {
	d.t.Helper()
	return run(d.t, d.command(args...))
}

// remove kills whatever is left in the delegated cgroup (the test made it: all in it
// is the test's), and removes it and the cgroups made below it.
func (d *delegation) remove() {
	if d.fd >= 0 {
		syscall.Close(d.fd)
	}
	cg := &reaper.Cgroup{Path: d.cgroup}
	if p, err := cg.Populated(); err == nil && p {
		cg.Kill()
		if !cg.AwaitEmpty(context.Background(), time.Now().Add(10*time.Second)) {
			d.t.Errorf("the delegated cgroup %s is not empty after cgroup.kill", d.cgroup)
		}
	}
	var dirs []string
	filepath.WalkDir(d.cgroup, func(p string, e os.DirEntry, err error) error {
		if err == nil && e.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := syscall.Rmdir(dirs[i]); err != nil {
			d.t.Errorf("remove cgroup %s: %v", dirs[i], err)
		}
	}
}

// startServer starts nobody's corral server (with its keeper) inside the delegated
// cgroup; it is shut down when the test ends.
func (d *delegation) startServer() {
	d.t.Helper()
	srv := d.command("server")
	var log bytes.Buffer
	srv.Stdout, srv.Stderr = &log, &log
	if err := srv.Start(); err != nil {
		d.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Wait() }()
	d.t.Cleanup(func() {
		if r := d.corral("shutdown"); r.code != 0 {
			d.t.Errorf("corral shutdown: %+v", r)
		}
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			d.t.Errorf("the server did not end after corral shutdown; its log:\n%s", log.String())
			srv.Process.Kill()
			<-done
		}
	})
	eventually.True(d.t, 20*time.Second, "the server to listen", func() bool {
		_, err := os.Stat(filepath.Join(d.state, "server.sock"))
		return err == nil
	})
}

func TestCgroupDelegatedServer(t *testing.T) {
	d := delegate(t, "cgroup.procs", "cgroup.threads", "cgroup.subtree_control")
	d.startServer()
	base := filepath.Join(d.cgroup, "corral")
	why := "cgroup: in Corral's own cgroup " + d.cgroup + " (delegated)"
	doc := d.corral("doctor")
	for _, want := range []string{"ownership here:   " + why, "server ownership: " + why} {
		if !strings.Contains(doc.stdout, want+"\n") {
			t.Errorf("corral doctor does not say %q:\n%s%s", want, doc.stdout, doc.stderr)
		}
	}

	// A run whose root and a setsid daemon both ignore SIGTERM: only cgroup.kill ends them.
	script := fmt.Sprintf("setsid -f %[1]s ignore-term; exec %[1]s ignore-term", d.bin)
	sp := d.corral("spawn", "--grace", "200ms", "--env", demo.ChildEnv+"=1", "--shell", "--", script)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 || id == "" {
		t.Fatalf("corral spawn: %+v", sp)
	}
	var pids []int
	eventually.True(t, 20*time.Second, "both processes ready", func() bool {
		pids = pids[:0]
		for _, l := range strings.Split(d.corral("log", id).stdout, "\n") {
			if f := strings.Fields(l); len(f) == 3 && f[0] == "ready" {
				pid, _ := strconv.Atoi(f[2])
				pids = append(pids, pid)
			}
		}
		return len(pids) == 2
	})
	var reply struct {
		Run struct {
			PID    int    `json:"pid"`
			Cgroup string `json:"cgroup"`
		} `json:"run"`
	}
	if r := d.corral("info", id); json.Unmarshal([]byte(r.stdout), &reply) != nil {
		t.Fatalf("corral info: %+v", r)
	}
	info := reply.Run
	if want := filepath.Join(base, id); info.Cgroup != want {
		ev, _ := os.ReadFile(filepath.Join(d.state, "events.jsonl"))
		t.Fatalf("the run's cgroup is %q, want %s (below the delegated one); events:\n%s", info.Cgroup, want, ev)
	}
	members, err := (&reaper.Cgroup{Path: info.Cgroup}).Procs()
	if err != nil {
		t.Fatal(err)
	}
	for _, pid := range append(pids, info.PID) {
		if !slices.Contains(members, pid) {
			t.Errorf("pid %d is not a member of the run's cgroup (members %v)", pid, members)
		}
	}
	var st syscall.Stat_t
	if err := syscall.Stat(info.Cgroup, &st); err != nil || int(st.Uid) != d.uid {
		t.Errorf("the run's cgroup is uid %d's (%v), want nobody's (%d)", st.Uid, err, d.uid)
	}

	if r := d.corral("kill", id); r.code != 0 {
		t.Fatalf("corral kill: %+v", r)
	}
	var rep runs.Report
	if r := d.corral("wait", id, "--json"); json.Unmarshal([]byte(r.stdout), &rep) != nil {
		t.Fatalf("corral wait: %+v", r)
	}
	if rep.CleanupMode != "cgroup" || rep.Cgroup != info.Cgroup || !rep.Cleanup.VerifiedEmpty ||
		rep.Cleanup.Killed != 2 || !slices.Contains(rep.Cleanup.Steps, reaper.StepKill) {
		t.Errorf("report: mode %q cgroup %q cleanup %+v: want the cgroup emptied by cgroup.kill, 2 killed",
			rep.CleanupMode, rep.Cgroup, rep.Cleanup)
	}
	for _, pid := range pids {
		if p, err := reaper.ReadProc(pid); err == nil && p.State != 'Z' {
			t.Errorf("pid %d is alive after the cancel", pid)
		}
	}
	eventually.True(t, 10*time.Second, "the run's cgroup removed", func() bool {
		_, err := os.Stat(info.Cgroup)
		return os.IsNotExist(err)
	})
}

// A cgroup whose directory is the user's but whose cgroup.procs is not (a delegation
// done by hand, half): cgroups can be made in it, but no process can be moved or
// started into them (the kernel asks for write access to the cgroup.procs of the
// common ancestor). Corral does not choose it: the runs are on their sessions, and
// corral doctor says why.
func TestCgroupHalfDelegatedIsRefused(t *testing.T) {
	d := delegate(t)
	d.startServer()
	doc := d.corral("doctor")
	for _, want := range []string{"ownership here:   sessions: ", "server ownership: sessions: ",
		"cannot start a process in a cgroup of Corral's own cgroup " + d.cgroup + " (delegated)"} {
		if !strings.Contains(doc.stdout, want) {
			t.Errorf("corral doctor does not say %q:\n%s%s", want, doc.stdout, doc.stderr)
		}
	}
	sp := d.corral("spawn", "--env", demo.ChildEnv+"=1", "--", d.bin, "sleep")
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 || id == "" {
		t.Fatalf("corral spawn: %+v", sp)
	}
	if r := d.corral("kill", id); r.code != 0 {
		t.Fatalf("corral kill: %+v", r)
	}
	var rep runs.Report
	if r := d.corral("wait", id, "--json"); json.Unmarshal([]byte(r.stdout), &rep) != nil {
		t.Fatalf("corral wait: %+v", r)
	}
	if rep.CleanupMode != "session" || rep.SpawnErr != "" || !rep.Cleanup.VerifiedEmpty {
		t.Errorf("report: mode %q spawn error %q cleanup %+v: want a run on its session, ended",
			rep.CleanupMode, rep.SpawnErr, rep.Cleanup)
	}
}
