package reaper

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// The members a cgroup's escalation signalled are told exited by the pidfds it kept
// (one poll, no read of /proc each), dead ones unreaped included, while a live one is
// not; and every pidfd is closed once its report is made.
func TestCgroupEscalationExitedByPidfd(t *testing.T) {
	cg := testCgroup(t)
	quick := startCmdIn(t, cg, exec.Command("/bin/sh", "-c", "exec sleep 1000"))
	quick.learn(quick.pid())
	stubborn := startCmdIn(t, cg, exec.Command("/bin/sh", "-c", "trap '' TERM; echo ready $$; while :; do sleep 1; done"))
	stubborn.learnLine("ready")
	c := newCgroupEscalation(context.Background(), Target{Cgroup: cg, Grace: time.Second, Sweep: 5 * time.Second})
	if !c.signal() {
		t.Fatalf("nothing signalled: %v", c.err)
	}
	for _, pid := range []int{quick.pid(), stubborn.pid()} {
		if _, ok := c.pidfds[pid]; !ok {
			t.Fatalf("pidfds kept: %v, want one on member %d", c.pidfds, pid)
		}
	}
	quick.waitState('Z') // dead, not reaped: its pid is still taken
	gone := c.exited()
	if !gone[quick.pid()] || gone[stubborn.pid()] {
		t.Fatalf("exited %v: want %d (dead) and not %d (alive)", gone, quick.pid(), stubborn.pid())
	}
	if moved := c.movedOut(); len(moved) != 0 {
		t.Fatalf("moved out: %v", moved)
	}
	c.release()
	if len(c.pidfds) != 0 {
		t.Fatalf("pidfds left after release: %v", c.pidfds)
	}
	if err := cg.Kill(); err != nil {
		t.Fatal(err)
	}
	stubborn.wait()
	quick.wait()
}

// TerminateMany keeps a pidfd on each member through the grace and closes them all:
// a shutdown of many runs leaves no descriptor open.
func TestTerminateManyClosesPidfds(t *testing.T) {
	var targets []Target
	var kids []*child
	for range 5 {
		cg := testCgroup(t)
		kids = append(kids, startCmdIn(t, cg, exec.Command("/bin/sh", "-c", "sleep 1000 & exec sleep 1000")))
		targets = append(targets, Target{Cgroup: cg, Grace: 2 * time.Second, Sweep: 5 * time.Second})
	}
	before := openFDs(t)
	reps := TerminateMany(make([]context.Context, len(targets)), targets)
	for i, rep := range reps {
		if !rep.VerifiedEmpty {
			t.Fatalf("target %d not verified empty: %+v", i, rep)
		}
	}
	// The waits' inotify instances are closed off the caller's path (awaitEmptyAll): a
	// moment after it returns.
	after, _ := eventually.Within(5*time.Second, func() (int, bool) {
		n := openFDs(t)
		return n, n <= before
	})
	if after > before {
		t.Fatalf("%d descriptors open after TerminateMany, %d before", after, before)
	}
	for _, k := range kids {
		k.wait()
	}
}

func openFDs(t *testing.T) int {
	t.Helper()
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}
