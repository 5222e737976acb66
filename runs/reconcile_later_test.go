package runs

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stubbornOrphans is how many runs roleStubborn leaves to reconcile.
const stubbornOrphans = 6

// roleStubborn starts six pipe runs that ignore SIGTERM (grace 1 s each), prints
// "run ID PID" for each, then waits to be killed.
func roleStubborn(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()), WithEscapeDetection())
	if err != nil {
		return err
	}
	for i := range stubbornOrphans {
		spec := childSpec(false, "ignore-term")
		spec.Name, spec.Grace = fmt.Sprintf("stubborn-%d", i), time.Second
		id, err := s.Spawn(spec)
		if err != nil {
			return err
		}
		if err := awaitOutput(s, id, "ready ignore-term"); err != nil {
			return err
		}
		info, _ := s.Info(id)
		fmt.Printf("run %s %d\n", id, info.PID)
	}
	fmt.Println("ready")
	select {}
}

// Six orphans that ignore SIGTERM are ended all at once: every one has had its
// SIGTERM before the first is SIGKILLed (one after another, that took six graces
// before the command or the UI could start). And nobody asks twice: the
// supervisor reconciles again by itself when the dead owner's leases expire.
func TestOrphansEndedAtOnce(t *testing.T) {
	dir := t.TempDir()
	cmd, stderr := startRole(t, "stubborn", dir)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pids []int
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "ready" {
		var id string
		var pid int
		fmt.Sscanf(sc.Text(), "run %s %d", &id, &pid)
		pids = append(pids, pid)
	}
	killReapLater(t, pids)
	cmd.Process.Kill()
	cmd.Wait()
	if len(pids) != stubbornOrphans {
		t.Fatalf("role started %v; stderr %s", pids, stderr)
	}
	s := regSup(t, openReg(t, dir))
	ds := reconcileUntilSettled(t, s)
	reaped := 0
	for _, d := range ds {
		if d.Decision == VerdictReaped {
			reaped++
		}
	}
	if reaped != stubbornOrphans {
		t.Fatalf("reaped %d of %d: %+v", reaped, stubbornOrphans, ds)
	}
	assertPIDsGone(t, pids)
	lastTerm, firstKill := escalationTimes(t, dir)
	if !lastTerm.Before(firstKill) {
		t.Errorf("the last SIGTERM (%s) came after the first SIGKILL (%s): orphans were ended one by one",
			lastTerm.Format(time.StampMicro), firstKill.Format(time.StampMicro))
	}
}

// escalationTimes reads events.jsonl: when the last term step and the first kill step
// of any run were logged.
func escalationTimes(t *testing.T, dir string) (lastTerm, firstKill time.Time) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e struct {
			Time      time.Time
			Msg, Step string
		}
		json.Unmarshal([]byte(l), &e)
		switch {
		case e.Msg != "escalation":
		case e.Step == "term" && e.Time.After(lastTerm):
			lastTerm = e.Time
		case e.Step == "kill" && (firstKill.IsZero() || e.Time.Before(firstKill)):
			firstKill = e.Time
		}
	}
	if lastTerm.IsZero() || firstKill.IsZero() {
		t.Fatalf("no term or kill step in events.jsonl:\n%s", b)
	}
	return lastTerm, firstKill
}
