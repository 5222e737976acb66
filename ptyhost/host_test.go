//go:build linux

package ptyhost

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"corral/demo"

	"github.com/creack/pty"
)

// waitLimit bounds every wait on a condition; reaching it is a failure.
const waitLimit = 20 * time.Second

func TestPTYSizeBeforeStartAndSession(t *testing.T) {
	for _, tc := range []struct {
		cols, rows uint16
		want       string
	}{{100, 30, "30 100"}, {0, 0, "24 80"}} {
		t.Run(tc.want, func(t *testing.T) {
			sh := []string{"/bin/sh", "-c", `stty size; read line; echo "line=$line"`}
			r := startRun(t, Options{PTY: true, Cols: tc.cols, Rows: tc.rows}, sh, nil)
			r.out.waitFor(t, Stdout, `(?m)^`+tc.want+`\r$`)
			checkLeader(t, r.p.PID(), true)
			if !r.p.PTY() || r.p.PID() != r.cmd.Process.Pid {
				t.Errorf("PTY()=%v PID()=%d, want true and %d", r.p.PTY(), r.p.PID(), r.cmd.Process.Pid)
			}
			if err := r.p.Write([]byte("hi\n")); err != nil {
				t.Fatal(err)
			}
			r.out.waitFor(t, Stdout, `line=hi`)
			if code := r.wait(t); code != 0 {
				t.Errorf("exit %d", code)
			}
		})
	}
}

func TestWriteReachesReadline(t *testing.T) {
	for _, pty := range []bool{true, false} {
		t.Run(map[bool]string{true: "pty", false: "pipe"}[pty], func(t *testing.T) {
			r := startChild(t, Options{PTY: pty}, "readline")
			r.out.waitFor(t, Stdout, `ready`)
			checkLeader(t, r.p.PID(), pty)
			if err := r.p.Write([]byte("hello there\n")); err != nil {
				t.Fatal(err)
			}
			r.out.waitFor(t, Stdout, `got: hello there`)
			if code := r.wait(t); code != 0 {
				t.Errorf("exit %d", code)
			}
			r.waitOutputDone(t)
		})
	}
}

func TestPipeKeepsStreamsApart(t *testing.T) {
	r := startChild(t, Options{}, "streams")
	if code := r.wait(t); code != 3 {
		t.Errorf("exit %d, want 3", code)
	}
	r.waitOutputDone(t)
	if got, want := r.out.text(Stdout), "out 0\nout 1\nout 2\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if got, want := r.out.text(Stderr), "err 0\nerr 1\nerr 2\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	if cols, rows := r.p.Size(); cols != 0 || rows != 0 {
		t.Errorf("pipe Size() = %d×%d, want 0×0", cols, rows)
	}
}

func TestPipeCloseStdinGivesEOF(t *testing.T) {
	r := startChild(t, Options{}, "readline")
	r.out.waitFor(t, Stdout, `ready`)
	if err := r.p.CloseStdin(); err != nil {
		t.Fatal(err)
	}
	r.out.waitFor(t, Stdout, `eof`)
	if code := r.wait(t); code != 4 {
		t.Errorf("exit %d, want 4", code)
	}
	if err := r.p.Write([]byte("late\n")); !errors.Is(err, ErrClosed) {
		t.Errorf("Write after CloseStdin: %v, want ErrClosed", err)
	}
	if err := r.p.CloseStdin(); err != nil {
		t.Errorf("second CloseStdin: %v", err)
	}
	if err := r.p.Resize(100, 30); !errors.Is(err, ErrNotPTY) {
		t.Errorf("pipe Resize: %v, want ErrNotPTY", err)
	}
}

func TestPTYCloseStdinNotPipe(t *testing.T) {
	r := startChild(t, Options{PTY: true}, "readline")
	if err := r.p.CloseStdin(); !errors.Is(err, ErrNotPipe) {
		t.Errorf("PTY CloseStdin: %v, want ErrNotPipe", err)
	}
}

func TestPTYResize(t *testing.T) {
	sh := []string{"/bin/sh", "-c", `stty size; read x; stty size; read y`}
	r := startRun(t, Options{PTY: true, Cols: 80, Rows: 24}, sh, nil)
	r.out.waitFor(t, Stdout, `(?m)^24 80\r$`)
	if err := r.p.Resize(132, 43); err != nil {
		t.Fatal(err)
	}
	if cols, rows := r.p.Size(); cols != 132 || rows != 43 {
		t.Errorf("Size() = %d×%d, want 132×43", cols, rows)
	}
	if err := r.p.Write([]byte("\n")); err != nil {
		t.Fatal(err)
	}
	r.out.waitFor(t, Stdout, `(?m)^43 132\r$`)
	r.p.Write([]byte("\n"))
	if code := r.wait(t); code != 0 {
		t.Errorf("exit %d", code)
	}
	r.p.Close()
	if err := r.p.Resize(80, 24); !errors.Is(err, ErrClosed) {
		t.Errorf("Resize after Close: %v, want ErrClosed", err)
	}
}

// TestWriteToChildThatNeverReads: input beyond what the kernel buffers stays
// queued, the caller is never blocked, the queue is bounded, and Close ends
// the writer while it is blocked. The input is lines: a canonical-mode PTY
// discards an over-long line instead of blocking, but stops taking complete
// lines once its buffer is full.
func TestWriteToChildThatNeverReads(t *testing.T) {
	const queue = 1 << 20
	line := strings.Repeat("x", 63) + "\n"
	big := []byte(strings.Repeat(line, queue/len(line)))
	for _, pty := range []bool{true, false} {
		t.Run(map[bool]string{true: "pty", false: "pipe"}[pty], func(t *testing.T) {
			r := startChild(t, Options{PTY: pty, WriteQueue: queue}, "sleep")
			r.out.waitFor(t, Stdout, `ready sleep`)
			within(t, 5*time.Second, "Write", func() {
				if err := r.p.Write(big); err != nil {
					t.Errorf("first Write: %v", err)
				}
			})
			if err := r.p.Write(make([]byte, queue-len(big)+1)); !errors.Is(err, ErrInputFull) {
				t.Errorf("Write past WriteQueue: %v, want ErrInputFull", err)
			}
			within(t, 5*time.Second, "Close", func() { r.p.Close() })
			if err := r.p.Write([]byte("x")); !errors.Is(err, ErrClosed) {
				t.Errorf("Write after Close: %v, want ErrClosed", err)
			}
		})
	}
}

func TestSpawnErrorLeavesNothing(t *testing.T) {
	noExec := filepath.Join(t.TempDir(), "not-executable")
	if err := os.WriteFile(noExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		path string
		want []error
	}{
		{"not-found", "corral-no-such-binary", []error{exec.ErrNotFound, fs.ErrNotExist}},
		{"no-file", "/nonexistent/corral-no-such-binary", []error{exec.ErrNotFound, fs.ErrNotExist}},
		{"permission", noExec, []error{fs.ErrPermission}},
	} {
		for _, pty := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/pty=%v", tc.name, pty), func(t *testing.T) {
				fds, goroutines := openFDs(t), runtime.NumGoroutine()
				p, err := Start(exec.Command(tc.path), Options{PTY: pty})
				if p != nil || !isAny(err, tc.want) {
					t.Fatalf("Start(%s) = %v, %v; want an error matching %v", tc.path, p, err, tc.want)
				}
				if after := openFDs(t); after != fds {
					t.Errorf("open fds %d before, %d after", fds, after)
				}
				if after := runtime.NumGoroutine(); after > goroutines {
					t.Errorf("goroutines %d before, %d after", goroutines, after)
				}
			})
		}
	}
}

func isAny(err error, targets []error) bool {
	for _, target := range targets {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

func TestStartRefusesCallerStdio(t *testing.T) {
	for name, set := range map[string]func(*exec.Cmd){
		"stdin":       func(c *exec.Cmd) { c.Stdin = os.Stdin },
		"stdout":      func(c *exec.Cmd) { c.Stdout = os.Stdout },
		"stderr":      func(c *exec.Cmd) { c.Stderr = io.Discard },
		"sysprocattr": func(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{} },
	} {
		cmd := exec.Command("/bin/true")
		set(cmd)
		if _, err := Start(cmd, Options{}); !errors.Is(err, ErrBadCmd) {
			t.Errorf("%s set: %v, want ErrBadCmd", name, err)
		}
		if cmd.Process != nil {
			t.Errorf("%s set: the command was started", name)
		}
	}
}

func TestHostStreamString(t *testing.T) {
	if Stdout.String() != "stdout" || Stderr.String() != "stderr" {
		t.Errorf("got %q, %q", Stdout, Stderr)
	}
}

const benchFlood = 32 << 20

// BenchmarkPTYDrain floods 32 MiB through the PTY host (start, drain, reap).
func BenchmarkPTYDrain(b *testing.B) {
	b.SetBytes(benchFlood)
	for b.Loop() {
		var n atomic.Int64
		count := func(_ Stream, p []byte) { n.Add(int64(len(p))) }
		argv, env := demo.Child("flood", strconv.Itoa(benchFlood))
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), env...)
		p, err := Start(cmd, Options{PTY: true, OnOutput: count})
		if err != nil {
			b.Fatal(err)
		}
		<-p.OutputDone()
		cmd.Wait()
		p.Close()
		if n.Load() < benchFlood {
			b.Fatalf("drained %d bytes", n.Load())
		}
	}
}

// BenchmarkBarePTYReadLoop is the baseline: the same flood through plain
// creack/pty Start and io.Copy to io.Discard.
func BenchmarkBarePTYReadLoop(b *testing.B) {
	b.SetBytes(benchFlood)
	for b.Loop() {
		argv, env := demo.Child("flood", strconv.Itoa(benchFlood))
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), env...)
		f, err := pty.Start(cmd)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, f) // ends with EIO
		cmd.Wait()
		f.Close()
		if n < benchFlood {
			b.Fatalf("drained %d bytes", n)
		}
	}
}
