package reaper

import (
	"errors"
	"syscall"
	"testing"
)

func TestIdentifyAlive(t *testing.T) {
	c := start(t, "sleep")
	c.line("ready sleep")
	fp, err := Identify(c.pid())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := ReadProc(c.pid())
	boot, _ := BootID()
	if fp.BootID != boot || len(boot) != 36 || fp.PID != c.pid() || fp.StartTime != p.StartTime {
		t.Fatalf("fingerprint %+v, boot %q, stat %+v", fp, boot, p)
	}
	if hasPidfs() && fp.PidfsIno == 0 {
		t.Error("pidfs present but no inode recorded")
	}
	if alive, err := fp.Alive(); !alive || err != nil {
		t.Fatalf("Alive = %v, %v; want true", alive, err)
	}

	if err := fp.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	c.wait()
	if alive, err := fp.Alive(); alive || err != nil {
		t.Errorf("after reap Alive = %v, %v; want false, nil", alive, err)
	}
	if err := fp.Signal(syscall.SIGKILL); !errors.Is(err, ErrGone) {
		t.Errorf("Signal after reap: %v, want ErrGone", err)
	}
	if again, err := Identify(c.pid()); err == nil && again == fp {
		t.Errorf("Identify after reap returned the old fingerprint")
	}
	c.requireGone()
}

// TestFingerprintMismatch: fingerprints that name the pid of a live process but not
// that process are not alive and are never signalled; the process survives.
func TestFingerprintMismatch(t *testing.T) {
	c := start(t, "sleep")
	c.line("ready sleep")
	fp := c.known[0]
	wrongStart, otherBoot, wrongIno := fp, fp, fp
	wrongStart.StartTime++
	otherBoot.BootID = "00000000-0000-4000-8000-000000000000"
	wrongIno.PidfsIno++
	cases := map[string]Fingerprint{"start time": wrongStart, "boot id": otherBoot}
	if fp.PidfsIno != 0 {
		cases["pidfs inode"] = wrongIno
	}
	for name, bad := range cases {
		if alive, err := bad.Alive(); alive || err != nil {
			t.Errorf("%s: Alive = %v, %v; want false, nil", name, alive, err)
		}
		if err := bad.Signal(syscall.SIGKILL); !errors.Is(err, ErrGone) {
			t.Errorf("%s: Signal = %v; want ErrGone", name, err)
		}
	}
	if alive, err := fp.Alive(); !alive || err != nil {
		t.Fatalf("the real process did not survive: %v, %v", alive, err)
	}
	if p, _ := ReadProc(fp.PID); p.State == 'Z' {
		t.Fatal("the real process is a zombie")
	}
	if err := fp.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	c.wait()
	c.requireGone()
}

func TestFingerprintProtected(t *testing.T) {
	boot, _ := BootID()
	for _, pid := range []int{-1, 0, 1} {
		fp := Fingerprint{BootID: boot, PID: pid}
		if err := fp.Signal(syscall.Signal(0)); !errors.Is(err, ErrProtected) {
			t.Errorf("Signal pid %d: %v, want ErrProtected", pid, err)
		}
	}
	if alive, err := (Fingerprint{BootID: boot}).Alive(); alive || err != nil {
		t.Errorf("zero fingerprint Alive = %v, %v", alive, err)
	}
}
