package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// End to end through the real binary: errors say their cause where the
// user looks (a linked state-dir directory, a full disk).

// runWithin runs cmd and fails the test if it has not ended within limit (it is
// killed then, by its pid: the process the test started).
func runWithin(t *testing.T, cmd *exec.Cmd, limit time.Duration) (result, time.Duration) {
	t.Helper()
	start := time.Now()
	timer := time.AfterFunc(limit, func() { cmd.Process.Kill() })
	defer timer.Stop()
	r := run(t, cmd)
	took := time.Since(start)
	if took >= limit {
		t.Fatalf("%v did not end within %v: %+v", cmd.Args, limit, r)
	}
	return r, took
}

// A symlinked runs/ is one clear error at once, naming the link; before,
// corral run spent 11 s and printed only "spawn-error (signal SIGTERM)".
func TestRunRefusesSymlinkedRunsDir(t *testing.T) {
	state, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(state, "runs")); err != nil {
		t.Fatal(err)
	}
	r, took := runWithin(t, corral(t, "run", "--state-dir", state, "--", "true"), 10*time.Second)
	link := filepath.Join(state, "runs")
	if r.code != 1 || !strings.Contains(r.stderr, link) || !strings.Contains(r.stderr, "symbolic link") || took > 2*time.Second {
		t.Fatalf("exit %d after %v, stderr %q; want exit 1 at once naming %s as a symbolic link", r.code, took, r.stderr, link)
	}
}

// smallTmpfs mounts a tmpfs of size bytes on a new temp dir for the test (a full disk
// that fills at once), unmounted when the test ends. Skips where mounting is not
// permitted (not root, or no CAP_SYS_ADMIN in a container).
func smallTmpfs(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0700", size)); err != nil {
		t.Skipf("the full-disk test needs a small tmpfs and cannot mount one here: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

// fillDisk writes to a file in dir until the file system is full.
func fillDisk(t *testing.T, dir string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, "filler"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	page := make([]byte, 4096)
	for {
		if _, err := f.Write(page); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// corral run on a full disk says so on stderr, with the path it could not
// write, and exits 1 (Corral failed) at once. Before: exit 126 with only
// "spawn-error (signal SIGTERM) … killed 1"; the ENOSPC was in --json and events only.
func TestRunFullDiskNamesENOSPC(t *testing.T) {
	state := smallTmpfs(t, 1<<20)
	if r := run(t, corral(t, "run", "--state-dir", state, "--", "true")); r.code != 0 {
		t.Fatalf("run before the disk filled: %+v", r)
	}
	fillDisk(t, state)
	r, took := runWithin(t, corral(t, "run", "--state-dir", state, "--", "true"), 30*time.Second)
	runsDir := filepath.Join(state, "runs")
	if r.code != 1 || !strings.Contains(r.stderr, "no space left on device") || !strings.Contains(r.stderr, runsDir) {
		t.Fatalf("exit %d, stderr %q; want exit 1 naming ENOSPC and a path in %s", r.code, r.stderr, runsDir)
	}
	if took > 5*time.Second {
		t.Errorf("took %v to report a full disk", took)
	}
}

// A run whose record could not be written when it ended (the disk filled
// while it ran) ends with a warning naming the error and a non-zero exit, though the
// program exited 0. Before: exit 0, no warning.
func TestRunRecordLostMidRunWarns(t *testing.T) {
	t.Parallel()
	state := smallTmpfs(t, 1<<20)
	cmd := corral(t, "run", "--state-dir", state, "--", "cat")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	io.WriteString(stdin, "ready\n")
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("cat said %q (%v)", line, err)
	}
	fillDisk(t, state)
	stdin.Close() // cat exits 0; its final record finds the disk full
	go io.Copy(io.Discard, stdout)
	err := cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code == 0 || !strings.Contains(stderr.String(), "warning") || !strings.Contains(stderr.String(), "no space left on device") {
		t.Fatalf("exit %d, stderr %q; want a warning naming ENOSPC and a non-zero exit", code, stderr.String())
	}
}
