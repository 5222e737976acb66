package reaper

import (
	"context"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// Many runs ended at once (a shutdown) share one wait: more cgroups than a user has
// inotify instances (128) are each watched, signalled before any grace, and verified
// empty, with one instance for the grace and one for the sweep, not one each. Those
// that ignore SIGTERM are killed at the end of the one grace; a session run beside
// them is ended by the session escalation.
func TestTerminateManyOneWait(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 20
	}
	var inits atomic.Int32
	was := inotifyInit
	inotifyInit = func() (int, error) {
		inits.Add(1)
		return was()
	}
	defer func() { inotifyInit = was }()
	var targets []Target
	var cmds []*exec.Cmd
	for i := range n {
		cg := testCgroup(t)
		script := "exec sleep 1000"
		if i%10 == 0 {
			script = "trap '' TERM; sleep 1000 & echo ready $!; wait"
		}
		c := startCmdIn(t, cg, exec.Command("/bin/sh", "-c", script))
		if i%10 == 0 {
			c.learnLine("ready") // its sleep started, ignoring SIGTERM as the shell does
		}
		cmds = append(cmds, c.cmd)
		targets = append(targets, Target{Cgroup: cg, Grace: 300 * time.Millisecond, Sweep: 5 * time.Second, Retries: 2})
	}
	sess := start(t, "tree", "2")
	sess.learnTree()
	targets = append(targets, Target{SID: sess.cmd.Process.Pid, Grace: 2 * time.Second, Retries: 2})
	ctxs := make([]context.Context, len(targets))
	for i := range ctxs {
		ctxs[i] = context.Background()
	}
	before := inits.Load()
	start := time.Now()
	reps := TerminateMany(ctxs, targets)
	took := time.Since(start)
	for i, rep := range reps[:n] {
		if !rep.VerifiedEmpty {
			t.Fatalf("cgroup %d not verified empty: %+v", i, rep)
		}
		want := []Step{StepTerm}
		if i%10 == 0 {
			want = []Step{StepTerm, StepKill}
			if rep.Hard != 2 {
				t.Errorf("cgroup %d: %d killed hard, want the shell and its sleep", i, rep.Hard)
			}
		}
		if !slices.Equal(rep.Steps, want) {
			t.Errorf("cgroup %d: steps %v, want %v", i, rep.Steps, want)
		}
		if p, _ := targets[i].Cgroup.Populated(); p {
			t.Errorf("cgroup %d still populated", i)
		}
	}
	if rep := reps[n]; !rep.VerifiedEmpty || rep.Killed != 3 {
		t.Fatalf("session: %+v", rep)
	}
	sess.wait()
	sess.requireGone()
	for _, cmd := range cmds {
		cmd.Wait()
	}
	if got := inits.Load() - before; got > 2 {
		t.Errorf("%d inotify instances for %d cgroups, want one for the grace and one for the sweep", got, n)
	}
	// One grace for all: every cgroup was signalled before it began.
	if took > 3*time.Second {
		t.Errorf("took %v: the graces were not waited at once", took)
	}
}

// A cgroup left unwatched (no inotify instance to be had) is read on a backoff in
// the shared wait, and still seen empty at once.
func TestTerminateManyWithoutInotify(t *testing.T) {
	was := inotifyInit
	inotifyInit = func() (int, error) { return -1, syscall.EMFILE }
	defer func() { inotifyInit = was }()
	var targets []Target
	var ctxs []context.Context
	for range 3 {
		cg := testCgroup(t)
		c := startCmdIn(t, cg, exec.Command("/bin/sh", "-c", "echo ready; exec sleep 1000"))
		c.line("ready")
		targets = append(targets, Target{Cgroup: cg, Grace: 5 * time.Second})
		ctxs = append(ctxs, context.Background())
	}
	start := time.Now()
	for i, rep := range TerminateMany(ctxs, targets) {
		if !rep.VerifiedEmpty || rep.Hard != 0 {
			t.Fatalf("cgroup %d: %+v", i, rep)
		}
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %v: the grace did not see the cgroups empty", took)
	}
}

// Ended at once with others (a shutdown), a member of a run's session that ends on
// its stop signal is named by its command name, its command line not read before the
// signal; one that outlives the grace is named by its command line, read before it is
// killed; a member outside the session (a daemon) by its command line as first seen.
func TestTerminateManyNamesLate(t *testing.T) {
	obeys, ignores := testCgroup(t), testCgroup(t)
	a := startCmdIn(t, obeys, exec.Command("/bin/sh", "-c",
		"setsid sleep 1002 & sleep 1001 & echo ready $!; wait"))
	sleeper, _ := strconv.Atoi(strings.Fields(a.line("ready"))[1])
	b := startCmdIn(t, ignores, exec.Command("/bin/sh", "-c", "trap '' TERM; sleep 1003 & echo ready $!; wait"))
	stubborn, _ := strconv.Atoi(strings.Fields(b.line("ready"))[1])
	var daemon int
	eventually.True(t, 10*time.Second, "the sleeps exec'd, the setsid one in a session of its own", func() bool {
		for _, pid := range []int{sleeper, stubborn} {
			if p, err := ReadProc(pid); err != nil || p.Comm != "sleep" {
				return false
			}
		}
		pids, _ := obeys.Procs()
		for _, pid := range pids {
			if p, err := ReadProc(pid); err == nil && p.SID != a.pid() && p.Comm == "sleep" {
				daemon = pid
				return true
			}
		}
		return false
	})
	targets := []Target{
		{Cgroup: obeys, SID: a.pid(), Grace: 5 * time.Second},
		{Cgroup: ignores, SID: b.pid(), Grace: 300 * time.Millisecond},
	}
	reps := TerminateMany(make([]context.Context, len(targets)), targets)
	a.cmd.Wait()
	b.cmd.Wait()
	names := map[int][]string{}
	for i, rep := range reps {
		if !rep.VerifiedEmpty {
			t.Fatalf("target %d: %+v", i, rep)
		}
		for _, n := range rep.Ended {
			names[n.PID] = n.Argv
		}
	}
	want := map[int][]string{
		a.pid():  {"sh"},
		sleeper:  {"sleep"},
		daemon:   {"sleep", "1002"},
		b.pid():  {"/bin/sh", "-c", "trap '' TERM; sleep 1003 & echo ready $!; wait"},
		stubborn: {"sleep", "1003"},
	}
	for pid, argv := range want {
		if !slices.Equal(names[pid], argv) {
			t.Errorf("pid %d named %q, want %q", pid, names[pid], argv)
		}
	}
}

// Ended at once with others, a run whose members outnumber argvRead and ignore the
// stop signal has its command lines read for the first argvRead of them only, as a
// run ended alone does: the rest are named by their command names, no read of each
// one's command line holding up the kill.
func TestTerminateManyArgvCap(t *testing.T) {
	const sleeps = argvRead + 8
	cg := testCgroup(t)
	c := startCmdIn(t, cg, exec.Command("/bin/sh", "-c",
		"trap '' TERM; i=0; while [ $i -lt "+strconv.Itoa(sleeps)+" ]; do i=$((i+1)); sleep 100$i & done; echo ready; wait"))
	c.line("ready")
	eventually.True(t, 10*time.Second, "every sleep exec'd", func() bool {
		pids, _ := cg.Procs()
		n := 0
		for _, pid := range pids {
			if p, err := ReadProc(pid); err == nil && p.Comm == "sleep" {
				n++
			}
		}
		return n == sleeps
	})
	targets := []Target{{Cgroup: cg, SID: c.pid(), Grace: 300 * time.Millisecond}}
	rep := TerminateMany(make([]context.Context, 1), targets)[0]
	c.cmd.Wait()
	if !rep.VerifiedEmpty || rep.Hard != sleeps+1 {
		t.Fatalf("want the shell and its %d sleeps killed hard: %+v", sleeps, rep)
	}
	full, byComm := 0, 0
	for _, n := range rep.Ended {
		switch {
		case len(n.Argv) > 1:
			full++
		case len(n.Argv) == 1 && (n.Argv[0] == "sleep" || n.Argv[0] == "sh"):
			byComm++
		default:
			t.Errorf("pid %d named %q", n.PID, n.Argv)
		}
	}
	if full > argvRead || full+byComm != sleeps+1 {
		t.Errorf("%d named by command line, %d by command name, want at most %d of %d by command line",
			full, byComm, argvRead, sleeps+1)
	}
}

// leaveRun starts a run in cg: a shell (the root, leading its session) and its sleep,
// both learned so that the test's cleanup ends them; it returns the run's target for
// TerminateMany and the sleep's pid, once the sleep has exec'd.
func leaveRun(t *testing.T, cg *Cgroup, script string) (*child, Target, int) {
	t.Helper()
	c := startCmdIn(t, cg, exec.Command("/bin/sh", "-c", script))
	sleeper := c.learnLine("ready")
	eventually.True(t, 10*time.Second, "the sleep exec'd", func() bool {
		p, err := ReadProc(sleeper)
		return err == nil && p.Comm == "sleep"
	})
	root, err := Identify(c.pid())
	if err != nil {
		t.Fatal(err)
	}
	return c, Target{Cgroup: cg, SID: c.pid(), Root: root, Grace: 2 * time.Second, Retries: 2}, sleeper
}

// requireEnded fails the test at once if the root pid lives (not even a zombie): its
// wait would not return. The test's cleanup kills it.
func requireEnded(t *testing.T, pid int) {
	t.Helper()
	if p, err := ReadProc(pid); err == nil && !dead(p.State) {
		t.Fatalf("the root, %d, lives on (%c)", pid, p.State)
	}
}

// namedIn is the name rep gives pid, nil if none.
func namedIn(rep Report, pid int) []string {
	for _, n := range rep.Ended {
		if n.PID == pid {
			return n.Argv
		}
	}
	return nil
}

// A run whose root is no member of its cgroup when a shutdown begins (moved to a
// sibling cgroup) is left out of the shared escalation, the first read of its members
// telling so, and ended alone (its root by the session mechanics beside its cgroup):
// none of it lives on, verified empty. A run beside it is still ended with the rest:
// its root, ending on its stop signal, named by its command name only.
func TestTerminateManyRootMovedLeaves(t *testing.T) {
	cgA, sib, cgB := testCgroup(t), testCgroup(t), testCgroup(t)
	const script = "sleep 1001 & echo ready $!; wait"
	a, ta, sleepA := leaveRun(t, cgA, script)
	if err := sib.Take(a.pid()); err != nil {
		t.Fatal(err)
	}
	if dir, _ := CgroupOf(a.pid()); dir != sib.Path {
		t.Fatalf("the root is in %s, not the sibling", dir)
	}
	b, tb, sleepB := leaveRun(t, cgB, script)
	reps := endBoth(t, a, b, ta, tb)
	if got := namedIn(reps[0], sleepA); !slices.Equal(got, []string{"sleep", "1001"}) {
		t.Errorf("the run's sleep named %q, want its command line: ended alone", got)
	}
	if got := namedIn(reps[1], b.pid()); !slices.Equal(got, []string{"sh"}) {
		t.Errorf("the run beside it: root named %q, want %q: ended with the rest", got, []string{"sh"})
	}
	if got := namedIn(reps[1], sleepB); got == nil {
		t.Errorf("the run beside it: its sleep, %d, not in its report %+v", sleepB, reps[1].Ended)
	}
}

// terminateBoth ends the two targets together, each verified empty with no error.
func terminateBoth(t *testing.T, ta, tb Target) []Report {
	t.Helper()
	reps := TerminateMany(make([]context.Context, 2), []Target{ta, tb})
	for i, rep := range reps {
		if !rep.VerifiedEmpty || rep.Err != nil {
			t.Errorf("target %d: %+v", i, rep)
		}
	}
	return reps
}

// endBoth is terminateBoth of runs a and b, then each run's processes gone.
func endBoth(t *testing.T, a, b *child, ta, tb Target) []Report {
	t.Helper()
	reps := terminateBoth(t, ta, tb)
	requireEnded(t, a.pid())
	a.wait()
	b.wait()
	a.requireGone()
	b.requireGone()
	return reps
}

// A run whose cgroup was removed before a shutdown (its members moved out first, as
// rmdir needs) is left out of the shared escalation and ended alone by the session
// mechanics: its root and its sleep end, with no error of the cgroup's.
func TestTerminateManyCgroupGoneLeaves(t *testing.T) {
	cgA, sib, cgB := testCgroup(t), testCgroup(t), testCgroup(t)
	const script = "sleep 1001 & echo ready $!; wait"
	a, ta, sleepA := leaveRun(t, cgA, script)
	for _, pid := range []int{a.pid(), sleepA} {
		if err := sib.Take(pid); err != nil {
			t.Fatal(err)
		}
	}
	if err := cgA.Remove(); err != nil {
		t.Fatal(err)
	}
	b, tb, _ := leaveRun(t, cgB, script)
	reps := endBoth(t, a, b, ta, tb)
	if namedIn(reps[0], sleepA) == nil {
		t.Errorf("the run's sleep, %d, not in its report %+v", sleepA, reps[0].Ended)
	}
}

// A run whose root has exited (a zombie not reaped yet: cgroup.procs lists it no
// more) with its sleep still in its cgroup is ended alone too, and its sleep ends.
func TestTerminateManyRootExitedLeaves(t *testing.T) {
	cgA, cgB := testCgroup(t), testCgroup(t)
	a, ta, sleepA := leaveRun(t, cgA, "sleep 1001 & echo ready $!")
	eventually.True(t, 10*time.Second, "the root a zombie", func() bool {
		p, err := ReadProc(a.pid())
		return err == nil && p.State == 'Z'
	})
	b, tb, _ := leaveRun(t, cgB, "sleep 1001 & echo ready $!; wait")
	reps := terminateBoth(t, ta, tb)
	if namedIn(reps[0], sleepA) == nil {
		t.Errorf("the run's sleep, %d, not in its report %+v", sleepA, reps[0].Ended)
	}
	if p, _ := cgA.Populated(); p {
		t.Errorf("the run's cgroup still populated")
	}
	a.wait()
	b.wait()
	a.reapOrphans()
	a.requireGone()
	b.requireGone()
}
