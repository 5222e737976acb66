//go:build linux

package ptyhost

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"corral/demo"
	"corral/demo/testkit"

	"golang.org/x/sys/unix"
)

func TestMain(m *testing.M) { testkit.Main(m) }

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
