package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
)

// startKilled starts `corral run` on the sleep child in state, waits for the child,
// SIGKILLs corral and returns the orphaned child's pid.
func startKilled(t *testing.T, state string) int {
	t.Helper()
	cmd := corral(t, runArgs([]string{"--state-dir", state}, child("sleep"))...)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if _, err := fmt.Sscanf(sc.Text(), "ready sleep %d", &pid); err == nil {
			break
		}
	}
	if pid <= 1 {
		t.Fatal("the child never said it was ready")
	}
	endLater(t, testkit.Pin(t, pid), syscall.SIGKILL, "the orphan") // only if a test failed
	// With cgroups the child runs before its pid is recorded (no hold): corral killed in
	// between leaves a record without a pid, and decisions that name none.
	eventually.True(t, 20*time.Second, "the child's pid in its record", func() bool {
		for _, r := range lsRunsOf(t, state) {
			if r.PID == pid {
				return true
			}
		}
		return false
	})
	cmd.Process.Kill()
	cmd.Wait()
	return pid
}

// A crash followed by one corral reconcile leaves nothing: it waits out the dead
// owner's lease (saying so) instead of leaving the orphan for a later run.
func TestOneReconcileAfterACrash(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	pid := startKilled(t, state)
	r := run(t, corral(t, "reconcile", "--json", "--state-dir", state))
	var d struct{ Decision, Detail string }
	json.Unmarshal([]byte(strings.TrimSpace(r.stdout)), &d)
	if r.code != 0 || d.Decision != "orphan-reaped" || !strings.Contains(r.stderr, "waiting") {
		t.Fatalf("reconcile: exit %d, %+v\nstdout %s\nstderr %s", r.code, d, r.stdout, r.stderr)
	}
	waitGone(t, pid, "the orphan")
}

// readEvents is the state dir's events.jsonl.
func readEvents(t *testing.T, state string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(state, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The UI opened just after a crash leaves the dead owner's run alone while its lease
// runs (the owner could still be alive) and reaps it once the lease expires, without a
// key press; the events pane says both (in tmux).
func TestUIReapsWhenTheLeaseExpires(t *testing.T) {
	state := t.TempDir()
	pid := startKilled(t, state)
	x := startTmux(t, 160, 40, fmt.Sprintf("%s --local --state-dir %s", corralBin, state))
	x.waitFor(`reconcile corral \w+: left-alone pid`, 20*time.Second)
	x.waitFor(`reconcile corral \w+: orphan-reaped pid`, 30*time.Second)
	waitGone(t, pid, "the orphan")
	x.keys("q")
	x.waitFor(`CORRAL-EXIT=0`, 20*time.Second)
}

// ls and reconcile on the registry corral run wrote.
func TestLsAndReconcile(t *testing.T) {
	state := t.TempDir()
	for _, code := range []string{"0", "4"} {
		cmd := corral(t, runArgs([]string{"--state-dir", state, "--name", "job" + code}, child("exit", code))...)
		run(t, cmd)
	}
	r := run(t, corral(t, "ls", "--json", "--state-dir", state))
	var ls struct {
		Runs []struct {
			RunID               string `json:"run_id"`
			Name, State, Reason string
			OwnerAlive          *bool `json:"owner_alive"`
		}
		Metrics struct {
			Spawn int            `json:"run_spawn_total"`
			Exit  map[string]int `json:"run_exit_total"`
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil || r.code != 0 {
		t.Fatalf("ls --json: %v, exit %d: %s", err, r.code, r.stdout)
	}
	if len(ls.Runs) != 2 || ls.Runs[0].State != "exited" || ls.Runs[0].OwnerAlive == nil ||
		ls.Metrics.Spawn != 2 || ls.Metrics.Exit["exit"] != 2 {
		t.Fatalf("ls %+v", ls)
	}
	table := run(t, corral(t, "ls", "--state-dir", state))
	if !strings.Contains(table.stdout, "job4") || !strings.HasPrefix(table.stdout, "ID") {
		t.Fatalf("ls table %q", table.stdout)
	}
	rec := run(t, corral(t, "reconcile", "--json", "--state-dir", state))
	if rec.code != 0 || rec.stdout != "" {
		t.Fatalf("reconcile with nothing open: exit %d %q", rec.code, rec.stdout)
	}
}

// Through the binary: after corral run was SIGKILLed, a process the user
// started with the run id ls printed is not reaped with the orphan; ls --json shows
// no secret (the run's marker). Before: "orphan-reaped … killed 2", the copy among them.
func TestReconcileSparesCopiedRunID(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	pid := startKilled(t, state)
	ls := run(t, corral(t, "ls", "--json", "--state-dir", state))
	var doc struct {
		Runs []map[string]any `json:"runs"`
	}
	if err := json.Unmarshal([]byte(ls.stdout), &doc); err != nil || len(doc.Runs) != 1 {
		t.Fatalf("ls --json: %v %s", err, ls.stdout)
	}
	if _, shown := doc.Runs[0]["secret"]; shown {
		t.Errorf("ls --json shows the run's secret: %s", ls.stdout)
	}
	copied := exec.Command("sleep", "300")
	copied.Env = append(os.Environ(), fmt.Sprintf("CORRAL_RUN_ID=%s", doc.Runs[0]["run_id"]))
	copied.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := copied.Start(); err != nil {
		t.Fatal(err)
	}
	fp := testkit.Pin(t, copied.Process.Pid)
	t.Cleanup(func() { fp.Signal(syscall.SIGKILL); copied.Wait() })
	r := run(t, corral(t, "reconcile", "--json", "--state-dir", state))
	if r.code != 0 || !strings.Contains(r.stdout, `"decision":"orphan-reaped"`) {
		t.Fatalf("reconcile: %+v", r)
	}
	waitGone(t, pid, "the orphan")
	if alive, _ := fp.Alive(); !alive {
		t.Fatalf("the process carrying a copied run id was reaped: %s", r.stdout)
	}
}
