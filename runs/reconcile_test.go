package runs

import (
	"bufio"
	"context"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"corral/demo"
	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/reaper"
	"corral/runs/agentstate"
)

// Reconciliation across instances: records of dead owners closed as lost, reaped or
// adopted; live owners and unexpired leases left alone.

// deadRecord writes a record owned by a dead instance with an expired lease.
func deadRecord(t *testing.T, reg *Registry, id string, fp reaper.Fingerprint) {
	t.Helper()
	deadSecretRecord(t, reg, id, "", fp)
}

// deadSecretRecord is deadRecord with the run's secret; "" writes a record as Corral
// wrote them before runs had secrets.
func deadSecretRecord(t *testing.T, reg *Registry, id, secret string, fp reaper.Fingerprint) {
	t.Helper()
	rec := Record{ID: id, Secret: secret, Name: id, Backend: "pipe", PID: fp.PID, PGID: fp.PID, SID: fp.PID,
		Fingerprint: fp, State: Running, CreatedAt: time.Now(), OwnerInstanceID: "idead",
		LeaseEpoch: 3, LeaseExpiresAt: time.Now().Add(-time.Minute)}
	if err := reg.withLock(func() error { return reg.write(rec) }); err != nil {
		t.Fatal(err)
	}
}

// startOutside starts a demo child in its own session, outside any supervisor.
func startOutside(t *testing.T, mode string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	return startOutsideEnv(t, nil, mode, args...)
}

// startOutsideEnv is startOutside with extra environment.
func startOutsideEnv(t *testing.T, extra []string, mode string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	argv, env := demo.Child(mode, args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append(os.Environ(), env...), extra...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first, _ := bufio.NewReader(out).ReadString('\n') // its first line: it is running
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
	return cmd, strings.TrimSpace(first)
}

// A record whose pid now belongs to another process (start time differs), and one
// from another boot, are closed as lost; the live process is not signalled.
func TestStaleRecordsClosedAsLost(t *testing.T) {
	dir := t.TempDir()
	reg := openReg(t, dir)
	s := regSup(t, reg)
	stranger, _ := startOutside(t, "sleep")
	fp := testkit.Pin(t, stranger.Process.Pid)
	reused := fp
	reused.StartTime--
	reused.PidfsIno = 0
	otherBoot := fp
	otherBoot.BootID = "00000000-0000-0000-0000-000000000000"
	deadRecord(t, reg, "rreused", reused)
	deadRecord(t, reg, "rotherboot", otherBoot)
	ds, err := s.Reconcile(context.Background())
	if err != nil || len(ds) != 2 {
		t.Fatalf("decisions %+v %v", ds, err)
	}
	for _, d := range ds {
		if d.Decision != VerdictLost {
			t.Errorf("%s: %s (%s), want lost", d.ID, d.Decision, d.Detail)
		}
		if rec, _ := reg.record(d.ID); rec.State != Exited || rec.Reason != Lost {
			t.Errorf("%s record %s/%s", d.ID, rec.State, rec.Reason)
		}
	}
	if ok, _ := fp.Alive(); !ok {
		t.Fatal("the stranger holding the pid was signalled")
	}
}

// restart-reconcile: a real Corral process with a PTY run and a pipe run (each with a
// grandchild) is SIGKILLed; a second one reconciles: each orphan is reaped exactly
// once, the records say orphan-reaped, nothing is left.
func TestRestartReconcile(t *testing.T) {
	dir := t.TempDir()
	runs, members := killedSupervisor(t, dir)
	reg := openReg(t, dir)
	s := regSup(t, reg)
	ds := reconcileUntilSettled(t, s)
	for _, id := range runs {
		d := ds[id]
		if d.Decision != VerdictReaped {
			t.Errorf("%s: %s (%s), want orphan-reaped", id, d.Decision, d.Detail)
		}
		if rec, _ := reg.record(id); rec.State != Exited || rec.Reason != OrphanReaped ||
			!rec.Cleanup.VerifiedEmpty || rec.Cleanup.Killed != 3 {
			t.Errorf("record %s: %s/%s %+v", id, rec.State, rec.Reason, rec.Cleanup)
		}
	}
	assertPIDsGone(t, members)
	counts := eventCounts(t, dir)
	for _, id := range runs {
		if counts[id]["lease-steal"] != 1 || counts[id]["reconcile:orphan-reaped"] != 1 {
			t.Errorf("%s: events %v, want one steal and one reap", id, counts[id])
		}
	}
}

// killedSupervisor runs the supervise role, learns its runs and their pids, and
// SIGKILLs it.
func killedSupervisor(t *testing.T, dir string) (runs []string, members []int) {
	t.Helper()
	cmd, stderr := startRole(t, "supervise", dir)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "ready" {
		var id string
		var pids []int
		f := strings.SplitN(sc.Text(), " ", 3)
		id = f[1]
		json.Unmarshal([]byte(strings.ReplaceAll(f[2], " ", ",")), &pids)
		runs, members = append(runs, id), append(members, pids...)
	}
	killReapLater(t, members) // whatever happens, kill what it started
	cmd.Process.Kill()
	cmd.Wait()
	if len(runs) != 2 || len(members) != 6 {
		t.Fatalf("supervisor reported runs %v members %v; stderr %s", runs, members, stderr)
	}
	return runs, members
}

// reconcileUntilSettled reconciles until no record is left alone (the dead owner's
// leases expire within LeaseExpiry), with a deadline.
func reconcileUntilSettled(t *testing.T, s *Supervisor) map[string]Decision {
	t.Helper()
	var mu sync.Mutex
	all := map[string]Decision{}
	passes := make(chan struct{}, 1)
	// The supervisor reconciles again by itself once the leases it left alone have
	// expired: no loop here, only its reports.
	s.ReconcileInBackground(func(ds []Decision, err error) {
		if err != nil {
			t.Error(err)
		}
		mu.Lock()
		for _, d := range ds {
			if d.Decision != VerdictKept && !all[d.ID].Final() {
				all[d.ID] = d
			}
		}
		mu.Unlock()
		select {
		case passes <- struct{}{}:
		default:
		}
	})
	deadline := time.After(20 * time.Second)
	for {
		select {
		case <-passes:
		case <-deadline:
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("still left alone after 20s: %+v", all)
		}
		mu.Lock()
		settled := !slices.ContainsFunc(slices.Collect(maps.Values(all)), func(d Decision) bool { return d.Decision == VerdictLeftAlone })
		out := maps.Clone(all)
		mu.Unlock()
		if settled {
			return out
		}
	}
}

// eventCounts counts events.jsonl entries per run: by message, and reconcile entries
// by decision.
func eventCounts(t *testing.T, dir string) map[string]map[string]int {
	f, err := os.Open(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	counts := map[string]map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e struct {
			Msg, Decision string
			Run           string `json:"run_id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("bad event line %q: %v", sc.Text(), err)
		}
		if counts[e.Run] == nil {
			counts[e.Run] = map[string]int{}
		}
		counts[e.Run][e.Msg]++
		if e.Msg == "reconcile" {
			counts[e.Run]["reconcile:"+e.Decision]++
		}
	}
	return counts
}

// lease-contention: eight real processes reconcile the same dead instance's runs at
// once: exactly one steal and one reap per run.
func TestLeaseContention(t *testing.T) {
	dir := t.TempDir()
	runs, members := killedSupervisor(t, dir)
	var cmds []*exec.Cmd
	for i := 0; i < 8; i++ {
		cmd, stderr := startRole(t, "reconcile", dir)
		cmd.Stdout = &strings.Builder{}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("reconciler %d stderr: %s", i, stderr)
			}
		})
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("reconciler: %v", err)
		}
	}
	assertPIDsGone(t, members)
	counts := eventCounts(t, dir)
	for _, id := range runs {
		if counts[id]["lease-steal"] != 1 || counts[id]["reconcile:orphan-reaped"] != 1 || counts[id]["escalation"] < 1 {
			t.Errorf("%s: events %v, want exactly one steal and one reap", id, counts[id])
		}
	}
}

// Adoption: with policy adopt, the orphans become runs of the new instance, observed
// and cancellable.
func TestAdoptedOrphanCanBeCancelled(t *testing.T) {
	dir := t.TempDir()
	runs, members := killedSupervisor(t, dir)
	s := regSup(t, openReg(t, dir), WithPolicy(PolicyAdopt))
	ds := reconcileUntilSettled(t, s)
	for _, id := range runs {
		if ds[id].Decision != VerdictAdopted {
			t.Fatalf("%s: %+v, want adopted", id, ds[id])
		}
		info, err := s.Info(id)
		if err != nil || !info.Adopted || info.State != Running {
			t.Fatalf("adopted run %+v %v", info, err)
		}
		if err := s.Write(id, []byte("x")); err == nil {
			t.Error("terminal I/O to an adopted run did not fail")
		}
		trees, _ := s.Trees(id)
		if len(trees[id]) != 3 || trees[id][0].Mark != reaper.MarkAdopted {
			t.Errorf("adopted tree %+v", trees[id])
		}
		s.Cancel(id)
		if info := waitEnd(t, s, id); info.Reason != ManualCancel {
			t.Errorf("adopted run ended %s", info.Reason)
		}
	}
	assertPIDsGone(t, members)
}

// An adopted run has no terminal, so nobody judges its agent: its record stops
// saying the state its old owner last judged, and corral ls (the record) says what
// info does.
func TestAdoptedRunDropsTheOldAgentState(t *testing.T) {
	dir := t.TempDir()
	ids, members := killedSupervisor(t, dir)
	reg := openReg(t, dir)
	for _, id := range ids { // as the old owner left them: an agent at its question
		rec, err := reg.record(id)
		if err != nil {
			t.Fatal(err)
		}
		rec.Agent, rec.AgentState, rec.AgentRule = "claude", agentstate.Waiting, "permission-question"
		if err := reg.store(rec, true); err != nil {
			t.Fatal(err)
		}
	}
	s := regSup(t, reg, WithPolicy(PolicyAdopt))
	ds := reconcileUntilSettled(t, s)
	for _, id := range ids {
		if ds[id].Decision != VerdictAdopted {
			t.Fatalf("%s: %+v, want adopted", id, ds[id])
		}
		info, _ := s.Info(id)
		// Written at once, or, when the reconcile holds the registry lock, as soon as
		// it is free.
		rec, ok := eventually.Within(5*time.Second, func() (Record, bool) {
			rec, err := reg.record(id)
			return rec, err == nil && rec.AgentState == info.AgentState && rec.Agent == info.Agent
		})
		if !ok || info.AgentState != agentstate.Unknown {
			t.Errorf("%s: record says %q %s, info %q %s", id, rec.Agent, rec.AgentState, info.Agent, info.AgentState)
		}
		s.Cancel(id)
		waitEnd(t, s, id)
	}
	assertPIDsGone(t, members)
}
