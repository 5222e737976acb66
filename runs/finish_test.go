package runs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/runs/workspace"

	"corral/demo/testkit/gittest"
)

// toyAgent writes its name into the same files as every other toy agent (a new
// file, and a line added to a.txt), says so, and waits to be ended.
func toyAgent(repo, root, name string) Spec {
	spec := worktreeSpec(repo, root, "printf 'by "+name+"\\n' > same.txt && printf '"+name+"\\n' >> a.txt && echo ready-"+name+" && exec sleep 600")
	spec.Name = name
	return spec
}

// gitState is what a refused finish must leave as it was: the main checkout (HEAD,
// files, branches, worktrees) and each worktree's files and index.
func gitState(t *testing.T, repo string, wts ...*workspace.Worktree) string {
	t.Helper()
	s := gittest.Git(t, repo, "rev-parse", "HEAD") + gittest.Git(t, repo, "status", "--porcelain", "--untracked-files=all") +
		gittest.Git(t, repo, "branch", "-av") + gittest.Git(t, repo, "worktree", "list", "--porcelain")
	for _, wt := range wts {
		s += gittest.Git(t, wt.Path, "status", "--porcelain", "--untracked-files=all") + gittest.Git(t, wt.Path, "diff", "--cached")
	}
	return s
}

// stillRunning fails unless run id is running with the pid it had.
func stillRunning(t *testing.T, s *Supervisor, id string, pid int) {
	t.Helper()
	i, err := s.Info(id)
	if err != nil || i.State != Running || i.PID != pid || i.Finished != nil {
		t.Fatalf("run %s after a refused finish: state %s pid %d (was %d) finished %+v, %v", id, i.State, i.PID, pid, i.Finished, err)
	}
}

func TestFinishTwoAgentsInOneRepository(t *testing.T) {
	dir := t.TempDir()
	s := newSup(t, WithRegistry(openReg(t, dir)))
	repo, root := gittest.Repo(t), t.TempDir()
	a, b := spawn(t, s, toyAgent(repo, root, "a")), spawn(t, s, toyAgent(repo, root, "b"))
	waitOutput(t, s, a, "ready-a")
	waitOutput(t, s, b, "ready-b")
	ia, _ := s.Info(a)
	ib, _ := s.Info(b)
	ctx := context.Background()

	// Each diff shows its own run's changes only.
	for _, x := range []struct{ id, own, other string }{{a, "a", "b"}, {b, "b", "a"}} {
		d, err := s.Diff(ctx, x.id, workspace.DiffOptions{})
		if err != nil {
			t.Fatal(err)
		}
		text := string(d.Text)
		if !strings.Contains(text, "+by "+x.own) || !strings.Contains(text, "+"+x.own+"\n") || strings.Contains(text, "by "+x.other) {
			t.Fatalf("diff of %s:\n%s", x.own, text)
		}
		if d.Stat != (workspace.Stat{Added: 2, Files: 2}) || d.Worktree.Branch != "corral/"+x.own {
			t.Fatalf("diff of %s: stat %+v worktree %+v", x.own, d.Stat, d.Worktree)
		}
	}

	// A refused finish changes nothing, and leaves its run running.
	before := gitState(t, repo, ia.Worktree, ib.Worktree)
	_, err := s.Finish(ctx, b, FinishOptions{})
	var lost *workspace.LostError
	if !errors.As(err, &lost) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("finish of a dirty worktree without --force: %v", err)
	}
	stillRunning(t, s, b, ib.PID)

	// Finishing a with a commit and a merge lands it, and touches nothing of b's.
	res, err := s.Finish(ctx, a, FinishOptions{Commit: "a's work", Merge: true})
	if err != nil {
		t.Fatal(err)
	}
	f := res.Finished
	if !res.Ended || f.Commit == "" || f.Into != "main" || f.Merge == "" || !f.Removed || f.BranchDeleted || f.Branch != "corral/a" {
		t.Fatalf("finish a: %+v", res)
	}
	if got, _ := os.ReadFile(filepath.Join(repo, "same.txt")); string(got) != "by a\n" {
		t.Fatalf("main checkout's same.txt after finishing a: %q", got)
	}
	if _, err := os.Stat(ia.Worktree.Path); !os.IsNotExist(err) {
		t.Fatalf("a's worktree is still there: %v", err)
	}
	if gittest.Git(t, repo, "rev-parse", "corral/a") != gittest.Git(t, repo, "rev-parse", "HEAD") {
		t.Fatalf("branch corral/a not kept at the merge")
	}
	if i, _ := s.Info(a); i.State != Exited || i.Reason != ManualCancel || i.Finished == nil || !i.Finished.Removed {
		t.Fatalf("a after finish: state %s reason %s finished %+v", i.State, i.Reason, i.Finished)
	}
	if got := gittest.Git(t, ib.Worktree.Path, "status", "--porcelain", "--untracked-files=all"); got != "M a.txt\n?? same.txt" && got != " M a.txt\n?? same.txt" {
		t.Fatalf("b's worktree changed by finishing a: %q", got)
	}
	stillRunning(t, s, b, ib.PID)
	if recs, _ := s.Registry().List(); !recordFinished(recs, a) {
		t.Fatalf("a's record does not say it was finished: %+v", recs)
	}

	// b's merge conflicts with a's: refused before b is ended, nothing changed.
	before = gitState(t, repo, ib.Worktree)
	_, err = s.Finish(ctx, b, FinishOptions{Commit: "b's work", Merge: true})
	var conflict *workspace.ConflictError
	if !errors.As(err, &conflict) || strings.Join(conflict.Files, ",") != "a.txt,same.txt" {
		t.Fatalf("finish b with a merge: %v", err)
	}
	if after := gitState(t, repo, ib.Worktree); after != before {
		t.Fatalf("a refused merge changed something:\n%s\n---\n%s", before, after)
	}
	stillRunning(t, s, b, ib.PID)

	// A worktree another live run works in is never touched, even with --force.
	other := spawn(t, s, Spec{Shell: "echo in; exec sleep 600", Dir: ib.Worktree.Path, Name: "other"})
	waitOutput(t, s, other, "in")
	if _, err := s.Finish(ctx, b, FinishOptions{Force: true}); !errors.Is(err, ErrWorktreeInUse) || !strings.Contains(err.Error(), other) {
		t.Fatalf("finish of a worktree another run is in: %v", err)
	}
	if after := gitState(t, repo, ib.Worktree); after != before {
		t.Fatalf("a refused finish changed something:\n%s\n---\n%s", before, after)
	}
	stillRunning(t, s, b, ib.PID)
	s.Cancel(other)
	waitEnd(t, s, other)

	// With --force, the dirty worktree goes (its branch stays).
	res, err = s.Finish(ctx, b, FinishOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Ended || !res.Finished.Removed || res.Finished.Discarded == "" || res.Finished.Branch != "corral/b" {
		t.Fatalf("finish b --force: %+v", res)
	}
	if _, err := os.Stat(ib.Worktree.Path); !os.IsNotExist(err) {
		t.Fatalf("b's worktree is still there: %v", err)
	}
	gittest.Git(t, repo, "rev-parse", "--verify", "corral/b")
	if _, err := s.Finish(ctx, b, FinishOptions{}); !errors.Is(err, ErrFinished) {
		t.Fatalf("finishing twice: %v", err)
	}
}

func recordFinished(recs []Record, id string) bool {
	for _, r := range recs {
		if r.ID == id {
			return r.Finished != nil && r.Finished.Removed && r.Finished.Into == "main"
		}
	}
	return false
}

func TestDiffAndFinishNeedAWorktree(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, Spec{Shell: "exec sleep 600", Name: "plain"})
	waitState(t, s, id, Running)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.Diff(ctx, id, workspace.DiffOptions{}); !errors.Is(err, ErrNoWorktree) || !strings.Contains(err.Error(), "has no worktree") {
		t.Fatalf("diff of a run with no worktree: %v", err)
	}
	if _, err := s.Finish(ctx, id, FinishOptions{Force: true}); !errors.Is(err, ErrNoWorktree) {
		t.Fatalf("finish of a run with no worktree: %v", err)
	}
	if i, _ := s.Info(id); i.State != Running {
		t.Fatalf("a refused finish ended the run: %s", i.State)
	}
}

// Two finishes of one run at once: one finishes it, the other is refused, and
// nothing is done twice.
func TestFinishTwiceAtOnce(t *testing.T) {
	s := newSup(t)
	repo, root := gittest.Repo(t), t.TempDir()
	id := spawn(t, s, toyAgent(repo, root, "a"))
	waitOutput(t, s, id, "ready-a")
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := s.Finish(context.Background(), id, FinishOptions{Commit: "a's work"})
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
}
