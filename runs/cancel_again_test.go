package runs

import (
	"slices"
	"testing"
	"time"

	"corral/reaper"
)

// A second cancel while the first waits out a long grace on a root that ignores its
// stop signal ends the run at once, on both backends: the grace is cut and the
// escalation goes on to SIGKILL. Before, the second cancel did nothing until the hour
// of grace had passed.
func TestSecondCancelCutsTheGrace(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.name, func(t *testing.T) {
			s := newSup(t, WithEscapeDetection(), be.opt)
			id := spawn(t, s, Spec{Shell: `trap 'echo term ignored' TERM; echo ready; while :; do sleep 1 & wait $!; done`,
				NoOutputTimeout: -1, Grace: time.Hour})
			waitOutput(t, s, id, "ready")
			info, _ := s.Info(id)
			killReapLater(t, []int{info.PID})
			s.Cancel(id)
			waitOutput(t, s, id, "term ignored") // the first cleanup is in its grace
			if i, _ := s.Info(id); i.State != Exiting {
				t.Fatalf("state %s in the grace", i.State)
			}
			t0 := time.Now()
			s.Cancel(id)
			end := waitEnd(t, s, id)
			assertPIDsGone(t, []int{info.PID})
			if !slices.Contains(end.Cleanup.Steps, reaper.StepKill) || !end.Cleanup.VerifiedEmpty {
				t.Errorf("cleanup %+v: want killed, verified empty", end.Cleanup)
			}
			if end.Reason != ManualCancel {
				t.Errorf("reason %s", end.Reason)
			}
			t.Logf("second cancel → ended in %v", time.Since(t0))
		})
	}
}
