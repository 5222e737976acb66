package runs

import (
	"os"
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
	return gittest.Shim(t, "echo \"$*\" >> '"+log+"'")
}

func gitCalls(t testing.TB, log string) int {
	b, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// A count that failed is tried again: a run that prints nothing more still gets its
// figures once git answers again (here git's list of worktrees fails until the test
// lets it, as it does while another worktree of the repository is being added).
func TestWorktreeDiffAfterAFailedCount(t *testing.T) {
	s := shortQuiet(newSup(t), 300*time.Millisecond)
	repo := gittest.Repo(t)
	dir := t.TempDir()
	busy, fails := filepath.Join(dir, "busy"), filepath.Join(dir, "fails")
	if err := os.WriteFile(busy, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	spec := worktreeSpec(repo, t.TempDir(), "echo three >> a.txt; echo wrote; exec sleep 60")
	spec.BaseEnv = gittest.Shim(t, `case "$*" in *"worktree list"*) if [ -e '`+busy+`' ]; then echo x >> '`+fails+`'; echo "fatal: failed to read commondir" >&2; exit 128; fi;; esac`)
	id := spawn(t, s, spec)
	// A whole count failed: every list it asked for, with its own retries.
	eventually.True(t, 20*time.Second, "a failed count", func() bool {
		return gitCalls(t, fails) >= 4
	})
	if i, _ := s.Info(id); i.Diff != nil {
		t.Fatalf("figures %+v although git failed", *i.Diff)
	}
	if err := os.Remove(busy); err != nil {
		t.Fatal(err)
	}
	want := workspace.Stat{Added: 1, Files: 1}
	eventually.True(t, 20*time.Second, "the figures once git answers", func() bool {
		i, _ := s.Info(id)
		return i.Diff != nil && *i.Diff == want && i.State == Running
	})
	s.Cancel(id)
	waitEnd(t, s, id)
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

// A run whose count failed again and again, all its retries spent, gets them back with
// its next output: a count after it that fails is tried again, so the run, idle once
// more, still gets its figures when git answers (here git's list of worktrees fails
// until the test lets it).
func TestWorktreeDiffRetriesAfterOutput(t *testing.T) {
	s := shortQuiet(newSup(t), 100*time.Millisecond)
	repo := gittest.Repo(t)
	dir := t.TempDir()
	busy, fails := filepath.Join(dir, "busy"), filepath.Join(dir, "fails")
	if err := os.WriteFile(busy, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	spec := worktreeSpec(repo, t.TempDir(), "echo three >> a.txt; echo wrote; while read line; do echo got; done")
	spec.BaseEnv = gittest.Shim(t, `case "$*" in *"worktree list"*) if [ -e '`+busy+`' ]; then echo x >> '`+fails+`'; echo "fatal: failed to read commondir" >&2; exit 128; fi;; esac`)
	id := spawn(t, s, spec)
	// The count after the start and every retry of it failed, each asking for the
	// list listTries times.
	perCount := 4
	spent := perCount * (1 + diffRetries)
	eventually.True(t, 30*time.Second, "every retry spent", func() bool {
		return gitCalls(t, fails) >= spent
	})
	// Output: a count that fails too.
	if err := s.Write(id, []byte("go\n")); err != nil {
		t.Fatal(err)
	}
	eventually.True(t, 30*time.Second, "the count after the output failed", func() bool {
		return gitCalls(t, fails) >= spent+perCount
	})
	if i, _ := s.Info(id); i.Diff != nil {
		t.Fatalf("figures %+v although git failed", *i.Diff)
	}
	if err := os.Remove(busy); err != nil {
		t.Fatal(err)
	}
	want := workspace.Stat{Added: 1, Files: 1}
	eventually.True(t, 20*time.Second, "the figures once git answers, the run idle", func() bool {
		i, _ := s.Info(id)
		return i.Diff != nil && *i.Diff == want && i.State == Running
	})
	s.Cancel(id)
	waitEnd(t, s, id)
}
