package runs

import (
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

// A root that leaves its cgroup during the cleanup is ended beside it, and the run is
// not said verified empty while it lives. Before: the cgroup was empty, the cleanup
// said "verified empty", and the run sat in exiting with its root alive.
func TestCgroupRootLeavesAtCleanup(t *testing.T) {
	sib := sibling(t)
	s := cgroupSup(t)
	id := spawn(t, s, Spec{Shell: rootLeavesShell, Env: []string{"SIBLING=" + sib.Path}, NoOutputTimeout: -1,
		Grace: 300 * time.Millisecond})
	waitOutput(t, s, id, "ready")
	info, _ := s.Info(id)
	killReapLater(t, []int{info.PID})
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
