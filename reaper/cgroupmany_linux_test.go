package reaper

import (
	"context"
	"os/exec"
	"slices"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
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
