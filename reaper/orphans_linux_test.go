package reaper

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// runMarker is the per-run environment marker the escape tests put in the root's
// environment; the escapee inherits it through the double fork.
const runMarker = "CORRAL_TEST_RUN"

// startEscape runs the demo's setsid + double fork with runMarker set and returns the
// child and the escapee's fingerprint. When it returns, the middle process has exited
// and been reaped, so the escapee has already been reparented.
func startEscape(t *testing.T) (*child, Fingerprint) {
	t.Helper()
	cmd := demoCmd("escape")
	cmd.Env = append(cmd.Env, runMarker+"=run-42")
	c := startCmd(t, cmd)
	c.learnLine("escapee")
	return c, c.known[1]
}

// TestSubreaperEscape: with Corral a subreaper, a double-forked escapee reparents to it
// (not to init), shows among our children in a /proc scan, has left the run's session,
// can no longer be found by walking the run's tree, and still carries the run's marker.
func TestSubreaperEscape(t *testing.T) {
	if err := SetSubreaper(); err != nil { // TestMain set it already: idempotent
		t.Fatal(err)
	}
	c, fp := startEscape(t)
	esc := fp.PID
	p, err := ReadProc(esc)
	if err != nil || p.PPID != os.Getpid() || p.SID == c.pid() || p.SID != esc {
		t.Fatalf("escapee %+v, %v: want ppid %d (us) and a session of its own", p, err, os.Getpid())
	}

	all, err := ListAll()
	if err != nil {
		t.Fatal(err)
	}
	var kids []int // what the escape scan takes for Corral's children
	for _, p := range all {
		if p.PPID == os.Getpid() {
			kids = append(kids, p.PID)
		}
	}
	if !slices.Contains(kids, esc) || !slices.Contains(kids, c.pid()) {
		t.Errorf("children by ppid = %v, want the root %d and the escapee %d", kids, c.pid(), esc)
	}
	if got := Escapees(all, c.pid(), c.pid()); len(got) != 0 {
		t.Errorf("Escapees of the root = %+v: the detached escapee is no descendant any more", got)
	}

	for pid, name := range map[int]string{esc: "escapee", c.pid(): "root"} {
		if v, err := EnvVar(pid, runMarker); v != "run-42" || err != nil {
			t.Errorf("%s marker = %q, %v; want run-42", name, v, err)
		}
	}
	if v, err := EnvVar(esc, "CORRAL_TEST_UNSET"); v != "" || err != nil {
		t.Errorf("unset variable = %q, %v", v, err)
	}
}

// TestReapIfZombie reaps a reparented zombie by exact pid and leaves live children,
// strangers and exec.Cmd's own child alone.
func TestReapIfZombie(t *testing.T) {
	c, fp := startEscape(t)
	esc := fp.PID
	for _, pid := range []int{esc, 1} { // live child; not our child
		if reaped, err := ReapIfZombie(pid); reaped || err != nil {
			t.Errorf("ReapIfZombie(%d) = %v, %v; want false, nil", pid, reaped, err)
		}
	}
	for _, pid := range []int{0, -1, -c.pid()} {
		if reaped, err := ReapIfZombie(pid); reaped || !errors.Is(err, ErrProtected) {
			t.Errorf("ReapIfZombie(%d) = %v, %v; want ErrProtected", pid, reaped, err)
		}
	}

	if err := fp.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), waitFor)
	defer cancel()
	if err := WaitGone(ctx, fp); err != nil {
		t.Fatal(err)
	}
	if p, err := ReadProc(esc); err != nil || p.State != 'Z' {
		t.Fatalf("killed escapee %+v, %v: want a zombie", p, err)
	}
	// The leader of a multi-threaded process shows 'Z' as soon as its own thread has
	// exited, but is waitable only once every thread has: retry until then.
	type reap struct {
		reaped bool
		err    error
	}
	if r, _ := eventually.Within(waitFor, func() (reap, bool) {
		reaped, err := ReapIfZombie(esc)
		return reap{reaped, err}, reaped || err != nil
	}); !r.reaped || r.err != nil {
		t.Fatalf("ReapIfZombie(zombie) = %v, %v; want true", r.reaped, r.err)
	}
	if _, err := os.Stat("/proc/" + strconv.Itoa(esc)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("/proc/%d after the reap: %v", esc, err)
	}
	if reaped, err := ReapIfZombie(esc); reaped || err != nil {
		t.Errorf("second ReapIfZombie = %v, %v", reaped, err)
	}
	if v, err := EnvVar(esc, runMarker); v != "" || !errors.Is(err, ErrGone) {
		t.Errorf("EnvVar(reaped) = %q, %v; want ErrGone", v, err)
	}
	// The root is exec.Cmd's: still running, still its to wait for.
	if alive, _ := c.known[0].Alive(); !alive {
		t.Error("the root died")
	}
}

// TestWaitGone waits for processes that are not exec.Cmd's children: the reparented
// escapee and a grandchild whose parent is alive (a true stranger to wait4).
func TestWaitGone(t *testing.T) {
	c, esc := startEscape(t)
	tr := start(t, "tree", "1")
	tr.learnTree()
	grandchild := tr.known[1]
	if p, _ := ReadProc(grandchild.PID); p.PPID == os.Getpid() {
		t.Fatalf("grandchild %+v is our child", p)
	}

	for _, fp := range []Fingerprint{esc, grandchild} {
		blocked, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		if err := WaitGone(blocked, fp); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("WaitGone(%d) on a live process = %v, want DeadlineExceeded", fp.PID, err)
		}
		cancel()
		cancelled, cancel := context.WithCancel(t.Context())
		cancel()
		if err := WaitGone(cancelled, fp); !errors.Is(err, context.Canceled) {
			t.Errorf("WaitGone(%d) cancelled = %v, want Canceled", fp.PID, err)
		}
		done := make(chan error, 1)
		go func() { done <- WaitGone(context.Background(), fp) }()
		if err := fp.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("WaitGone(%d) = %v", fp.PID, err)
			}
		case <-time.After(waitFor):
			t.Fatalf("WaitGone(%d) did not return after the kill", fp.PID)
		}
	}
	if err := WaitGone(t.Context(), esc); err != nil {
		t.Errorf("WaitGone on a gone process = %v", err)
	}
	stale := c.known[0]
	stale.StartTime++
	otherBoot := c.known[0]
	otherBoot.BootID = "00000000-0000-4000-8000-000000000000"
	for _, fp := range []Fingerprint{stale, otherBoot, {}} {
		if err := WaitGone(t.Context(), fp); err != nil {
			t.Errorf("WaitGone(%+v) = %v; a mismatch is gone", fp, err)
		}
	}
	if alive, _ := c.known[0].Alive(); !alive {
		t.Error("the process behind a stale fingerprint died")
	}
}

// TestPollGone covers WaitGone's fallback without pidfds.
func TestPollGone(t *testing.T) {
	c := start(t, "tree", "1")
	c.learnTree()
	fp := c.known[1]
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	if err := pollGone(cancelled, fp); !errors.Is(err, context.Canceled) {
		t.Errorf("pollGone cancelled = %v", err)
	}
	if err := fp.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), waitFor)
	defer cancel()
	if err := pollGone(ctx, fp); err != nil {
		t.Errorf("pollGone after the kill = %v", err)
	}
}
