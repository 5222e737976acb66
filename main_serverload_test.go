package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
)

// End to end through the real binary: a server no client can swell or
// wedge, and clients that say so when it does not answer.

// startServer runs corral server in the foreground on state (the test's own child)
// and waits for its socket; the test's end shuts it down.
func startServer(t *testing.T, state string) *exec.Cmd {
	t.Helper()
	cmd := corral(t, "server", "--state-dir", state)
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGCONT)
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	eventually.True(t, 10*time.Second, "the server to listen", func() bool {
		c, err := net.Dial("unix", filepath.Join(state, "server.sock"))
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return cmd
}

// memoryKB is a line of /proc/<pid>/status in KiB (VmRSS, VmHWM).
func memoryKB(t testing.TB, pid int, field string) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// floodClients is how many connections the flood opens, each sending floodBytes of
// one line without its newline (the flood that swelled the server to 785 MB).
const (
	floodClients = 60
	floodBytes   = 7 << 20
)

// 60 connections each holding 7 MiB of an unfinished line keep the
// server's memory bounded, and it is returned once they close. Before: 785 MB RSS,
// not returned.
func TestServerFloodMemoryBounded(t *testing.T) {
	state := t.TempDir()
	srv := startServer(t, state)
	pid := srv.Process.Pid
	base := memoryKB(t, pid, "VmRSS")
	conns := flood(t, state)
	peak := memoryKB(t, pid, "VmHWM")
	t.Logf("server RSS: %d KiB before the flood, peak %d KiB", base, peak)
	for _, c := range conns {
		c.Close()
	}
	var after int
	eventually.True(t, 20*time.Second, "the server's memory to be returned", func() bool {
		after = memoryKB(t, pid, "VmRSS")
		return after < base+64<<10
	})
	t.Logf("server RSS: %d KiB after the flood", after)
	if peak > 256<<10 {
		t.Errorf("peak RSS %d KiB under the flood, want under 256 MiB", peak)
	}
	if r := serverCorral(t, state, "ls"); r.code != 0 {
		t.Errorf("the server does not serve after the flood: %+v", r)
	}
}

// flood opens floodClients connections to state's server at once, each writing
// floodBytes without a newline (or until the server cuts it), and returns them open.
func flood(t *testing.T, state string) []net.Conn {
	t.Helper()
	conns := make([]net.Conn, floodClients)
	var wg sync.WaitGroup
	chunk := []byte(strings.Repeat("x", 64<<10))
	for i := range conns {
		c, err := net.Dial("unix", filepath.Join(state, "server.sock"))
		if err != nil {
			t.Fatal(err)
		}
		conns[i] = c
		wg.Go(func() {
			c.SetWriteDeadline(time.Now().Add(60 * time.Second))
			for sent := 0; sent < floodBytes; sent += len(chunk) {
				if _, err := c.Write(chunk); err != nil {
					return // cut by the server: what a bounded server does
				}
			}
		})
	}
	wg.Wait()
	return conns
}

// With the server SIGSTOPped, a client fails within seconds with what is
// wrong, for a quick verb and for one that blocks by design. Before: corral spawn was
// still blocked after 30 s.
func TestStoppedServerClearError(t *testing.T) {
	state := serverState(t)
	sp := serverCorral(t, state, "spawn", "--", "sleep", "300")
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	id := strings.TrimSpace(sp.stdout)
	fp := testkit.Pin(t, serverPID(t, state))
	if err := fp.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fp.Signal(syscall.SIGCONT) }) // before serverState's shutdown
	want := fmt.Sprintf("the server does not answer: pid %d, state T (stopped)", fp.PID)
	for _, args := range [][]string{{"spawn", "--", "true"}, {"wait", id}, {"poll", "--wait", "60s", id}} {
		cmd := corral(t, args...)
		cmd.Env = append(cmd.Env, "CORRAL_STATE_DIR="+state)
		r, took := runWithin(t, cmd, 20*time.Second)
		if r.code != 1 || !strings.Contains(r.stderr, want) || took > 5*time.Second {
			t.Errorf("%s: exit %d after %v, stderr %q; want exit 1 within 5s saying %q", args[0], r.code, took, r.stderr, want)
		}
	}
}
