package runs

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// A thousand processes, on either backend (CORRAL_CGROUP_ROOT=off for sessions):
// ended by a cancel, and by the next Corral's reconcile after the first was killed
// with SIGKILL.

func init() { roles["fork-bomb"] = roleForkBomb }

// forkBomb is a run of 1,000 processes: a shell and 999 sleeps that ignore SIGTERM,
// so the escalation has to reach its SIGKILL.
const forkBomb = `trap '' TERM; i=1; while [ $i -lt 1000 ]; do sleep 1000 & i=$((i+1)); done; echo bomb ready; wait`

func TestForkBombCancelled(t *testing.T) {
	if testing.Short() {
		t.Skip("forks a thousand processes")
	}
	s := newSup(t, WithEscapeDetection())
	id, err := s.Spawn(Spec{Shell: forkBomb, Grace: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	waitOutput(t, s, id, "bomb ready")
	info, _ := s.Info(id)
	members, _ := reaper.Session(info.PID)
	if len(members) != 1000 {
		t.Fatalf("%d processes in the run's session, want 1000", len(members))
	}
	s.Cancel(id)
	info = waitEnd(t, s, id)
	if info.Cleanup.Killed != 1000 || info.Reason != ManualCancel {
		t.Errorf("ended %s, cleanup %+v; want cancelled, 1000 killed", info.Reason, info.Cleanup)
	}
	assertPIDsGone(t, pidsOf(members))
}

// roleForkBomb starts the bomb and says "run ID CGROUP ROOT" once it is ready.
func roleForkBomb(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()), WithEscapeDetection(), WithCgroups(FindCgroups("")))
	if err != nil {
		return err
	}
	id, err := s.Spawn(Spec{Shell: forkBomb})
	if err != nil {
		return err
	}
	if err := awaitOutput(s, id, "bomb ready"); err != nil {
		return err
	}
	info, _ := s.Info(id)
	cg := info.Cgroup
	if cg == "" {
		cg = "-"
	}
	fmt.Printf("run %s %s %d\n", id, cg, info.PID)
	select {}
}

func TestForkBombReconciledAfterKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("forks a thousand processes")
	}
	dir := t.TempDir()
	cmd, stderr := startRole(t, "fork-bomb", dir)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	f := strings.Fields(line)
	if len(f) != 4 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("role said %q; stderr %s", line, stderr)
	}
	id, cg := f[1], f[2]
	root, _ := strconv.Atoi(f[3])
	members, _ := reaper.Session(root)
	cmd.Process.Kill()
	cmd.Wait()
	if len(members) != 1000 {
		t.Fatalf("%d processes in the run's session, want 1000", len(members))
	}
	s := regSup(t, openReg(t, dir))
	ds := reconcileUntilSettled(t, s)
	if d := ds[id]; d.Decision != VerdictReaped || !strings.Contains(d.Detail, "killed 1000") {
		t.Errorf("decision %+v, want orphan-reaped with 1000 killed", d)
	}
	eventually.True(t, 10*time.Second, "every process of the bomb gone", func() bool {
		for _, pid := range pidsOf(members) {
			if p, err := reaper.ReadProc(pid); err == nil && p.State != 'Z' {
				return false
			}
		}
		return true
	})
	if cg != "-" {
		eventually.True(t, 5*time.Second, "the cgroup removed", func() bool {
			_, err := os.Stat(cg)
			return os.IsNotExist(err)
		})
	}
}

func pidsOf(ps []reaper.Proc) []int {
	out := make([]int, len(ps))
	for i, p := range ps {
		out[i] = p.PID
	}
	return out
}
