package runs

import (
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
	"corral/reaper"
)

// A reconcile in a copy of a live state dir (cp -a) leaves the original's live run
// alone and says why: the record names the state dir that wrote it, and the copy, whose
// identity file names another directory, has an identity of its own. Before: the
// copied instance lock was free in the copy, the copied lease expired there, and the
// copy's reconcile stole the run and ended it under the original server.
func TestCopiedStateDirSparesOriginalRuns(t *testing.T) {
	orig := t.TempDir()
	reg := openReg(t, orig)
	s := regSup(t, reg)
	id := spawn(t, s, childSpec(false, "sleep"))
	waitOutput(t, s, id, "ready sleep")
	info, _ := s.Info(id)
	copied := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-a", orig, copied).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v %s", err, out)
	}
	creg := openReg(t, copied)
	if creg.Identity() == "" || creg.Identity() == reg.Identity() {
		t.Errorf("the copy's identity %q, the original's %q: want two", creg.Identity(), reg.Identity())
	}
	if w := strings.Join(creg.Warnings(), "\n"); !strings.Contains(w, "is a copy") {
		t.Errorf("warnings %q, want the copy named", w)
	}
	cs := regSup(t, creg)
	rec, err := creg.record(id)
	if err != nil {
		t.Fatal(err)
	}
	eventually.True(t, 10*time.Second, "the copied lease to expire in the copy", func() bool {
		return creg.LeaseExpiry(rec).Before(time.Now())
	})
	d := reconcileOne(t, cs, id)
	if d.Decision != VerdictLeftAlone || !strings.Contains(d.Detail, "another state dir") {
		t.Errorf("the copy's decision %s (%s), want left-alone: another state dir's", d.Decision, d.Detail)
	}
	if alive, _ := info.Fingerprint.Alive(); !alive {
		t.Fatalf("the original's live run was killed by a reconcile in the copy (%s: %s)", d.Decision, d.Detail)
	}
	if got, _ := s.Info(id); got.State != Running {
		t.Fatalf("the original's run is %s, want running", got.State)
	}
	if d := reconcileOne(t, s, id); d.Decision != VerdictKept {
		t.Errorf("the original's own decision %s (%s), want kept", d.Decision, d.Detail)
	}
	// Once the run has ended in the original, the copy closes its copied record (in
	// the copy alone), signalling nothing: a run gone for good is not listed forever.
	s.Cancel(id)
	waitEnd(t, s, id)
	d = reconcileOne(t, cs, id)
	if d.Decision != VerdictLost || !strings.Contains(d.Detail, "another state dir") || !strings.Contains(d.Detail, "gone") {
		t.Errorf("the copy's decision once the run ended: %s (%s), want lost: another state dir's, gone", d.Decision, d.Detail)
	}
	// Opened again, the original keeps its identity, and the copy its own.
	if again := openReg(t, orig); again.Identity() != reg.Identity() || len(again.Warnings()) > 0 {
		t.Errorf("the original reopened: identity %q (was %q), warnings %q", again.Identity(), reg.Identity(), again.Warnings())
	}
}

// A forged record naming a cgroup under Corral's own base (corral/<id>,
// owned by us) that holds a process carrying no secret of the run gets nothing
// signalled: the cgroup's name and owner do not prove what was put in it. Before: the
// reconcile emptied it with cgroup.kill.
func TestForgedCgroupRecordSparesUnmarked(t *testing.T) {
	base := FindCgroups("")
	if base.Dir == "" {
		t.Skip(base.Reason)
	}
	id := fmt.Sprintf("r%012x", time.Now().UnixNano()&0xffffffffffff)
	victim, err := reaper.NewCgroup(base.Dir, id)
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Remove()
	fd, _ := victim.FD()
	cmd := exec.Command("sleep", "1000")
	cmd.Env = append(os.Environ(), RunSecretEnv+"="+newSecret()) // another run's secret
	cmd.SysProcAttr = cgroupAttr(fd)
	cmd.SysProcAttr.Setsid = true
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	fp := testkit.Pin(t, cmd.Process.Pid)
	t.Cleanup(func() { fp.Signal(syscall.SIGKILL); cmd.Wait() })
	eventually.True(t, 10*time.Second, "the victim to exec", func() bool {
		argv, _ := reaper.ReadCmdline(fp.PID)
		return len(argv) > 0 && argv[0] == "sleep"
	})
	for _, secret := range []string{newSecret(), ""} {
		reg := openReg(t, t.TempDir())
		rec := Record{ID: id, Secret: secret, Name: "forged", Backend: KindPipe, PID: fp.PID, PGID: fp.PID,
			SID: fp.PID, Fingerprint: fp, State: Running, CreatedAt: time.Now(), OwnerInstanceID: "idead",
			LeaseEpoch: 3, LeaseExpiresAt: time.Now().Add(-time.Minute), CleanupMode: "cgroup", Cgroup: victim.Path}
		if err := reg.withLock(func() error { return reg.write(rec) }); err != nil {
			t.Fatal(err)
		}
		s := regSup(t, reg)
		d := reconcileOne(t, s, id)
		if alive, _ := fp.Alive(); !alive {
			t.Fatalf("secret %q: the process in a forged record's cgroup was killed (%s: %s)", secret, d.Decision, d.Detail)
		}
		if d.Decision != VerdictLost || !strings.Contains(d.Detail, "not proven this run's") {
			t.Errorf("secret %q: decision %s (%s), want lost: not proven this run's", secret, d.Decision, d.Detail)
		}
	}
}

func init() { roles["escape-sessions"] = roleEscapeSessions }

// roleEscapeSessions is roleEscapeLate on the session backend: the run detaches an
// unmarked daemon (setsid, env -i); once the escape scan has recorded it, the role
// prints the run, its root and the daemon, and waits to be killed.
func roleEscapeSessions(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()), WithEscapeDetection(),
		WithCgroups(reaper.CgroupBase{Reason: "sessions"}))
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
	esc := pidsAfter(out.Bytes(), "escapee")[0]
	err, ok := eventually.Within(20*time.Second, func() (error, bool) {
		rec, err := reg.record(id)
		return err, err != nil || len(rec.Escapees) > 0 && rec.Escapees[0].PID == esc
	})
	if err != nil || !ok {
		return fmt.Errorf("the escapee %d never recorded: %v", esc, err)
	}
	info, _ := s.Info(id)
	fmt.Printf("run %s %d %d\n", id, info.PID, esc)
	select {}
}

// Sessions: an `env -i setsid` daemon whose fingerprint is in the record
// (no marker: env -i dropped it) is ended by the reconcile after its Corral was
// SIGKILLed, and the record says verified empty only once it is gone. Before: the
// claim required the secret of every process, dropped the escapee without a word, and
// the record said "verified empty, killed 1" while it lived.
func TestReconcileEndsRecordedUnmarkedEscapee(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid(1) not installed")
	}
	dir := t.TempDir()
	cmd, stderr := startRole(t, "escape-sessions", dir)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var id string
	var root, esc int
	line, _ := readLine(out)
	n, _ := fmt.Sscanf(line, "run %s %d %d", &id, &root, &esc)
	killReapLater(t, []int{root, esc})
	cmd.Process.Kill()
	cmd.Wait()
	if n != 3 {
		t.Fatalf("role said %q; stderr %s", line, stderr)
	}
	s := regSup(t, openReg(t, dir), sessions())
	ds := reconcileUntilSettled(t, s)
	d := ds[id]
	assertPIDsGone(t, []int{root, esc})
	if d.Decision != VerdictReaped || !strings.Contains(d.Detail, "killed 2") {
		t.Errorf("decision %+v, want orphan-reaped with the root and the escapee killed", d)
	}
	rec, _ := s.reg.record(id)
	if !rec.Cleanup.VerifiedEmpty || rec.Cleanup.Killed != 2 {
		t.Errorf("record cleanup %+v, want verified empty with 2 killed", rec.Cleanup)
	}
}

// readLine reads one line from r, byte by byte (nothing after it is consumed).
func readLine(r interface{ Read([]byte) (int, error) }) (string, error) {
	var b strings.Builder
	one := make([]byte, 1)
	for {
		n, err := r.Read(one)
		if n == 1 {
			if one[0] == '\n' {
				return b.String(), nil
			}
			b.WriteByte(one[0])
		}
		if err != nil {
			return b.String(), err
		}
	}
}
