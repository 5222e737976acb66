//go:build linux

package ptyhost

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"corral/demo"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// waitLimit bounds every wait on a condition; reaching it is a failure.
const waitLimit = 20 * time.Second

func TestMain(m *testing.M) {
	demo.MaybeChild()
	demo.DefaultSignalsForChildren()
	os.Exit(m.Run())
}

// output collects a run's output per stream and lets a test wait for text.
type output struct {
	mu      sync.Mutex
	streams [2]bytes.Buffer
	changed chan struct{} // capacity 1
}

func newOutput() *output { return &output{changed: make(chan struct{}, 1)} }

func (o *output) add(s Stream, p []byte) {
	o.mu.Lock()
	o.streams[s].Write(p)
	o.mu.Unlock()
	select {
	case o.changed <- struct{}{}:
	default:
	}
}

func (o *output) text(s Stream) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.streams[s].String()
}

// waitFor waits until stream s holds a match of re and returns the match.
func (o *output) waitFor(t *testing.T, s Stream, re string) []string {
	t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.NewTimer(waitLimit)
	defer deadline.Stop()
	for {
		if m := rx.FindStringSubmatch(o.text(s)); m != nil {
			return m
		}
		select {
		case <-o.changed:
		case <-deadline.C:
			t.Fatalf("no %q on %s within %v; got %q", re, s, waitLimit, o.text(s))
		}
	}
}

// run is one hosted child. Its waiter goroutine is the only caller of Wait.
type run struct {
	p      *Proc
	cmd    *exec.Cmd
	out    *output
	exited chan struct{}
}

// startRun hosts argv with env added; cleanup kills the root through its
// process handle (never a pid looked up late), reaps it and closes the host.
func startRun(t testing.TB, o Options, argv, env []string) *run {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	r := &run{cmd: cmd, out: newOutput(), exited: make(chan struct{})}
	if o.OnOutput == nil {
		o.OnOutput = r.out.add
	}
	p, err := Start(cmd, o)
	if err != nil {
		t.Fatalf("Start %v: %v", argv, err)
	}
	r.p = p
	go func() { cmd.Wait(); close(r.exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-r.exited
		p.Close()
	})
	return r
}

func startChild(t testing.TB, o Options, mode string, args ...string) *run {
	t.Helper()
	argv, env := demo.Child(mode, args...)
	return startRun(t, o, argv, append(env, quickExit))
}

// quickExit stops a race-enabled child (the test binary itself) from sleeping
// a second at exit, as the race runtime does by default.
var quickExit = "GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")

// wait waits for the root to exit and returns its exit code.
func (r *run) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-r.exited:
		return r.cmd.ProcessState.ExitCode()
	case <-time.After(waitLimit):
		t.Fatalf("pid %d did not exit within %v", r.p.PID(), waitLimit)
		return -1
	}
}

func (r *run) waitOutputDone(t *testing.T) {
	t.Helper()
	select {
	case <-r.p.OutputDone():
	case <-time.After(waitLimit):
		t.Fatalf("output of pid %d did not end within %v", r.p.PID(), waitLimit)
	}
}

// within fails the test if f does not return within d.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s blocked for more than %v", what, d)
	}
}

// sessionOf reads the session id and controlling tty of pid from
// /proc/<pid>/stat, parsed after the last ')' since the name may hold any.
func sessionOf(t *testing.T, pid int) (sid, ttyNr int) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	// f: state ppid pgrp session tty_nr ...
	sid, _ = strconv.Atoi(f[3])
	ttyNr, _ = strconv.Atoi(f[4])
	return sid, ttyNr
}

// checkLeader checks that pid leads its own session and group, and has a
// controlling terminal exactly when it runs on a PTY.
func checkLeader(t *testing.T, pid int, wantTTY bool) {
	t.Helper()
	sid, ttyNr := sessionOf(t, pid)
	if gs, err := unix.Getsid(pid); err != nil || gs != pid || sid != pid {
		t.Errorf("pid %d: sid %d (getsid %d, %v), want its own session", pid, sid, gs, err)
	}
	if pg, err := unix.Getpgid(pid); err != nil || pg != pid {
		t.Errorf("pid %d: pgid %d (%v), want pid", pid, pg, err)
	}
	if (ttyNr != 0) != wantTTY {
		t.Errorf("pid %d: controlling tty %#x, want one: %v", pid, ttyNr, wantTTY)
	}
}

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
