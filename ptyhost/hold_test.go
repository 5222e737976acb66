//go:build !windows

package ptyhost

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"corral/demo/testkit"
)

// bothHosts runs f for a PTY and a pipe host.
func bothHosts(t *testing.T, f func(t *testing.T, pty bool)) {
	for _, pty := range []bool{true, false} {
		name := "pipe"
		if pty {
			name = "pty"
		}
		t.Run(name, func(t *testing.T) { f(t, pty) })
	}
}

// A held child closed before its release exits having run nothing of its program:
// what a supervisor killed before its registry write leaves.
func TestHoldAbortRunsNothing(t *testing.T) {
	bothHosts(t, func(t *testing.T, pty bool) {
		r := startChild(t, Options{PTY: pty, Hold: true}, "exit", "7")
		r.p.Close()
		code := r.wait(t)
		// On a PTY, closing the master hangs up the session: SIGHUP may end the held
		// child before it reads EOF. Either way it ran nothing.
		hup := pty && r.cmd.ProcessState.Sys().(syscall.WaitStatus).Signal() == syscall.SIGHUP
		if code != holdAborted && !hup {
			t.Fatalf("exit code %d, want %d (held, never released)", code, holdAborted)
		}
		if out := r.out.text(Stdout); strings.Contains(out, "bye") {
			t.Fatalf("the program ran without a release: %q", out)
		}
	})
}

// Released, the held child becomes the program in place: same pid and start time
// (the fingerprint taken while held stays valid), same session.
func TestHoldReleaseExecsInPlace(t *testing.T) {
	bothHosts(t, func(t *testing.T, pty bool) {
		r := startChild(t, Options{PTY: pty, Hold: true}, "exit", "7")
		held := testkit.Pin(t, r.p.PID())
		if err := r.p.Release(); err != nil {
			t.Fatalf("release: %v", err)
		}
		r.out.waitFor(t, Stdout, "bye")
		if code := r.wait(t); code != 7 {
			t.Fatalf("exit code %d, want the program's 7", code)
		}
		if held.PID != r.p.PID() || held.StartTime == 0 {
			t.Fatalf("fingerprint %+v of pid %d", held, r.p.PID())
		}
		if err := r.p.Release(); err != nil {
			t.Fatalf("a second release: %v", err)
		}
	})
}

// A program the kernel refuses after the release (no #! and not a binary: ENOEXEC)
// is reported by Release with the errno; one that is missing fails Start at once.
func TestHoldExecFailure(t *testing.T) {
	bothHosts(t, func(t *testing.T, pty bool) {
		bad := filepath.Join(t.TempDir(), "not-a-program")
		if err := os.WriteFile(bad, []byte("\x00\x01garbage"), 0o755); err != nil {
			t.Fatal(err)
		}
		r := startRun(t, Options{PTY: pty, Hold: true}, []string{bad}, nil)
		err := r.p.Release()
		if !errors.Is(err, syscall.ENOEXEC) || !strings.Contains(err.Error(), bad) {
			t.Fatalf("release: %v, want ENOEXEC naming %s", err, bad)
		}
		if code := r.wait(t); code != holdExecErr {
			t.Fatalf("exit code %d, want %d", code, holdExecErr)
		}
		_, err = Start(exec1(filepath.Join(t.TempDir(), "missing")), Options{PTY: pty, Hold: true})
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("start of a missing program: %v, want ErrNotExist", err)
		}
	})
}

func exec1(path string) *exec.Cmd { return exec.Command(path) }
