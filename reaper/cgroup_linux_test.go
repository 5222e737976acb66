package reaper

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// testCgroup makes a run cgroup for one test, or skips where Corral cannot make one
// (then runs fall back to sessions, which the rest of this package tests).
func testCgroup(t *testing.T) *Cgroup {
	t.Helper()
	base := FindCgroupBase("")
	if base.Dir == "" {
		t.Skip(base.Reason)
	}
	cg, err := NewCgroup(base.Dir, fmt.Sprintf("r%012x", time.Now().UnixNano()&0xffffffffffff))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cg.Kill()
		cg.AwaitEmpty(context.Background(), time.Now().Add(5*time.Second))
		if err := cg.Remove(); err != nil {
			t.Errorf("remove: %v", err)
		}
	})
	return cg
}

// startIn starts a demo behaviour directly inside cg (CLONE_INTO_CGROUP), in a
// session of its own, as the PTY and pipe hosts do.
func startIn(t *testing.T, cg *Cgroup, mode string, args ...string) *child {
	t.Helper()
	return startCmdIn(t, cg, demoCmd(mode, args...))
}

// startCmdIn starts cmd as startIn starts a demo behaviour.
func startCmdIn(t *testing.T, cg *Cgroup, cmd *exec.Cmd) *child {
	t.Helper()
	fd, err := cg.FD()
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, UseCgroupFD: true, CgroupFD: fd}
	err = cmd.Start()
	w.Close()
	if err != nil {
		t.Fatalf("start %q in %s: %v", cmd.Args, cg.Path, err)
	}
	return newChild(t, cmd, r)
}

// A daemon that leaves its session (setsid and a double fork) stays in the cgroup:
// the cgroup's members are the run, and the escalation ends them all, verified by
// cgroup.events, with no /proc walk.
func TestCgroupContainsEscapes(t *testing.T) {
	cg := testCgroup(t)
	c := startIn(t, cg, "escape")
	esc := c.learnLine("escapee")
	members, err := cg.Procs()
	if err != nil || len(members) != 2 {
		t.Fatalf("members %v (%v), want the root and its escapee", members, err)
	}
	if got, _ := CgroupOf(esc); got != cg.Path {
		t.Fatalf("the escapee is in %s, not the run's cgroup", got)
	}
	rep := Terminate(context.Background(), Target{Cgroup: cg, Grace: 2 * time.Second})
	if !rep.VerifiedEmpty || rep.Killed != 2 || rep.Hard != 0 || len(rep.Steps) != 1 || rep.Steps[0] != StepTerm {
		t.Fatalf("report %+v", rep)
	}
	c.wait()
	if p, _ := cg.Populated(); p {
		t.Error("still populated")
	}
}

// A tree that ignores SIGTERM is emptied by cgroup.kill after the grace.
func TestCgroupKillAfterGrace(t *testing.T) {
	cg := testCgroup(t)
	c := startIn(t, cg, "tree", "3", "ignore-term")
	c.learnTree()
	var steps []Step
	rep := Terminate(context.Background(), Target{Cgroup: cg, Grace: 100 * time.Millisecond, PTY: true,
		OnStep: func(s Step, _ int) { steps = append(steps, s) }})
	if !rep.VerifiedEmpty || rep.Killed != 4 || rep.Hard != 4 {
		t.Fatalf("report %+v", rep)
	}
	if fmt.Sprint(steps) != "[hup term kill]" || fmt.Sprint(rep.Steps) != fmt.Sprint(steps) {
		t.Errorf("steps %v, reported %v", steps, rep.Steps)
	}
	c.wait()
}

// With no inotify instance to be had (fs.inotify.max_user_instances reached, by a
// thousand runs ended at once or another program), the grace and the sweep still see
// the cgroup empty: a run is never recorded not verified empty for want of one.
func TestCgroupWithoutInotify(t *testing.T) {
	cg := testCgroup(t)
	was := inotifyInit
	inotifyInit = func() (int, error) { return -1, syscall.EMFILE }
	defer func() { inotifyInit = was }()
	c := startIn(t, cg, "tree", "2", "ignore-term")
	c.learnTree()
	rep := Terminate(context.Background(), Target{Cgroup: cg, Grace: 100 * time.Millisecond, PTY: true})
	if !rep.VerifiedEmpty || rep.Killed != 3 || rep.Hard != 3 {
		t.Fatalf("report %+v", rep)
	}
	c.wait()
	cg2 := testCgroup(t)
	d := startIn(t, cg2, "escape")
	d.learnLine("escapee")
	rep = Terminate(context.Background(), Target{Cgroup: cg2, Grace: 5 * time.Second})
	if !rep.VerifiedEmpty || rep.Killed != 2 || rep.Hard != 0 {
		t.Fatalf("report %+v: the grace did not see the cgroup empty", rep)
	}
	d.wait()
}

// A thousand processes that ignore SIGTERM (a shell's fork bomb: a thousand Go
// children under -race take minutes to start) are ended in one write.
func TestCgroupThousandProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("forks a thousand processes")
	}
	cg := testCgroup(t)
	c := startCmdIn(t, cg, exec.Command("/bin/sh", "-c",
		`trap '' TERM; i=1; while [ $i -lt 1000 ]; do sleep 1000 & i=$((i+1)); done; echo fanout ready; wait`))
	c.line("fanout ready")
	start := time.Now()
	rep := Terminate(context.Background(), Target{Cgroup: cg, Grace: 10 * time.Millisecond})
	if !rep.VerifiedEmpty || rep.Killed != 1000 {
		t.Fatalf("report %+v after %s", rep, time.Since(start))
	}
	c.wait()
}

// Freezing stops every member where it is; thawing lets them go on.
func TestCgroupFreeze(t *testing.T) {
	cg := testCgroup(t)
	c := startIn(t, cg, "tree", "1")
	c.learnTree()
	if err := cg.SetFrozen(true, time.Second); err != nil {
		t.Fatal(err)
	}
	if _, f, _ := cg.events(); !f {
		t.Fatal("not frozen")
	}
	// Frozen, no member runs: its CPU time, read through the kept descriptor, stands.
	a, err := cg.CPU()
	if err != nil || a <= 0 {
		t.Fatalf("cpu %v, %v", a, err)
	}
	if u, _, _ := cg.Usage(); u < a {
		t.Errorf("usage %v below cpu %v read before it", u, a)
	}
	if b, err := cg.CPU(); err != nil || b != a {
		t.Errorf("cpu of the frozen cgroup moved: %v then %v (%v)", a, b, err)
	}
	if err := cg.SetFrozen(false, time.Second); err != nil {
		t.Fatal(err)
	}
	cpu, _, err := cg.Usage()
	if err != nil || cpu <= 0 {
		t.Errorf("usage: %v %v", cpu, err)
	}
	Terminate(context.Background(), Target{Cgroup: cg, Grace: time.Second})
	c.wait()
}

// A record names the cgroup to empty after a crash: only a run cgroup of Corral's,
// named by the run's id, directly under the base, on a cgroup2 mount, is opened.
func TestOpenCgroupRefusesOthers(t *testing.T) {
	base := FindCgroupBase("")
	if base.Dir == "" {
		t.Skip(base.Reason)
	}
	for _, c := range []struct{ name, path string }{
		{"r0123456789ab", filepath.Dir(base.Dir)},                         // the mount itself
		{"r0123456789ab", filepath.Join(base.Dir, "..", "r0123456789ab")}, // beside the base
		{"r0123456789ab", filepath.Join(base.Dir, "r0123456789ac")},       // another run's
		{"../system", filepath.Join(base.Dir, "../system")},
		{"r0123456789ab", filepath.Join(t.TempDir(), "r0123456789ab")},
	} {
		if _, err := OpenCgroup(base.Dir, c.name, c.path); !errors.Is(err, ErrBadCgroup) {
			t.Errorf("OpenCgroup(%q, %q): %v, want ErrBadCgroup", c.name, c.path, err)
		}
	}
	if _, err := OpenCgroup(base.Dir, "r0123456789ab", filepath.Join(base.Dir, "r0123456789ab")); err == nil {
		t.Error("a cgroup that does not exist was opened")
	}
}

// An empty run cgroup older than the age is swept (its Corral died before anything
// recorded it); a fresh one, one with a member, and what is not a run cgroup stay.
func TestSweepCgroups(t *testing.T) {
	old := testCgroup(t)
	fresh := testCgroup(t)
	busy := testCgroup(t)
	c := startIn(t, busy, "sleep")
	c.line("ready")
	base := filepath.Dir(old.Path)
	other := filepath.Join(base, "probe-sweep")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(other)
	then := time.Now().Add(-2 * time.Minute)
	for _, p := range []string{old.Path, busy.Path, other} {
		if err := os.Chtimes(p, then, then); err != nil {
			t.Skipf("cannot age a cgroup here: %v", err)
		}
	}
	SweepCgroups(base, time.Minute)
	for _, k := range []struct {
		path string
		kept bool
	}{{old.Path, false}, {fresh.Path, true}, {busy.Path, true}, {other, true}} {
		if _, err := os.Stat(k.path); (err == nil) != k.kept {
			t.Errorf("%s: kept %v, want %v", k.path, err == nil, k.kept)
		}
	}
}

// The cgroup whose cgroup.procs a start into a cgroup also needs: the nearest one
// holding both Corral's own and the target.
func TestCommonCgroup(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"/sys/fs/cgroup/user.slice/u@1.service/app", "/sys/fs/cgroup/user.slice/u@1.service/app/corral/r1", "/sys/fs/cgroup/user.slice/u@1.service/app"},
		{"/sys/fs/cgroup/a/b", "/sys/fs/cgroup/a/c/corral/r1", "/sys/fs/cgroup/a"},
		{"/sys/fs/cgroup/ab", "/sys/fs/cgroup/a/corral", "/sys/fs/cgroup"},
		{"/sys/fs/cgroup", "/sys/fs/cgroup/corral/probe-1", "/sys/fs/cgroup"},
	} {
		if got := commonCgroup(c.a, c.b); got != c.want {
			t.Errorf("commonCgroup(%s, %s) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}

// UsageKept reads what Usage reads, cpu.stat through the descriptor CPU keeps (no
// open of its own while that is open), and once the cgroup was closed it keeps
// nothing open again.
func TestCgroupUsageKept(t *testing.T) {
	cg := testCgroup(t)
	c := startIn(t, cg, "tree", "1")
	c.learnTree()
	if err := cg.SetFrozen(true, time.Second); err != nil {
		t.Fatal(err)
	}
	cpu, mem, err := cg.Usage()
	kcpu, kmem, kerr := cg.UsageKept()
	if err != nil || kerr != nil || kcpu != cpu || (mem < 0) != (kmem < 0) {
		t.Fatalf("usage %v %d (%v), kept %v %d (%v)", cpu, mem, err, kcpu, kmem, kerr)
	}
	cg.cpuMu.Lock()
	kept := cg.cpuFD
	cg.cpuMu.Unlock()
	if kept == 0 {
		t.Fatal("cpu.stat not kept open")
	}
	cg.Close()
	if kcpu, _, kerr = cg.UsageKept(); kerr != nil || kcpu != cpu {
		t.Errorf("after close: %v (%v), want %v", kcpu, kerr, cpu)
	}
	cg.cpuMu.Lock()
	kept = cg.cpuFD
	cg.cpuMu.Unlock()
	if kept != 0 {
		t.Error("a closed cgroup's cpu.stat opened again")
	}
	if err := cg.SetFrozen(false, time.Second); err != nil {
		t.Fatal(err)
	}
	Terminate(context.Background(), Target{Cgroup: cg, Grace: time.Second})
	c.wait()
}
