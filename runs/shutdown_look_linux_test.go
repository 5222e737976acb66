package runs

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// On the cgroup backend: a process moved out of its run's cgroup after a shutdown
// began, while the runs are being stopped, is found by the shutdown's one look (among
// a few other runs, so the look goes through each run's own candidates) and ended.
func TestShutdownLooksAfterStoppingCgroup(t *testing.T) {
	base := FindCgroups("")
	if base.Dir == "" {
		t.Skip(base.Reason)
	}
	s, err := New(WithDefaults(testDefaults()), WithLogDir(t.TempDir()), WithEscapeDetection(), WithCgroups(base))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		spawn(t, s, Spec{Shell: "exec sleep 1000"})
	}
	id := spawn(t, s, Spec{Shell: "sleep 1000 & echo child $!; exec sleep 1000"})
	pids := pidsAfter(waitOutput(t, s, id, "child "), "child")
	if len(pids) != 1 {
		t.Fatalf("child pids %v", pids)
	}
	killReapLater(t, pids)
	elsewhere := filepath.Join(base.Dir, "scale-test-"+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(elsewhere)
	s.shutdownHook = func() { // the child leaves the run's cgroup now
		if err := os.WriteFile(filepath.Join(elsewhere, "cgroup.procs"), []byte(strconv.Itoa(pids[0])), 0); err != nil {
			t.Errorf("move out of the cgroup: %v", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	info, _ := s.Info(id)
	if info.State != Exited || !info.Cleanup.VerifiedEmpty {
		t.Fatalf("run %s, verified empty %v", info.State, info.Cleanup.VerifiedEmpty)
	}
	assertPIDsGone(t, pids)
	if info.Escapees < 1 {
		t.Errorf("escapees %d, want the one that left after the shutdown began", info.Escapees)
	}
}
