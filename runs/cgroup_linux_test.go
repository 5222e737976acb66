package runs

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/reaper"
	"corral/runs/keeper"
)

// The cgroup backend (ARCHITECTURE.md, "Ownership") in runs: what leaves a session
// stays the run's, shown as contained, ended with it, and ended exactly by a reconcile
// after a crash.

func init() { roles["escape-late"] = roleEscapeLate }

// cgroupSup is a supervisor on the cgroup backend, or a skip where none can be made.
func cgroupSup(t *testing.T, opts ...Option) *Supervisor {
	t.Helper()
	base := FindCgroups("")
	if base.Dir == "" {
		t.Skip(base.Reason)
	}
	return newSup(t, append(opts, WithCgroups(base))...)
}

// An agent that forks managed daemons out of its session (as codex does) keeps
// running; the daemons are members of its cgroup, shown as contained (not escaped),
// and the cancel ends them with it. Its record says so, and its cgroup is removed.
func TestCgroupDaemonsContained(t *testing.T) {
	kinds(t, func(t *testing.T, pty bool) {
		dir := t.TempDir()
		s := cgroupSup(t, WithRegistry(openReg(t, dir)), WithEscapeDetection())
		id := spawn(t, s, childSpec(pty, "codex-like"))
		out := waitOutput(t, s, id, "agent ready")
		daemons := pidsAfter(out, "daemon")
		if len(daemons) != 2 {
			t.Fatalf("daemons %v", daemons)
		}
		info, _ := s.Info(id)
		if info.Cgroup == "" || info.Escapees != 0 {
			t.Fatalf("cgroup %q, escapees %d: want a cgroup and no escape", info.Cgroup, info.Escapees)
		}
		trees, _ := s.Trees(id)
		contained := 0
		for _, p := range trees[id] {
			if p.Mark == reaper.MarkContained {
				contained++
			}
		}
		if contained != 2 {
			t.Errorf("tree %+v: want the 2 daemons contained", trees[id])
		}
		if rec, _ := s.reg.record(id); rec.CleanupMode != "cgroup" || rec.Cgroup != info.Cgroup {
			t.Errorf("record: mode %q cgroup %q", rec.CleanupMode, rec.Cgroup)
		}
		s.Cancel(id)
		end := waitEnd(t, s, id)
		if end.Cleanup.Killed < 3 {
			t.Errorf("killed %d, want the root and both daemons", end.Cleanup.Killed)
		}
		assertPIDsGone(t, daemons)
		if _, err := os.Stat(info.Cgroup); !os.IsNotExist(err) {
			t.Errorf("the run's cgroup is left: %v", err)
		}
	})
}

// A daemon started with setsid and env -i (no session, no run id) is the run's: it
// ends with it, and the run is verified empty only once it is gone.
func TestCgroupUnmarkedEscapeeEnds(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid(1) not installed")
	}
	s := cgroupSup(t)
	id := spawn(t, s, Spec{Shell: "setsid -f sh -c 'echo escapee $$; exec env -i sleep 1000'; exec sleep 1000",
		Timeout: time.Second, NoOutputTimeout: -1})
	pids := pidsAfter(waitOutput(t, s, id, "escapee "), "escapee")
	killReapLater(t, pids)
	info := waitEnd(t, s, id)
	if info.Reason != OverallTimeout || info.Cleanup.Killed != 2 {
		t.Errorf("reason %s, killed %d: want overall-timeout, the root and the escapee", info.Reason, info.Cleanup.Killed)
	}
	assertPIDsGone(t, pids)
}

// A process run A detached with run B's id in its environment is A's — its cgroup
// says so, whatever it claims — so B's end leaves it and A's ends it.
func TestCgroupSpoofedRunIDIsTheStarters(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid(1) not installed")
	}
	s := cgroupSup(t, WithEscapeDetection())
	b := spawn(t, s, childSpec(false, "sleep"))
	waitOutput(t, s, b, "ready sleep")
	a := spawn(t, s, Spec{Shell: "env " + RunIDEnv + "=" + b + " setsid -f sh -c 'echo spoof $$; exec sleep 1000'; exec sleep 1000"})
	pids := pidsAfter(waitOutput(t, s, a, "spoof "), "spoof")
	killReapLater(t, pids)
	s.Cancel(b)
	waitEnd(t, s, b)
	if p, err := reaper.ReadProc(pids[0]); err != nil || p.State == 'Z' {
		t.Fatal("run B's end took the process run A started")
	}
	s.Cancel(a)
	waitEnd(t, s, a)
	assertPIDsGone(t, pids)
}

// A paused run's cgroup is frozen: a daemon out of its session stops too.
func TestCgroupPauseFreezes(t *testing.T) {
	s := cgroupSup(t)
	id := spawn(t, s, childSpec(false, "codex-like"))
	waitOutput(t, s, id, "agent ready")
	if err := s.Pause(id); err != nil {
		t.Fatal(err)
	}
	info, _ := s.Info(id)
	waitPaused(t, info)
	if err := s.Resume(id); err != nil {
		t.Fatal(err)
	}
	if f, _ := (&reaper.Cgroup{Path: info.Cgroup}).Frozen(); f {
		t.Error("still frozen after resume")
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// roleEscapeLate starts a run that detaches an unmarked daemon (setsid, env -i) and
// prints its pid at once: the role is killed right after, before anything could have
// looked for it.
func roleEscapeLate(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()), WithEscapeDetection(), WithCgroups(FindCgroups("")))
	if err != nil {
		return err
	}
	id, err := s.Spawn(Spec{Shell: "setsid -f sh -c 'echo escapee $$; exec env -i sleep 1000'; exec sleep 1000"})
	if err != nil {
		return err
	}
	if err := awaitOutput(s, id, "escapee "); err != nil {
		return err
	}
	out, _ := s.Log(id)
	info, _ := s.Info(id)
	fmt.Printf("run %s %s %d\n", id, info.Cgroup, pidsAfter(out.Bytes(), "escapee")[0])
	select {}
}

// An env -i daemon forked just before Corral was killed, which no scan ever saw and
// which carries no run id, is ended by the next Corral's reconcile: the record names
// the cgroup, and the cgroup holds it.
func TestCgroupReconcileEndsWhatNoScanSaw(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid(1) not installed")
	}
	if FindCgroups("").Dir == "" {
		t.Skip(FindCgroups("").Reason)
	}
	dir := t.TempDir()
	cmd, stderr := startRole(t, "escape-late", dir)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	f := strings.Fields(line)
	cmd.Process.Kill()
	cmd.Wait()
	if len(f) != 4 {
		t.Fatalf("role said %q; stderr %s", line, stderr)
	}
	id, cg := f[1], f[2]
	esc, _ := strconv.Atoi(f[3])
	killReapLater(t, []int{esc})
	s := regSup(t, openReg(t, dir))
	ds := reconcileUntilSettled(t, s)
	if d := ds[id]; d.Decision != VerdictReaped || !strings.Contains(d.Detail, "killed 2") {
		t.Errorf("decision %+v, want orphan-reaped with the root and the daemon killed", d)
	}
	assertPIDsGone(t, []int{esc})
	eventually.True(t, 5*time.Second, "the cgroup removed", func() bool {
		_, err := os.Stat(cg)
		return os.IsNotExist(err)
	})
}

// A record naming a cgroup that is not a run cgroup of Corral's — a forged one
// pointing at a service's — gets nothing signalled: it is closed as invalid.
func TestCgroupForgedRecordRefused(t *testing.T) {
	base := FindCgroups("")
	if base.Dir == "" {
		t.Skip(base.Reason)
	}
	victim, err := reaper.NewCgroup(base.Dir, fmt.Sprintf("r%012x", time.Now().UnixNano()&0xffffffffffff))
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Remove()
	fd, _ := victim.FD()
	cmd := exec.Command("sleep", "1000")
	cmd.SysProcAttr = cgroupAttr(fd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	fp, _ := reaper.Identify(cmd.Process.Pid)
	dir := t.TempDir()
	reg := openReg(t, dir)
	rec := Record{ID: "r0123456789ab", Name: "forged", Backend: KindPipe, PID: fp.PID, PGID: fp.PID, SID: fp.PID,
		Fingerprint: fp, State: Running, CreatedAt: time.Now(), OwnerInstanceID: "idead", LeaseEpoch: 3,
		LeaseExpiresAt: time.Now().Add(-time.Minute), CleanupMode: "cgroup", Cgroup: victim.Path}
	if err := reg.withLock(func() error { return reg.write(rec) }); err != nil {
		t.Fatal(err)
	}
	s := regSup(t, reg)
	ds := reconcileUntilSettled(t, s)
	if d := ds[rec.ID]; d.Decision != VerdictLost || !strings.Contains(d.Detail, "invalid record") {
		t.Errorf("decision %+v, want lost as an invalid record", d)
	}
	if p, _ := victim.Populated(); !p {
		t.Error("the cgroup a forged record named was emptied")
	}
}

func cgroupAttr(fd int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}
}

// A cgroup run's CPU time comes from its cgroup: in its Info always, and in a
// snapshot (an attached UI's once-a-second read) only while someone looks at it.
func TestCgroupUsage(t *testing.T) {
	s := cgroupSup(t)
	id := spawn(t, s, Spec{Shell: "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; echo busy done; exec sleep 100"})
	waitOutput(t, s, id, "busy done")
	if info, _ := s.Info(id); info.Usage.CPU <= 0 {
		t.Fatalf("Info usage %+v after a busy loop", info.Usage)
	}
	inSnapshot := func() Usage {
		for _, i := range s.Snapshot() {
			if i.ID == id {
				return i.Usage
			}
		}
		t.Fatalf("%s not in the snapshot", id)
		return Usage{}
	}
	if u := inSnapshot(); u.CPU != 0 {
		t.Errorf("usage %+v read for a run nobody looks at", u)
	}
	if err := s.Focus(id, "viewer", true); err != nil {
		t.Fatal(err)
	}
	if u := inSnapshot(); u.CPU <= 0 {
		t.Errorf("usage %+v of the run looked at", u)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// A run is recorded with its cgroup before anything starts in it (no spawn hold on
// cgroups): a Corral killed after that record and before the one with the pid leaves
// a record without a pid, whose cgroup a reconcile empties and removes (the process in
// it carries the run's secret, as every run's does: that is what proves the cgroup the
// run's).
func TestCgroupRecordedBeforeTheFork(t *testing.T) {
	base := FindCgroups("")
	if base.Dir == "" {
		t.Skip(base.Reason)
	}
	dir := t.TempDir()
	dead := openReg(t, dir)
	id, secret := newID(), newSecret()
	cg, err := reaper.NewCgroup(base.Dir, id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cg.Kill(); cg.Remove() })
	if err := dead.create(Record{ID: id, Secret: secret, Name: "unborn", Backend: KindPipe, State: Starting,
		CreatedAt: time.Now(), CleanupMode: "cgroup", Cgroup: cg.Path}); err != nil {
		t.Fatal(err)
	}
	fd, err := cg.FD()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sleep", "1000") // what the dead Corral had just started
	cmd.Env = append(os.Environ(), RunSecretEnv+"="+secret)
	cmd.SysProcAttr = cgroupAttr(fd)
	err = cmd.Start()
	syscall.Close(fd)
	if err != nil {
		t.Fatal(err)
	}
	go cmd.Wait()
	dead.Close()
	s := regSup(t, openReg(t, dir))
	ds := reconcileUntilSettled(t, s)
	if d := ds[id]; d.Decision != VerdictReaped || !strings.Contains(d.Detail, "killed 1") {
		t.Errorf("decision %+v, want orphan-reaped with its one process killed", d)
	}
	assertPIDsGone(t, []int{cmd.Process.Pid})
	eventually.True(t, 5*time.Second, "the cgroup removed", func() bool {
		_, err := os.Stat(cg.Path)
		return os.IsNotExist(err)
	})
}

// A run in its cgroup is running once its cgroup's record is durable; its pid reaches
// the record behind it (commitBehindLocked), and a run that ends at once still leaves
// its final record, never the running one written late over it.
func TestCgroupRecordPIDBehind(t *testing.T) {
	reg := openReg(t, t.TempDir())
	s := cgroupSup(t, WithRegistry(reg), WithDefaults(shortLeases()))
	id := spawn(t, s, childSpec(false, "sleep"))
	if rec, err := reg.record(id); err != nil || rec.Cgroup == "" {
		t.Fatalf("record %+v, %v: want it naming the cgroup when Spawn returns", rec, err)
	}
	info, _ := s.Info(id)
	eventually.True(t, 10*time.Second, "the record's pid", func() bool {
		rec, err := reg.record(id)
		return err == nil && rec.State == Running && rec.PID == info.PID && rec.PID > 0
	})
	s.Cancel(id)
	waitEnd(t, s, id)
	for range 20 {
		quick := spawn(t, s, childSpec(false, "exit", "3"))
		waitEnd(t, s, quick)
		if rec, err := reg.record(quick); err != nil || rec.State != Exited || rec.ExitCode == nil || *rec.ExitCode != 3 {
			t.Fatalf("record of a run that exited at once: %+v, %v", rec, err)
		}
	}
}

// A server that died after its keeper kept a cgroup run and before the run's pid
// reached its record (commitBehindLocked) left a record that names the run's cgroup
// and no pid: the next server takes the run back when the kept root is a member of
// that cgroup (the record then names it), and refuses a root that is not.
func TestCgroupKeptBeforeItsPID(t *testing.T) {
	base := FindCgroups("")
	if base.Dir == "" {
		t.Skip(base.Reason)
	}
	dir := t.TempDir()
	old, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		t.Fatal(err)
	}
	id := newID()
	cg, err := reaper.NewCgroup(base.Dir, id)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := cg.FD()
	if err != nil {
		t.Fatal(err)
	}
	spec := childSpec(false, "sleep")
	root := exec.Command(spec.Argv[0], spec.Argv[1:]...)
	root.Env = append(os.Environ(), spec.Env...)
	root.SysProcAttr = &syscall.SysProcAttr{Setsid: true, UseCgroupFD: true, CgroupFD: fd}
	err = root.Start()
	syscall.Close(fd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		root.Process.Kill()
		root.Wait()
		cg.Remove()
	})
	if err := old.create(Record{ID: id, Secret: newSecret(), Name: "kept", Backend: KindPipe, Spec: spec,
		State: Starting, CreatedAt: time.Now(), CleanupMode: "cgroup", Cgroup: cg.Path}); err != nil {
		t.Fatal(err)
	}
	old.Close() // its server died

	reg := openReg(t, dir)
	s := regSup(t, reg)
	if _, err := s.stealKept(keeper.Run{ID: id, PID: os.Getpid()}); err == nil {
		t.Error("a kept root outside the record's cgroup was taken")
	}
	rec, err := s.stealKept(keeper.Run{ID: id, PID: root.Process.Pid})
	if err != nil {
		t.Fatalf("the run kept before its pid was recorded: %v", err)
	}
	if onDisk, _ := reg.record(id); rec.PID != root.Process.Pid || onDisk.PID != rec.PID || onDisk.State != Running ||
		onDisk.Fingerprint.PID != rec.PID || onDisk.OwnerInstanceID != reg.Instance() {
		t.Errorf("stolen record %+v, on disk %+v: want the kept root's pid, running, this instance's", rec, onDisk)
	}
}

// A run closed lost while its cgroup was still populated (its killed processes not yet
// reaped: a zombie keeps a cgroup populated) leaves the cgroup; once it is empty, a
// later reconcile removes it, and so does the supervisor's shutdown.
func TestCgroupOfALostRunRemovedOnceEmpty(t *testing.T) {
	base := FindCgroups("")
	if base.Dir == "" {
		t.Skip(base.Reason)
	}
	for _, by := range []string{"reconcile", "shutdown"} {
		t.Run(by, func(t *testing.T) {
			reg := openReg(t, t.TempDir())
			id := newID()
			cg, err := reaper.NewCgroup(base.Dir, id)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cg.Remove() })
			if err := reg.withLock(func() error {
				return reg.write(Record{ID: id, Name: "lost", Backend: KindPipe, State: Exited, Reason: Lost,
					PID: 4242, CreatedAt: time.Now(), CleanupMode: "cgroup", Cgroup: cg.Path, OwnerInstanceID: "igone"})
			}); err != nil {
				t.Fatal(err)
			}
			s, err := New(WithRegistry(reg), WithDefaults(testDefaults()), WithCgroups(base))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Shutdown(context.Background())
			if by == "reconcile" {
				if _, err := s.Reconcile(context.Background()); err != nil {
					t.Fatal(err)
				}
			} else {
				s.Shutdown(context.Background())
			}
			if _, err := os.Stat(cg.Path); !os.IsNotExist(err) {
				t.Fatalf("the lost run's empty cgroup %s is still there after %s (%v)", cg.Path, by, err)
			}
		})
	}
}
