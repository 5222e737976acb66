package runs

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs/workspace"

	"corral/demo/testkit/gittest"
)

// bigRepo is a repository of n files in 100 directories, committed once.
func bigRepo(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "big")
	gitB(b, b.TempDir(), "init", "-q", "-b", "main", dir)
	for i := range n {
		p := filepath.Join(dir, "d"+strconv.Itoa(i%100), "f"+strconv.Itoa(i)+".txt")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(fmt.Sprintf("file %d\nline two\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	gitB(b, dir, "add", "-A")
	gitB(b, dir, "commit", "-q", "-m", "many files")
	r, _ := filepath.EvalSymlinks(dir)
	return r
}

func gitB(b *testing.B, dir string, args ...string) {
	b.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = gittest.Env()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// BenchmarkWorktreeSpawn compares, on a repository of 10,000 files, git worktree add
// alone with workspace.Create (the branch, base and path rules around it) and with a
// whole Supervisor.Spawn of a worktree run (until Spawn returns: the worktree made
// and the run started in it). The budget is git worktree add + 50 ms. The same on a
// repository of 10 files shows the fixed cost of Corral's own git calls, which the
// checkout's own variance hides at 10,000.
func BenchmarkWorktreeSpawn(b *testing.B) {
	for _, n := range []int{10_000, 10} {
		b.Run("files="+strconv.Itoa(n), func(b *testing.B) { benchWorktreeSpawn(b, n) })
	}
}

func benchWorktreeSpawn(b *testing.B, files int) {
	repo := bigRepo(b, files)
	root := b.TempDir()
	clean := func(path, branch string) {
		b.StopTimer()
		gitB(b, repo, "worktree", "remove", "--force", path)
		gitB(b, repo, "branch", "-D", branch)
		b.StartTimer()
	}
	b.Run("git-worktree-add", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			br, path := "plain-"+strconv.Itoa(i), filepath.Join(root, "plain-"+strconv.Itoa(i))
			gitB(b, repo, "worktree", "add", "-q", "-b", br, path, "HEAD")
			clean(path, br)
		}
	})
	b.Run("workspace.Create", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			wt, err := workspace.Create(context.Background(), workspace.Request{Dir: repo, Name: "c" + strconv.Itoa(i),
				Root: root, Env: gittest.Env()})
			if err != nil {
				b.Fatal(err)
			}
			clean(wt.Path, wt.Branch)
		}
	})
	b.Run("Supervisor.Spawn", func(b *testing.B) {
		s, err := New(WithDefaults(testDefaults()), WithLogDir(b.TempDir()))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Shutdown(context.Background())
		for i := 0; b.Loop(); i++ {
			spec := worktreeSpec(repo, root, "true")
			spec.Name = "s" + strconv.Itoa(i)
			id, err := s.Spawn(spec)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			info, _ := s.Wait(context.Background(), id)
			s.Remove(id)
			b.StartTimer()
			clean(info.Worktree.Path, info.Worktree.Branch)
		}
	})
}

// BenchmarkIdleWorktreeRuns starts 50 worktree runs that print a line and then wait,
// lets each be counted once after its start-up output, and counts the git processes
// started over a window of idleness (a PATH shim logs each): reported as git/min,
// which must be 0.
func BenchmarkIdleWorktreeRuns(b *testing.B) {
	const n = 50
	window := 3 * diffQuiet
	repo := bigRepo(b, 100)
	s, err := New(WithDefaults(testDefaults()), WithLogDir(b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	log := filepath.Join(b.TempDir(), "git.log")
	env := gitShim(b, log)
	var ids []string
	for range n {
		spec := worktreeSpec(repo, b.TempDir(), "echo ready; exec sleep 600")
		spec.BaseEnv = env
		id, err := s.Spawn(spec)
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	for _, id := range ids {
		eventually.True(b, time.Minute, "each run's first count", func() bool {
			i, _ := s.Info(id)
			return i.Diff != nil
		})
	}
	var calls int
	for b.Loop() {
		before := gitCalls(b, log)
		time.Sleep(window) // a negative: idleness is waited out
		calls += gitCalls(b, log) - before
	}
	b.ReportMetric(float64(calls)/(float64(b.N)*window.Minutes()), "git/min")
	for _, id := range ids {
		s.Cancel(id)
	}
	for _, id := range ids {
		s.Wait(context.Background(), id)
	}
}
