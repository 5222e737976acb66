package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// The keeper lives, its server cannot come up (another process holds the server
// lock), and the lease of the run it keeps has expired: a corral run in the state dir
// (an in-process supervisor, whose start reconciles) and corral reconcile leave the run
// alive and say it is the keeper's; once the keeper is killed, reconcile ends the
// orphan as it would any other.
func TestKeptRunSurvivesOtherReconciles(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	sp := serverCorral(t, state, "spawn", "--name", "kept", "--", "sleep", "300")
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	id := strings.TrimSpace(sp.stdout)
	run := recordedPID(t, state, "kept")
	keeper, old := keeperPID(t, state), serverPID(t, state)
	kfp, rfp := testkit.Pin(t, keeper), testkit.Pin(t, run)
	endLater(t, kfp, syscall.SIGKILL, "keeper") // only if the test failed
	endLater(t, rfp, syscall.SIGKILL, "run")    // only if the test failed
	t.Cleanup(func() { kfp.Signal(syscall.SIGCONT) })
	kfp.Signal(syscall.SIGSTOP)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	lock, err := os.OpenFile(filepath.Join(state, "server.lock"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	eventually.True(t, 10*time.Second, "the server lock to be free", func() bool {
		return syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
	})
	kfp.Signal(syscall.SIGCONT)

	// No server renews the kept run's lease: wait until it has expired.
	var rec struct {
		Lease time.Time `json:"lease_expires_at"`
	}
	b, err := os.ReadFile(filepath.Join(state, "runs", id+".json"))
	if err := json.Unmarshal(b, &rec); err != nil || rec.Lease.IsZero() {
		t.Fatalf("the run's record: %v %s", err, b)
	}
	eventually.True(t, 30*time.Second, "the kept run's lease to expire", func() bool {
		return time.Now().After(rec.Lease.Add(500 * time.Millisecond))
	})

	alive := func() bool {
		p, err := reaper.ReadProc(run)
		return err == nil && p.State != 'Z'
	}
	why := fmt.Sprintf("kept by the keeper (pid %d), whose server is down", keeper)
	r := serverCorral(t, state, "run", "--", "true")
	t.Logf("corral run while the keeper keeps a run: %s", r.stderr)
	if r.code != 0 || !strings.Contains(r.stderr, fmt.Sprintf("%s (kept): left-alone — %s", id, why)) {
		t.Errorf("corral run beside the keeper's kept run: %+v", r)
	}
	if !alive() {
		t.Fatalf("corral run's reconcile ended the run the keeper keeps:\n%s", readEvents(t, state))
	}
	if ev := readEvents(t, state); !strings.Contains(ev, why) || strings.Contains(ev, "orphan-reaped") {
		t.Errorf("the events do not say the kept run was left to its keeper:\n%s", ev)
	}
	r = serverCorral(t, state, "reconcile")
	t.Logf("corral reconcile while the keeper keeps the run: %s", r.stdout)
	if r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf("left-alone\tpid %d\t%s", run, why)) || !alive() {
		t.Errorf("reconcile while the keeper keeps the run: %+v", r)
	}
	if _, ok := lsRuns(t, state)["kept"]; !ok {
		t.Errorf("the kept run is not listed")
	}

	kfp.Signal(syscall.SIGKILL)
	waitGone(t, keeper, "the killed keeper")
	r = serverCorral(t, state, "reconcile")
	t.Logf("corral reconcile once the keeper is gone: %s", r.stdout)
	if r.code != 0 || !strings.Contains(r.stdout, "orphan-reaped") {
		t.Errorf("reconcile once the keeper is gone: %+v", r)
	}
	waitGone(t, run, "the orphan once its keeper is gone")
}
