package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 23, end to end through the real binary: errors say their cause where the
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

// issue 23.3: a symlinked runs/ is one clear error at once, naming the link; before,
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
