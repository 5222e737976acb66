package runs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs/workspace"

	"corral/demo/testkit/gittest"
)

// shortQuiet makes s's worktree runs count after a short quiet, for the test.
func shortQuiet(s *Supervisor, d time.Duration) *Supervisor {
	s.diffQuiet = d
	return s
}

// A worktree run that writes a file shows its figures once its output went quiet,
// while it still runs; and its last figures when it ends.
func TestWorktreeDiffFigures(t *testing.T) {
	s := shortQuiet(newSup(t), 200*time.Millisecond)
	repo := gittest.Repo(t)
	id := spawn(t, s, worktreeSpec(repo, t.TempDir(), "printf 'x\\ny\\n' > new.txt; echo uno > a.txt; echo wrote; read line; echo more >> new.txt"))
	want := workspace.Stat{Added: 3, Removed: 2, Files: 2}
	eventually.True(t, 20*time.Second, "the figures of a quiet run", func() bool {
		i, _ := s.Info(id)
		return i.Diff != nil && *i.Diff == want && i.State == Running
	})
	if err := s.Write(id, []byte("go\n")); err != nil {
		t.Fatal(err)
	}
	info := waitEnd(t, s, id)
	if want := (workspace.Stat{Added: 4, Removed: 2, Files: 2}); info.Diff == nil || *info.Diff != want {
		t.Fatalf("figures at the end %+v, want %+v", info.Diff, want)
	}
}

// Idle worktree runs start no git: after the count that followed their start-up
// output, a window of many quiet spans passes without a single git process.
func TestIdleWorktreeRunsStartNoGit(t *testing.T) {
	quiet := 100 * time.Millisecond
	s := shortQuiet(newSup(t), quiet)
	repo := gittest.Repo(t)
	log := filepath.Join(t.TempDir(), "git.log")
	env := gitShim(t, log)
	const n = 8
	var ids []string
	for range n {
		spec := worktreeSpec(repo, t.TempDir(), "echo ready; exec sleep 60")
		spec.BaseEnv = env
		ids = append(ids, spawn(t, s, spec))
	}
	for _, id := range ids {
		eventually.True(t, 20*time.Second, "each run's first count", func() bool {
			i, _ := s.Info(id)
			return i.Diff != nil
		})
	}
	before := gitCalls(t, log)
	if before == 0 {
		t.Fatal("the shim saw no git at all: the test does not watch the git Corral runs")
	}
	// A negative: nothing may happen over this window, so it is waited out.
	time.Sleep(20 * quiet)
	if after := gitCalls(t, log); after != before {
		t.Fatalf("%d git processes started while %d worktree runs were idle", after-before, n)
	}
	for _, id := range ids {
		s.Cancel(id)
		waitEnd(t, s, id)
	}
}

// gitShim is an environment whose git logs each call to log, then runs the real git.
func gitShim(t testing.TB, log string) []string {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := "#!/bin/sh\necho \"$*\" >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := gittest.Env()
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + dir + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
	}
	return env
}

func gitCalls(t testing.TB, log string) int {
	b, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// A worktree run that changes a file without writing a line has its figures once it
// has been quiet since its start, while it still runs.
func TestWorktreeDiffFiguresOfASilentRun(t *testing.T) {
	// The quiet is long enough for the shell to have written before the count: the
	// run says nothing that would start the quiet over.
	s := shortQuiet(newSup(t), time.Second)
	repo := gittest.Repo(t)
	id := spawn(t, s, worktreeSpec(repo, t.TempDir(), "echo three >> a.txt; exec sleep 60"))
	want := workspace.Stat{Added: 1, Files: 1}
	eventually.True(t, 20*time.Second, "the figures of a silent run", func() bool {
		i, _ := s.Info(id)
		return i.Diff != nil && *i.Diff == want && i.State == Running
	})
	s.Cancel(id)
	waitEnd(t, s, id)
}
