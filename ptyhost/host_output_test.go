//go:build linux

package ptyhost

import (
	"bytes"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"corral/demo"

	"golang.org/x/sys/unix"
)

func TestHostFloodFullyDrained(t *testing.T) {
	const total = 50 << 20
	for _, pty := range []bool{true, false} {
		t.Run(map[bool]string{true: "pty", false: "pipe"}[pty], func(t *testing.T) {
			var got, other atomic.Int64
			count := func(s Stream, p []byte) {
				if s != Stdout {
					other.Add(int64(len(p)))
					return
				}
				// A PTY turns "\n" into "\r\n" (ONLCR); the flood has no '\r'.
				got.Add(int64(len(p) - bytes.Count(p, []byte{'\r'})))
			}
			r := startChild(t, Options{PTY: pty, OnOutput: count}, "flood", strconv.Itoa(total))
			r.waitOutputDone(t)
			if code := r.wait(t); code != 0 {
				t.Errorf("exit %d", code)
			}
			if got.Load() != total || other.Load() != 0 {
				t.Errorf("drained %d bytes (+%d on stderr), want %d", got.Load(), other.Load(), total)
			}
		})
	}
}

// TestFinishOutputGrandchildHoldsOutput: the root of "tree 1" is killed and
// reaped, its child keeps the PTY slave or the pipes open, so output never
// ends by itself and FinishOutput must force it within the bound. On a PTY the
// kernel sends SIGHUP to the foreground group when the session leader dies, so
// the tree runs with SIGHUP ignored (inherited through exec) to keep the
// grandchild alive, as a nohup'ed job would be.
func TestFinishOutputGrandchildHoldsOutput(t *testing.T) {
	const bound = 300 * time.Millisecond
	for _, pty := range []bool{true, false} {
		t.Run(map[bool]string{true: "pty", false: "pipe"}[pty], func(t *testing.T) {
			argv, env := demo.Child("tree", "1")
			env = append(env, quickExit)
			argv = append([]string{"/bin/sh", "-c", `trap "" HUP; exec "$0" "$@"`}, argv...)
			r := startRun(t, Options{PTY: pty}, argv, env)
			m := r.out.waitFor(t, Stdout, `member (\d+)\s+member (\d+)\s+tree ready`)
			if root, _ := strconv.Atoi(m[1]); root != r.p.PID() {
				t.Fatalf("root printed pid %d, host says %d", root, r.p.PID())
			}
			killByPidfd(t, m[2])

			r.cmd.Process.Kill()
			r.wait(t)
			select {
			case <-r.p.OutputDone():
				t.Fatal("output ended although the grandchild holds it open")
			default:
			}
			start := time.Now()
			forced := r.p.FinishOutput(bound)
			if took := time.Since(start); !forced || took < bound || took > bound+5*time.Second {
				t.Errorf("FinishOutput(%v) = %v after %v, want true after about %v", bound, forced, took, bound)
			}
			select {
			case <-r.p.OutputDone():
			default:
				t.Error("OutputDone still open after FinishOutput")
			}
		})
	}
}

// killByPidfd pins the grandchild pid now, while it is alive, and kills it
// through the pidfd at cleanup, waiting until it is gone.
func killByPidfd(t *testing.T, pidText string) {
	t.Helper()
	pid, _ := strconv.Atoi(pidText)
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("pidfd_open %d: %v", pid, err)
	}
	t.Cleanup(func() {
		defer unix.Close(fd)
		if err := unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0); err != nil {
			t.Errorf("kill grandchild %d: %v", pid, err)
		}
		// The pidfd turns readable when the process has exited.
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if n, err := unix.Poll(fds, int(waitLimit/time.Millisecond)); n != 1 || err != nil {
			t.Errorf("grandchild %d still alive: %v", pid, err)
		}
	})
}

func TestFinishOutputNotForcedAfterEOF(t *testing.T) {
	r := startChild(t, Options{}, "exit", "0")
	r.wait(t)
	if forced := r.p.FinishOutput(waitLimit); forced {
		t.Error("FinishOutput forced a run whose output ended")
	}
	r.out.waitFor(t, Stdout, `bye`)
}
