package runs

import (
	"errors"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"corral/reaper"
)

// startEscapee starts args as a process that left run r's session (a session of its
// own, r's secret in its environment, as what leaves a run's session carries) and
// returns it with what /proc says of it; it is ended with the test if still alive.
func startEscapee(t *testing.T, r *run, args ...string) (*exec.Cmd, reaper.Proc) {
	t.Helper()
	c := exec.Command(args[0], args[1:]...)
	c.Env = append(c.Environ(), RunSecretEnv+"="+r.secret)
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Process.Kill()
		c.Wait()
	})
	p, err := reaper.ReadProc(c.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	return c, p
}

// A run keeps its live escapees, not every process that ever left its session: those
// that ended are dropped as new ones are noted, and a command line is kept cut as a
// cleanup's is. The ones kept are still the run's (they carry its secret, as what
// leaves a run's session does): its end ends them.
func TestEscapeesThatEndedAreDropped(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, childSpec(false, "sleep"))
	r, err := s.get(id)
	if err != nil {
		t.Fatal(err)
	}
	var started []*exec.Cmd
	start := func(args ...string) reaper.Proc {
		t.Helper()
		c, p := startEscapee(t, r, args...)
		started = append(started, c)
		return p
	}
	a, b := start("sleep", "100"), start("sh", "-c", "sleep 100; :", strings.Repeat("x", 1000))
	r.noteEscapees([]reaper.Proc{a, b})
	started[0].Process.Kill()
	started[0].Wait()
	c := start("sleep", "100")
	r.noteEscapees([]reaper.Proc{c})
	r.mu.Lock()
	kept := slices.Clone(r.escapees)
	r.mu.Unlock()
	pids := []int{}
	for _, e := range kept {
		pids = append(pids, e.PID)
		if n := len(strings.Join(e.Argv, "")); n > endedArgv+len("…") {
			t.Errorf("escapee %d's command line kept whole: %d bytes", e.PID, n)
		}
	}
	if !slices.Equal(pids, []int{b.PID, c.PID}) {
		t.Fatalf("escapees %v, want the live %d and %d (not the ended %d)", pids, b.PID, c.PID, a.PID)
	}
	if i, _ := s.Info(id); i.Escapees != 2 {
		t.Errorf("info says %d escapees, want 2", i.Escapees)
	}
	s.Cancel(id)
	if info := waitEnd(t, s, id); !info.Cleanup.VerifiedEmpty {
		t.Fatalf("cleanup %+v", info.Cleanup)
	}
	// Ended with it: gone, or a zombie waiting for this test (the cleanup may have
	// reaped it itself, as Corral reaps what its runs' cleanups end).
	for _, e := range []reaper.Proc{b, c} {
		if p, err := reaper.ReadProc(e.PID); err == nil && p.State != 'Z' && p.StartTime == e.StartTime {
			t.Errorf("escapee %d was not ended with its run", e.PID)
		}
	}
}

// Dropping the escapees that ended leaves a record taken before alone: a record
// written behind (outside the run's lock, when the registry is locked by another
// Corral) holds the run's escapees as they were, and an in-place delete shifted them
// under it (a live escapee lost from what was written, a blank one in its place).
func TestEscapeesDroppedLeaveRecordsAlone(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, childSpec(false, "sleep"))
	r, err := s.get(id)
	if err != nil {
		t.Fatal(err)
	}
	var started []*exec.Cmd
	start := func() reaper.Proc {
		t.Helper()
		c, p := startEscapee(t, r, "sleep", "100")
		started = append(started, c)
		return p
	}
	a, b := start(), start()
	r.noteEscapees([]reaper.Proc{a, b})
	r.mu.Lock()
	rec := r.recordLocked() // as persistLocked hands it to writeBehind
	r.mu.Unlock()
	started[0].Process.Kill()
	started[0].Wait()
	r.noteEscapees([]reaper.Proc{start()})
	var pids []int
	for _, e := range rec.Escapees {
		pids = append(pids, e.PID)
	}
	if !slices.Equal(pids, []int{a.PID, b.PID}) {
		t.Errorf("the record taken before says escapees %v, want %d and %d", pids, a.PID, b.PID)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// An escapee whose /proc cannot be read for want of a file descriptor (not because
// it ended) is kept: dropped, it would not be ended with its run.
func TestEscapeesUnreadAreKept(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, childSpec(false, "sleep"))
	r, err := s.get(id)
	if err != nil {
		t.Fatal(err)
	}
	c, p := startEscapee(t, r, "sleep", "100")
	r.noteEscapees([]reaper.Proc{p})
	// No descriptor left: the limit lowered to the lowest free one, for one note (again
	// if a descriptor was freed meanwhile, so the read did not fail).
	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &was); err != nil {
		t.Fatal(err)
	}
	var readErr error
	for range 20 {
		d, err := os.Open("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		fds, err := d.Readdirnames(-1)
		self := strconv.Itoa(int(d.Fd()))
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
		open := map[string]bool{}
		for _, f := range fds {
			open[f] = f != self
		}
		free := 0
		for open[strconv.Itoa(free)] {
			free++
		}
		low := was
		low.Cur = uint64(free)
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
			t.Fatal(err)
		}
		if _, readErr = reaper.ReadProc(c.Process.Pid); readErr != nil {
			r.noteEscapees([]reaper.Proc{{PID: 1}}) // a note, of one it cannot identify either
		}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &was); err != nil {
			t.Fatal(err)
		}
		if readErr != nil {
			break
		}
	}
	if readErr == nil || errors.Is(readErr, reaper.ErrGone) {
		t.Fatalf("with no descriptor left, /proc read: %v", readErr)
	}
	r.mu.Lock()
	n := len(r.escapees)
	r.mu.Unlock()
	if n != 1 {
		t.Errorf("%d escapees kept, want the one alive", n)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}
