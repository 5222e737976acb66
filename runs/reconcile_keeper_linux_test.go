package runs

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/runs/keeper"
)

// A live run whose dead owner's lease expired, and whose record names the state dir's
// live keeper: a reconcile by anyone but that keeper's server leaves it alone and
// says whose it is, signalling nothing; the keeper's own server (which took back what
// the keeper keeps before reconciling) reaps it as any dead server's run.
func TestReconcileLeavesKeptRunToLiveKeeper(t *testing.T) {
	dir := t.TempDir()
	reg := openReg(t, dir)
	s := regSup(t, reg)
	// This process stands for the keeper: keeper.lock names it and it holds the lock.
	lock, err := os.OpenFile(filepath.Join(dir, "keeper.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	lock.WriteString(strconv.Itoa(os.Getpid()) + "\n")
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	keeper := testkit.Pin(t, os.Getpid())
	id, secret := ownID("rkept"), newSecret()
	_, root := outsider(t, []string{RunSecretEnv + "=" + secret}, "sleep")
	rec := Record{ID: id, Secret: secret, Name: id, Backend: "pipe", PID: root.PID, PGID: root.PID, SID: root.PID,
		Fingerprint: root, State: Running, CreatedAt: time.Now(), OwnerInstanceID: "idead",
		LeaseEpoch: 3, LeaseExpiresAt: time.Now().Add(-time.Minute), Keeper: &keeper}
	if err := reg.withLock(func() error { return reg.write(rec) }); err != nil {
		t.Fatal(err)
	}

	d := reconcileOne(t, s, id)
	if d.Decision != VerdictLeftAlone || !strings.HasPrefix(d.Detail, "kept by the keeper (pid "+strconv.Itoa(os.Getpid())+"), whose server is down") ||
		!d.RetryAt.IsZero() || d.Keeper != os.Getpid() || len(Notable([]Decision{d})) != 1 {
		t.Fatalf("decision %s (%s) retry at %v; want left alone to the keeper", d.Decision, d.Detail, d.RetryAt)
	}
	if alive, _ := root.Alive(); !alive {
		t.Fatal("a run kept by a live keeper was signalled")
	}
	s.keptBy = &keeper // the keeper's own server
	if d := reconcileOne(t, s, id); d.Decision != VerdictReaped {
		t.Fatalf("decision %s (%s) by the keeper's own server, want orphan-reaped", d.Decision, d.Detail)
	}
	if alive, _ := root.Alive(); alive {
		t.Error("the run survived its keeper's server's reconcile")
	}
}

// A server of the keeper that takes back a kept run whose record names no keeper (one
// written before records named it) writes its keeper into it, so the run is left to
// that keeper should this server die too.
func TestTakenBackRecordNamesItsKeeper(t *testing.T) {
	reg := openReg(t, t.TempDir())
	s := regSup(t, reg)
	kfp := testkit.Pin(t, os.Getpid())
	s.keptBy = &kfp
	id, secret := ownID("rlegacy"), newSecret()
	_, root := outsider(t, []string{RunSecretEnv + "=" + secret}, "sleep")
	deadSecretRecord(t, reg, id, secret, root)
	rec, err := s.stealKept(keeper.Run{ID: id, PID: root.PID})
	if err != nil {
		t.Fatal(err)
	}
	if stored, _ := reg.record(id); rec.Keeper == nil || stored.Keeper == nil || *stored.Keeper != kfp {
		t.Fatalf("the taken-back record names keeper %+v, want %+v", stored.Keeper, kfp)
	}
}
