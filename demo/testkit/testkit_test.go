package testkit_test

import (
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/reaper"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// A child still running is left behind, by its pid; once it is waited for, nothing is.
func TestLeftBehindNamesALiveChild(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	fp := testkit.Pin(t, cmd.Process.Pid)
	if fp.PID != cmd.Process.Pid || fp.StartTime == 0 {
		t.Fatalf("Pin: %+v, want pid %d with its start time", fp, cmd.Process.Pid)
	}
	pids := func(ps []reaper.Proc) []int {
		var out []int
		for _, p := range ps {
			out = append(out, p.PID)
		}
		return out
	}
	if left := pids(testkit.LeftBehind(0)); !slices.Contains(left, fp.PID) {
		t.Fatalf("left behind %v, want %d among them", left, fp.PID)
	}
	fp.Signal(syscall.SIGKILL)
	cmd.Wait()
	if left := pids(testkit.LeftBehind(5 * time.Second)); slices.Contains(left, fp.PID) {
		t.Fatalf("left behind %v after the child was waited for", left)
	}
}
