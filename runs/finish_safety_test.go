package runs

import (
	"context"
	"errors"
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

// endRun cancels run id and waits for its end.
func endRun(t *testing.T, s *Supervisor, id string) {
	t.Helper()
	if err := s.Cancel(id); err != nil {
		t.Fatal(err)
	}
	waitEnd(t, s, id)
}

// Two ended runs that shared one worktree (a run restored into its older run's
// worktree): finishing one removes it; finishing the other says it was finished
// already and by which run, instead of git's "not a working tree".
func TestFinishOfASharedWorktreeSaysItWasFinished(t *testing.T) {
	s := newSup(t, WithRegistry(openReg(t, t.TempDir())))
	repo, root := gittest.Repo(t), t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	older := spawn(t, s, toyAgent(repo, root, "a"))
	waitOutput(t, s, older, "ready-a")
	endRun(t, s, older)
	io, _ := s.Info(older)
	wt := *io.Worktree
	spec := Spec{Shell: "echo in-later; exec sleep 600", Dir: wt.Dir, BaseEnv: gittest.Env(), Name: "later",
		Worktree: &WorktreeSpec{Use: &wt}}
	later := spawn(t, s, spec)
	waitOutput(t, s, later, "in-later")
	before := gitState(t, repo, &wt)
	if _, err := s.Finish(ctx, older, FinishOptions{Commit: "a's work"}); !errors.Is(err, ErrWorktreeInUse) {
		t.Fatalf("finish of a worktree a live run shares: %v", err)
	}
	if after := gitState(t, repo, &wt); after != before {
		t.Fatalf("a refused finish changed something:\n%s\n---\n%s", before, after)
	}
	endRun(t, s, later)
	if _, err := s.Finish(ctx, later, FinishOptions{Commit: "a's work"}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Finish(ctx, older, FinishOptions{Commit: "a's work"})
	if !errors.Is(err, ErrFinished) || !strings.Contains(err.Error(), later) || !strings.Contains(err.Error(), wt.Path) {
		t.Fatalf("finish of a worktree another run's finish removed: %v", err)
	}
	if _, err := s.Diff(ctx, older, workspace.DiffOptions{}); !errors.Is(err, ErrFinished) || !strings.Contains(err.Error(), later) {
		t.Fatalf("diff of a worktree another run's finish removed: %v", err)
	}
	if n := gittest.Git(t, repo, "rev-list", "--count", "main..corral/a"); n != "1" {
		t.Fatalf("corral/a has %s commits of its own, want 1", n)
	}
}

// A finish after a server restart works from the run's record read again, and a
// second finish after another restart is refused as finished.
func TestFinishAfterARestart(t *testing.T) {
	dir := t.TempDir()
	repo, root := gittest.Repo(t), t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	reg1 := openReg(t, dir)
	s1, err := New(WithDefaults(testDefaults()), WithLogDir(t.TempDir()), WithRegistry(reg1))
	if err != nil {
		t.Fatal(err)
	}
	id := spawn(t, s1, toyAgent(repo, root, "a"))
	waitOutput(t, s1, id, "ready-a")
	endRun(t, s1, id)
	if err := s1.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	reg1.Close()
	reg2 := openReg(t, dir)
	s2 := newSup(t, WithRegistry(reg2))
	s2.TakeEnded()
	res, err := s2.Finish(ctx, id, FinishOptions{Commit: "a's work", Merge: true})
	if err != nil || !res.Finished.Removed || res.Finished.Into != "main" {
		t.Fatalf("finish after a restart: %+v, %v", res, err)
	}
	if got, _ := os.ReadFile(repo + "/same.txt"); string(got) != "by a\n" {
		t.Fatalf("main's same.txt after the finish: %q", got)
	}
	if err := s2.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	reg2.Close()
	s3 := newSup(t, WithRegistry(openReg(t, dir)))
	s3.TakeEnded()
	if _, err := s3.Finish(ctx, id, FinishOptions{Force: true}); !errors.Is(err, ErrFinished) {
		t.Fatalf("a second finish after another restart: %v", err)
	}
}

// finish --commit where git knows no identity to commit as: refused before the
// agent is ended, with what to do.
func TestFinishCommitWithoutIdentityLeavesTheAgent(t *testing.T) {
	env := append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "EMAIL=")
	var clean []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GIT_AUTHOR_") && !strings.HasPrefix(kv, "GIT_COMMITTER_") && !strings.HasPrefix(kv, "EMAIL=") {
			clean = append(clean, kv)
		}
	}
	repo, root := gittest.Repo(t), t.TempDir()
	probe := exec.Command("git", "-C", repo, "var", "GIT_COMMITTER_IDENT")
	probe.Env = clean
	if probe.Run() == nil {
		t.Skip("git finds an identity on this machine without any configured")
	}
	s := newSup(t)
	spec := toyAgent(repo, root, "a")
	spec.BaseEnv = clean
	id := spawn(t, s, spec)
	waitOutput(t, s, id, "ready-a")
	i, _ := s.Info(id)
	before := gitState(t, repo, i.Worktree)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := s.Finish(ctx, id, FinishOptions{Commit: "a's work"})
	if err == nil || !strings.Contains(err.Error(), "user.email") {
		t.Fatalf("finish --commit without an identity: %v", err)
	}
	stillRunning(t, s, id, i.PID)
	if after := gitState(t, repo, i.Worktree); after != before {
		t.Fatalf("a refused finish changed something:\n%s\n---\n%s", before, after)
	}
}

// Two runs sharing one worktree finished at once: one finishes it, the other is
// refused (under way, or finished already), and nothing is done twice.
func TestFinishTwoRunsOfOneWorktreeAtOnce(t *testing.T) {
	s := newSup(t)
	repo, root := gittest.Repo(t), t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	older := spawn(t, s, toyAgent(repo, root, "a"))
	waitOutput(t, s, older, "ready-a")
	endRun(t, s, older)
	io, _ := s.Info(older)
	wt := *io.Worktree
	later := spawn(t, s, Spec{Shell: "true", Dir: wt.Dir, BaseEnv: gittest.Env(), Name: "later", Worktree: &WorktreeSpec{Use: &wt}})
	waitEnd(t, s, later)
	for try := 0; try < 5; try++ {
		errs := make(chan error, 2)
		for _, id := range []string{older, later} {
			go func() {
				_, err := s.Finish(ctx, id, FinishOptions{Commit: "a's work"})
				errs <- err
			}()
		}
		var ok, refused int
		for range 2 {
			switch err := <-errs; {
			case err == nil:
				ok++
			case errors.Is(err, ErrFinishing), errors.Is(err, ErrFinished):
				refused++
			default:
				t.Errorf("a finish: %v", err)
			}
		}
		if ok != 1 || refused != 1 {
			t.Fatalf("%d finished, %d refused; want one each", ok, refused)
		}
		if n := gittest.Git(t, repo, "rev-list", "--count", "main..corral/a"); n != "1" {
			t.Fatalf("corral/a has %s commits of its own, want 1", n)
		}
		// Again, from a worktree made anew on the same branch and path.
		gittest.Git(t, repo, "worktree", "add", "-q", wt.Path, "corral/a")
		if err := os.WriteFile(wt.Path+"/again.txt", []byte("again\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{older, later} { // both records unfinished again
			r, err := s.get(id)
			if err != nil {
				t.Fatal(err)
			}
			r.change(EventWorktree, "again", func(i *Info) { i.Finished = nil })
		}
		gittest.Git(t, repo, "update-ref", "refs/heads/corral/a", "corral/a~1")
		gittest.Git(t, wt.Path, "reset", "-q", "--keep", "corral/a")
	}
}

// A finish says which ignored files went with the worktree, in its result and record.
func TestFinishNamesTheIgnoredFilesItRemoved(t *testing.T) {
	s := newSup(t)
	repo, root := gittest.Repo(t), t.TempDir()
	if err := os.WriteFile(repo+"/.gitignore", []byte(".env\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, repo, "add", ".gitignore")
	gittest.Git(t, repo, "commit", "-q", "-m", "ignore")
	spec := worktreeSpec(repo, root, "echo SECRET=1 > .env && echo ready && exec sleep 600")
	spec.Name = "a"
	id := spawn(t, s, spec)
	waitOutput(t, s, id, "ready")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := s.Finish(ctx, id, FinishOptions{})
	if err != nil || !res.Finished.Removed || res.Finished.Ignored != "file .env" || !strings.Contains(res.Finished.Done(), "ignored file .env") {
		t.Fatalf("finish of a worktree with an ignored .env: %+v, %v", res.Finished, err)
	}
}

// A worktree switched off its branch: finish --commit --merge would commit on one
// branch and merge the other. Refused before the agent is ended, nothing changed.
func TestFinishRefusesAWorktreeOffItsBranch(t *testing.T) {
	s := newSup(t)
	repo, root := gittest.Repo(t), t.TempDir()
	id := spawn(t, s, toyAgent(repo, root, "a"))
	waitOutput(t, s, id, "ready-a")
	i, _ := s.Info(id)
	gittest.Git(t, i.Worktree.Path, "switch", "-q", "-c", "elsewhere")
	before := gitState(t, repo, i.Worktree)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, o := range []FinishOptions{{Commit: "a's work", Merge: true}, {Commit: "a's work"}, {Merge: true, Force: true}} {
		_, err := s.Finish(ctx, id, o)
		if err == nil || !strings.Contains(err.Error(), "branch elsewhere, not its branch corral/a") {
			t.Fatalf("finish %+v of a worktree off its branch: %v", o, err)
		}
		stillRunning(t, s, id, i.PID)
		if after := gitState(t, repo, i.Worktree); after != before {
			t.Fatalf("a refused finish changed something:\n%s\n---\n%s", before, after)
		}
	}
}

// A finish whose caller goes away (Ctrl-C on corral finish) once its steps have
// begun completes them: git is never killed half way through a commit, merge or
// removal, which would leave a lock file, a half-merged checkout or half a worktree.
func TestFinishStepsOutliveTheCaller(t *testing.T) {
	s := newSup(t)
	repo, root := gittest.Repo(t), t.TempDir()
	marker := filepath.Join(t.TempDir(), "in-hook")
	hook := filepath.Join(repo, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch '"+marker+"'\nsleep 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	id := spawn(t, s, toyAgent(repo, root, "a"))
	waitOutput(t, s, id, "ready-a")
	i, _ := s.Info(id)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		eventually.Within(30*time.Second, func() (bool, bool) { _, err := os.Stat(marker); return true, err == nil })
		cancel()
	}()
	res, err := s.Finish(ctx, id, FinishOptions{Commit: "a's work", Merge: true})
	if err != nil || !res.Finished.Removed || res.Finished.Into != "main" {
		t.Fatalf("finish whose caller went away during the commit: %+v, %v", res.Finished, err)
	}
	if _, err := os.Stat(i.Worktree.Path); !os.IsNotExist(err) {
		t.Fatalf("the worktree is still there: %v", err)
	}
	if got := gittest.Git(t, repo, "status", "--porcelain"); got != "" {
		t.Fatalf("main checkout after the finish: %q", got)
	}
}

// A worktree the user deleted by hand: diff and finish --commit say so; a plain
// finish takes it off git's list and keeps its branch.
func TestFinishAWorktreeDeletedByHand(t *testing.T) {
	s := newSup(t)
	repo, root := gittest.Repo(t), t.TempDir()
	id := spawn(t, s, toyAgent(repo, root, "a"))
	waitOutput(t, s, id, "ready-a")
	endRun(t, s, id)
	i, _ := s.Info(id)
	if err := os.RemoveAll(i.Worktree.Path); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := s.Diff(ctx, id, workspace.DiffOptions{}); !errors.Is(err, workspace.ErrNotWorktree) || !strings.Contains(err.Error(), "deleted by hand") {
		t.Fatalf("diff of a hand-deleted worktree: %v", err)
	}
	if _, err := s.Finish(ctx, id, FinishOptions{Commit: "x"}); !errors.Is(err, workspace.ErrNotWorktree) || !strings.Contains(err.Error(), "without --commit") {
		t.Fatalf("finish --commit of a hand-deleted worktree: %v", err)
	}
	res, err := s.Finish(ctx, id, FinishOptions{})
	if err != nil || !res.Finished.Removed || res.Finished.Branch != "corral/a" {
		t.Fatalf("finish of a hand-deleted worktree: %+v, %v", res.Finished, err)
	}
	if wl := gittest.Git(t, repo, "worktree", "list", "--porcelain"); strings.Contains(wl, i.Worktree.Path) {
		t.Fatalf("git still lists the worktree: %s", wl)
	}
}

// A worktree in the middle of a merge that conflicted: finish --commit would commit
// the conflict markers. Refused before the agent is ended, nothing changed.
func TestFinishRefusesAWorktreeMidMerge(t *testing.T) {
	s := newSup(t)
	repo, root := gittest.Repo(t), t.TempDir()
	id := spawn(t, s, toyAgent(repo, root, "a"))
	waitOutput(t, s, id, "ready-a")
	i, _ := s.Info(id)
	gittest.Git(t, i.Worktree.Path, "commit", "-q", "-am", "a's line")
	if err := os.WriteFile(repo+"/a.txt", []byte("one\ntwo\nmain's line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, repo, "commit", "-q", "-am", "main's line")
	cmd := exec.Command("git", "-C", i.Worktree.Path, "merge", "-q", "main")
	cmd.Env = gittest.Env()
	if cmd.Run() == nil {
		t.Fatal("the worktree's merge of main did not conflict")
	}
	before := gitState(t, repo, i.Worktree)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := s.Finish(ctx, id, FinishOptions{Commit: "a's work"})
	if err == nil || !strings.Contains(err.Error(), "has a merge in progress") {
		t.Fatalf("finish --commit of a worktree mid-merge: %v", err)
	}
	stillRunning(t, s, id, i.PID)
	if after := gitState(t, repo, i.Worktree); after != before {
		t.Fatalf("a refused finish changed something:\n%s\n---\n%s", before, after)
	}
}

// finish --commit with a blank message: refused before the agent is ended (git
// commit would refuse it only after).
func TestFinishBlankCommitMessageLeavesTheAgent(t *testing.T) {
	s := newSup(t)
	repo, root := gittest.Repo(t), t.TempDir()
	id := spawn(t, s, toyAgent(repo, root, "a"))
	waitOutput(t, s, id, "ready-a")
	i, _ := s.Info(id)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := s.Finish(ctx, id, FinishOptions{Commit: " \n"}); err == nil || !strings.Contains(err.Error(), "blank message") {
		t.Fatalf("finish --commit with a blank message: %v", err)
	}
	stillRunning(t, s, id, i.PID)
}

// A run started on a finished run's kept branch gets a new worktree at the same path:
// the older run's finish, which removed the path's earlier worktree, does not make the
// new one's diff or finish "finished already".
func TestANewWorktreeAtAFinishedPathIsItsRunsOwn(t *testing.T) {
	s := newSup(t, WithRegistry(openReg(t, t.TempDir())))
	repo, root := gittest.Repo(t), t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	first := spawn(t, s, toyAgent(repo, root, "a"))
	waitOutput(t, s, first, "ready-a")
	if _, err := s.Finish(ctx, first, FinishOptions{Commit: "a's work"}); err != nil {
		t.Fatal(err)
	}
	fi, _ := s.Info(first)
	again := toyAgent(repo, root, "a")
	again.Name, again.Worktree.Branch = "again", fi.Worktree.Branch
	second := spawn(t, s, again)
	waitOutput(t, s, second, "ready-a")
	si, _ := s.Info(second)
	if si.Worktree.Path != fi.Worktree.Path {
		t.Skipf("the kept branch's new worktree is at %s, not the finished one's %s: nothing to test", si.Worktree.Path, fi.Worktree.Path)
	}
	if _, err := s.Diff(ctx, second, workspace.DiffOptions{}); err != nil {
		t.Fatalf("diff of a new worktree at a finished run's path: %v", err)
	}
	if _, err := s.Finish(ctx, second, FinishOptions{Commit: "a again"}); err != nil {
		t.Fatalf("finish of a new worktree at a finished run's path: %v", err)
	}
}

// A spawn may take as it is only a worktree Corral made for a run (a restore's, a
// restart's): one it did not make, which finish would then remove, is refused.
func TestSpawnUsesOnlyAWorktreeCorralMade(t *testing.T) {
	s := newSup(t, WithRegistry(openReg(t, t.TempDir())))
	repo := gittest.Repo(t)
	path := filepath.Join(t.TempDir(), "mine")
	gittest.Git(t, repo, "worktree", "add", "-q", "-b", "mine", path)
	wt := workspace.Worktree{Repo: repo, Path: path, Dir: path, Branch: "mine", Base: gittest.Git(t, repo, "rev-parse", "HEAD")}
	_, err := s.Spawn(Spec{Shell: "exec sleep 600", Dir: path, BaseEnv: gittest.Env(), Name: "taker",
		Worktree: &WorktreeSpec{Use: &wt}})
	if !errors.Is(err, ErrBadSpec) || !strings.Contains(err.Error(), path) {
		t.Fatalf("a spawn taking a worktree Corral did not make: %v", err)
	}
	if n := len(s.Snapshot()); n != 0 {
		t.Fatalf("%d runs after a refused spawn", n)
	}
}
