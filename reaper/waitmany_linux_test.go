package reaper

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// TestWaitExitedManyNoThreads: three hundred children waited for at once hold no
// thread each (a blocked waitid would hold one per child), and each wait ends at its
// own child's exit leaving it an unreaped zombie whose status is its own.
func TestWaitExitedManyNoThreads(t *testing.T) {
	const n, maxThreads = 300, 64
	// Threads added by the waits, over those the test binary has already: Go keeps the
	// threads earlier tests' blocking calls made (150 cgroups ended at once leave
	// dozens), which say nothing of these waits.
	base := threadCount(t)
	cmds := make([]*exec.Cmd, n)
	ins := make([]*os.File, n)
	for i := range cmds {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sh", "-c", "read x; exit $x")
		cmd.Stdin = r
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r.Close()
		cmds[i], ins[i] = cmd, w
	}
	t.Cleanup(func() {
		for i, cmd := range cmds {
			ins[i].Close()
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	done := make(chan int, n)
	for i, cmd := range cmds {
		go func() {
			if err := WaitExited(cmd.Process.Pid); err != nil {
				t.Errorf("WaitExited(%d): %v", cmd.Process.Pid, err)
			}
			done <- i
		}()
	}
	// Every wait is blocked once each waiting goroutine is parked (in the netpoller)
	// or in a system call (a blocking waitid, on a thread of its own).
	eventually.True(t, 20*time.Second, "every wait blocked", func() bool { return blockedWaits() == n })
	if got := threadCount(t) - base; got > maxThreads {
		t.Errorf("%d threads added while waiting for %d children; want at most %d", got, n, maxThreads)
	}
	if len(done) > 0 {
		t.Fatalf("a wait ended before its child exited")
	}
	for i, w := range ins {
		fmt.Fprintf(w, "%d\n", i%200)
		w.Close()
	}
	for range n {
		select {
		case i := <-done:
			pid := cmds[i].Process.Pid
			ws, exited, err := ExitedStatus(pid)
			if err != nil || !exited || ws.ExitStatus() != i%200 {
				t.Errorf("child %d: ExitedStatus = %v, %v, %v; want exited %d, unreaped", i, ws, exited, err, i%200)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("children exited, their waits did not end")
		}
	}
	for i, cmd := range cmds {
		err := cmd.Wait()
		code := 0
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			code, err = ee.ExitCode(), nil
		}
		if err != nil || code != i%200 {
			t.Errorf("child %d: cmd.Wait = %v, code %d; want exit %d", i, err, code, i%200)
		}
	}
}

// blockedWaits counts the goroutines in WaitExited that are blocked: parked in the
// netpoller or in a system call.
func blockedWaits() int {
	buf := make([]byte, 8<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for g := range bytes.SplitSeq(buf, []byte("\n\n")) {
		head, _, _ := bytes.Cut(g, []byte("\n"))
		if bytes.Contains(g, []byte("reaper.WaitExited(")) &&
			(bytes.Contains(head, []byte("[IO wait")) || bytes.Contains(head, []byte("[syscall"))) {
			n++
		}
	}
	return n
}

// threadCount is this process's thread count.
func threadCount(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	_, v, _ := bytes.Cut(b, []byte("Threads:"))
	v, _, _ = bytes.Cut(v, []byte("\n"))
	n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}
