package runs

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// rootLeavesShell moves the run's root itself out of its cgroup when it is told to
// stop (as root can): the cgroup empties while the root lives on beside it.
const rootLeavesShell = `trap 'echo $$ > "$SIBLING/cgroup.procs"' TERM HUP
echo ready
while :; do sleep 0.05; done`

// rootLeaving is a supervisor on cgroups with a run of rootLeavesShell, ready: its
// root moves itself into a sibling cgroup when signalled (killed at the test's end).
func rootLeaving(t *testing.T) (*Supervisor, string, Info) {
	t.Helper()
	sib := sibling(t)
	s := cgroupSup(t)
	id := spawn(t, s, Spec{Shell: rootLeavesShell, Env: []string{"SIBLING=" + sib.Path}, NoOutputTimeout: -1,
		Grace: 300 * time.Millisecond})
	waitOutput(t, s, id, "ready")
	info, _ := s.Info(id)
	killReapLater(t, []int{info.PID})
	return s, id, info
}

// A root that leaves its cgroup during the cleanup is ended beside it, and the run is
// not said verified empty while it lives. Before: the cgroup was empty, the cleanup
// said "verified empty", and the run sat in exiting with its root alive.
func TestCgroupRootLeavesAtCleanup(t *testing.T) {
	s, id, info := rootLeaving(t)
	s.Cancel(id)
	eventually.True(t, 20*time.Second, "the run to end", func() bool {
		i, _ := s.Info(id)
		if p, err := reaper.ReadProc(info.PID); err == nil && p.State != 'Z' && i.Cleanup.VerifiedEmpty {
			dir, _ := reaper.CgroupOf(info.PID)
			t.Fatalf("cleanup %+v says verified empty while the root (pid %d, in %s) lives", i.Cleanup, info.PID, dir)
		}
		return i.Ended()
	})
	end := waitEnd(t, s, id)
	assertPIDsGone(t, []int{info.PID})
	if !end.Cleanup.VerifiedEmpty || end.Cleanup.Killed < 1 {
		t.Errorf("cleanup %+v: want the root killed, verified empty after", end.Cleanup)
	}
}

// The same at a shutdown: the root is a member when the shared escalation first reads
// the run's cgroup, is signalled with the rest, and leaves on its stop signal; the
// cgroup's escalation finds it alive outside the emptied cgroup (movedOut) and ends it
// beside it (endMoved) before saying verified empty. (A root no member already at the
// first read is ended alone: the reaper's TestTerminateManyRootMovedLeaves.)
func TestCgroupRootLeavesAtShutdown(t *testing.T) {
	s, id, info := rootLeaving(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	end, _ := s.Info(id)
	if !end.Ended() {
		t.Fatalf("after the shutdown: %s", end.State)
	}
	assertPIDsGone(t, []int{info.PID})
	if !end.Cleanup.VerifiedEmpty || end.Cleanup.Killed < 1 {
		t.Errorf("cleanup %+v: want the root killed, verified empty after", end.Cleanup)
	}
}

// Whether a root lives after a shutdown's cleanup is answered from the one look at
// Corral's children taken after every cleanup: a root listed there is alive unless
// listed a zombie (not read again), and a root the look did not list, or listed under
// another start time, is read on its own.
func TestRootLivesInTheChildrenLook(t *testing.T) {
	cmd := exec.Command("sleep", "1000")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	fp, err := reaper.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	r := &run{}
	r.info.Fingerprint = fp
	look := childProcs()
	if p, ok := look.all[fp.PID]; !ok || p.StartTime != fp.StartTime {
		t.Fatalf("the look at Corral's children has no pid %d: %v", fp.PID, look.all[fp.PID])
	}
	if !r.rootLivesIn(look) {
		t.Errorf("a root listed alive: not alive")
	}
	zombie := childLook{all: map[int]reaper.Proc{fp.PID: {PID: fp.PID, StartTime: fp.StartTime, State: 'Z'}}}
	if r.rootLivesIn(zombie) {
		t.Errorf("a root listed a zombie: alive (its stat was read again)")
	}
	if !r.rootLivesIn(childLook{}) {
		t.Errorf("a root the look did not list, alive: not alive")
	}
	other := childLook{all: map[int]reaper.Proc{fp.PID: {PID: fp.PID, StartTime: fp.StartTime + 1, State: 'Z'}}}
	if !r.rootLivesIn(other) {
		t.Errorf("a root listed under another start time, alive: not alive")
	}
}
