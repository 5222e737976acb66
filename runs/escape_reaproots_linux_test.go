package runs

import (
	"os/exec"
	"sync"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// A run's root that another run's cleanup lists as exited (moved into that run's
// cgroup) is left to its own exec.Cmd: reaped there it would take its exit status from
// its run. Neither one run's cleanup (reapExited) nor a shutdown's (reapAllExited,
// the root its own run's, listed by another's report, twice) reaps it.
func TestReapExitedSkipsEveryRoot(t *testing.T) {
	for _, name := range []string{"one", "all"} {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command("/bin/sh", "-c", "exit 7")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid := cmd.Process.Pid
			t.Cleanup(func() { cmd.Wait() })
			var fp reaper.Fingerprint
			eventually.True(t, 10*time.Second, "the root a zombie", func() bool {
				p, err := reaper.ReadProc(pid)
				fp = reaper.Fingerprint{PID: pid, StartTime: p.StartTime}
				return err == nil && p.State == 'Z'
			})
			owner := &run{id: "owner", info: Info{PID: pid}}
			other := &run{id: "other", info: Info{PID: 1}}
			d := &escapeDetector{spawnMu: &sync.Mutex{}, live: func() []*run { return []*run{owner, other} }}
			if name == "one" {
				d.reapExited([]reaper.Fingerprint{fp}, other.rootPID())
			} else {
				d.live = func() []*run { return nil } // a shutdown's runs: their roots passed
				d.reapAllExited([]reaper.Report{{}, {Exited: []reaper.Fingerprint{fp}}, {Exited: []reaper.Fingerprint{fp}}},
					[]int{pid, 1, 1})
			}
			err := cmd.Wait()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 7 {
				t.Fatalf("the root's exec.Cmd: %v, want its exit status 7 (reaped by another run's cleanup)", err)
			}
		})
	}
}
