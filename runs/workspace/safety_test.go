package workspace

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/gittest"
)

// A merge that git starts but a hook refuses (pre-merge-commit) leaves the main
// checkout as it was, not half merged with the branch's files staged.
func TestMergeRefusedByAHookChangesNothing(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	a := addWorktree(t, repo, "a")
	write(t, filepath.Join(a.Path, "new.txt"), "new\n")
	if _, err := Commit(ctx, a, gittest.Env(), "a's work"); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "main.txt"), "main moves on\n") // no fast-forward: a merge commit
	gittest.Git(t, repo, "add", "main.txt")
	gittest.Git(t, repo, "commit", "-q", "-m", "main moves on")
	hook := filepath.Join(repo, ".git", "hooks", "pre-merge-commit")
	write(t, hook, "#!/bin/sh\necho no merges today >&2\nexit 1\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	before := state(t, repo, a)
	_, _, err := Merge(ctx, a, gittest.Env(), "")
	if err == nil {
		t.Fatal("Merge succeeded past a failing pre-merge-commit hook")
	}
	if !strings.Contains(err.Error(), "no merges today") || !strings.Contains(err.Error(), "nothing was changed") {
		t.Errorf("the refusal does not say what the hook said and that nothing changed: %v", err)
	}
	if after := state(t, repo, a); after != before {
		t.Errorf("a merge refused by a hook changed the main checkout:\n%s\n---\n%s", before, after)
	}
	if _, err := os.Stat(filepath.Join(repo, ".git", "MERGE_HEAD")); err == nil {
		t.Errorf("a merge refused by a hook left a merge in progress")
	}
}

// --delete-branch when the worktree is no longer on its branch (the user switched it,
// or detached HEAD): the branch's own commits are still lost with the branch.
func TestRemoveDeleteBranchCountsTheBranchOffTheWorktree(t *testing.T) {
	ctx := context.Background()
	for _, how := range []string{"switch", "detach"} {
		t.Run(how, func(t *testing.T) {
			repo := gittest.Repo(t)
			a := addWorktree(t, repo, "a")
			write(t, filepath.Join(a.Path, "new.txt"), "new\n")
			if _, err := Commit(ctx, a, gittest.Env(), "a's only copy"); err != nil {
				t.Fatal(err)
			}
			if how == "switch" {
				gittest.Git(t, a.Path, "switch", "-q", "-c", "elsewhere", "main")
			} else {
				gittest.Git(t, a.Path, "switch", "-q", "--detach", "main")
			}
			before := state(t, repo, a)
			err := Remove(ctx, a, gittest.Env(), RemoveOptions{DeleteBranch: true})
			var lost *LostError
			if !errors.As(err, &lost) || len(lost.Lost.Commits) != 1 || !strings.Contains(lost.Lost.Commits[0], "a's only copy") {
				t.Fatalf("Remove --delete-branch of a branch off its worktree = %v", err)
			}
			if after := state(t, repo, a); after != before {
				t.Errorf("a refused remove changed something:\n%s\n---\n%s", before, after)
			}
		})
	}
}

// A worktree directory that is no longer a worktree of the repository (removed by
// hand, or by the finish of another run that shared it) is refused by name: git is
// not run in it, where it would find whatever repository encloses it.
func TestGoneWorktreeIsRefusedByName(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	a := addWorktree(t, repo, "a")
	if err := Remove(ctx, a, gittest.Env(), RemoveOptions{}); err != nil {
		t.Fatal(err)
	}
	// The path is made again inside another repository (a dotfiles repository
	// holding the worktree root): git in it would see that one.
	outer := filepath.Dir(a.Path)
	gittest.Git(t, outer, "init", "-q", "-b", "main")
	write(t, filepath.Join(a.Path, "x.txt"), "not the run's\n")
	before := gittest.Git(t, outer, "status", "--porcelain", "--untracked-files=all")
	for name, f := range map[string]func() error{
		"Check":  func() error { _, err := Check(ctx, a, gittest.Env(), RemoveOptions{}); return err },
		"Commit": func() error { _, err := Commit(ctx, a, gittest.Env(), "msg"); return err },
		"Diff":   func() error { _, err := Diff(ctx, a, gittest.Env(), DiffOptions{}); return err },
		"Remove": func() error { return Remove(ctx, a, gittest.Env(), RemoveOptions{Force: true}) },
	} {
		err := f()
		if !errors.Is(err, ErrNotWorktree) || !strings.Contains(err.Error(), a.Path) {
			t.Errorf("%s of a gone worktree = %v, want ErrNotWorktree naming %s", name, err, a.Path)
		}
	}
	if after := gittest.Git(t, outer, "status", "--porcelain", "--untracked-files=all"); after != before {
		t.Errorf("the enclosing repository was changed:\n%s\n---\n%s", before, after)
	}
	if !present(filepath.Join(a.Path, "x.txt")) {
		t.Errorf("a file in a directory that is no longer the worktree was removed")
	}
}

// A worktree whose directory the user deleted by hand: its branch's commits are
// still counted, and removing it takes away git's record of it only.
func TestRemoveAWorktreeDeletedByHand(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	a, b := addWorktree(t, repo, "a"), addWorktree(t, repo, "b")
	write(t, filepath.Join(a.Path, "new.txt"), "new\n")
	if _, err := Commit(ctx, a, gittest.Env(), "a's work"); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(a.Path); err != nil {
		t.Fatal(err)
	}
	var lost *LostError
	if err := Remove(ctx, a, gittest.Env(), RemoveOptions{DeleteBranch: true}); !errors.As(err, &lost) || len(lost.Lost.Commits) != 1 {
		t.Fatalf("Remove --delete-branch of a hand-deleted worktree with unmerged commits = %v", err)
	}
	if err := Remove(ctx, a, gittest.Env(), RemoveOptions{}); err != nil {
		t.Fatalf("Remove of a hand-deleted worktree = %v", err)
	}
	if wl := gittest.Git(t, repo, "worktree", "list", "--porcelain"); strings.Contains(wl, a.Path) || !strings.Contains(wl, b.Path) {
		t.Errorf("worktree list after removing a: %s", wl)
	}
	gittest.Git(t, repo, "rev-parse", "--verify", "refs/heads/corral/a")
}

// Ignored files (.env, node_modules/) do not keep a worktree, but are named: a
// removal refused for real work says they go too, and Check lists them.
func TestIgnoredFilesAreNamedNotKept(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	write(t, filepath.Join(repo, ".gitignore"), ".env\nnode_modules/\n")
	gittest.Git(t, repo, "add", ".gitignore")
	gittest.Git(t, repo, "commit", "-q", "-m", "ignore")
	a := addWorktree(t, repo, "a")
	write(t, filepath.Join(a.Path, ".env"), "SECRET=1\n")
	write(t, filepath.Join(a.Path, "node_modules", "x", "index.js"), "x\n")
	write(t, filepath.Join(a.Path, "work.txt"), "work\n")
	err := Remove(ctx, a, gittest.Env(), RemoveOptions{})
	var lost *LostError
	if !errors.As(err, &lost) || strings.Join(lost.Lost.Ignored, ",") != ".env,node_modules/" || !strings.Contains(err.Error(), "ignored files go with it") {
		t.Fatalf("Remove of a worktree with work and ignored files = %v", err)
	}
	if err := os.Remove(filepath.Join(a.Path, "work.txt")); err != nil {
		t.Fatal(err)
	}
	l, err := Check(ctx, a, gittest.Env(), RemoveOptions{})
	if err != nil || !l.Empty() || len(l.Ignored) != 2 {
		t.Fatalf("Check with ignored files only = %+v, %v", l, err)
	}
	if err := Remove(ctx, a, gittest.Env(), RemoveOptions{}); err != nil {
		t.Fatalf("Remove with ignored files only = %v", err)
	}
}

// A worktree with an initialized submodule: git removes it only by force, and the
// submodule's clone goes with it, so it is refused without --force before anything
// is done (a finish would otherwise end the run and then fail in git).
func TestRemoveRefusesInitializedSubmodules(t *testing.T) {
	ctx := context.Background()
	sub := gittest.Repo(t)
	repo := gittest.Repo(t)
	gittest.Git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "lib")
	gittest.Git(t, repo, "commit", "-q", "-m", "lib")
	a := addWorktree(t, repo, "a")
	gittest.Git(t, a.Path, "-c", "protocol.file.allow=always", "submodule", "update", "--init", "-q")
	before := state(t, repo, a)
	err := Remove(ctx, a, gittest.Env(), RemoveOptions{})
	var lost *LostError
	if !errors.As(err, &lost) || strings.Join(lost.Lost.Submodules, ",") != "lib" || !strings.Contains(err.Error(), "submodule") {
		t.Fatalf("Remove of a worktree with an initialized submodule = %v", err)
	}
	if after := state(t, repo, a); after != before {
		t.Errorf("a refused remove changed something:\n%s\n---\n%s", before, after)
	}
	if err := Remove(ctx, a, gittest.Env(), RemoveOptions{Force: true}); err != nil || present(a.Path) {
		t.Fatalf("Remove --force of a worktree with a submodule = %v (still there: %v)", err, present(a.Path))
	}
}

// A commit a hook refuses leaves the worktree's staging as the agent left it: the
// git add -A before it is taken back.
func TestCommitRefusedByAHookKeepsTheStaging(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	a := addWorktree(t, repo, "a")
	write(t, filepath.Join(a.Path, "staged.txt"), "staged\n")
	gittest.Git(t, a.Path, "add", "staged.txt")
	write(t, filepath.Join(a.Path, "a.txt"), "unstaged\n")
	write(t, filepath.Join(a.Path, "new.txt"), "untracked\n")
	hook := filepath.Join(repo, ".git", "hooks", "pre-commit")
	write(t, hook, "#!/bin/sh\necho lint failed >&2\nexit 1\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	before := state(t, repo, a)
	if _, err := Commit(ctx, a, gittest.Env(), "work"); err == nil || !strings.Contains(err.Error(), "lint failed") {
		t.Fatalf("Commit past a failing pre-commit hook = %v", err)
	}
	if after := state(t, repo, a); after != before {
		t.Errorf("a refused commit changed the staging:\n%s\n---\n%s", before, after)
	}
}

// A repository path with spaces and a branch name with quotes and non-ASCII letters
// go through create, diff, check, merge and remove whole.
func TestOddPathsAndBranchNames(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "my repo $HOME 'x'")
	gittest.Git(t, t.TempDir(), "init", "-q", "-b", "main", dir)
	write(t, filepath.Join(dir, "a file.txt"), "one\n")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "first")
	branch := `it's/ünï"cøde-#1`
	wt, err := Create(ctx, Request{Dir: dir, Name: "x", Branch: branch, Root: filepath.Join(t.TempDir(), "work trees"), Env: gittest.Env()})
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Path, "a file.txt"), "one\ntwo\n")
	write(t, filepath.Join(wt.Path, "new \"file\".txt"), "new\n")
	out, err := Diff(ctx, wt, gittest.Env(), DiffOptions{})
	if err != nil || !strings.Contains(string(out), "+two") || !strings.Contains(string(out), "+new") {
		t.Fatalf("Diff = %s, %v", out, err)
	}
	l, err := Check(ctx, wt, gittest.Env(), RemoveOptions{})
	if err != nil || len(l.Changed) != 1 || len(l.Untracked) != 1 || l.Changed[0] != "a file.txt" || l.Untracked[0] != `new "file".txt` {
		t.Fatalf("Check = %+v, %v", l, err)
	}
	if _, err := Commit(ctx, wt, gittest.Env(), "work"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Merge(ctx, wt, gittest.Env(), ""); err != nil {
		t.Fatal(err)
	}
	if err := Remove(ctx, wt, gittest.Env(), RemoveOptions{DeleteBranch: true}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a file.txt")); string(got) != "one\ntwo\n" || present(wt.Path) {
		t.Fatalf("after merge and remove: %q, worktree there %v", got, present(wt.Path))
	}
}

// A main checkout in the middle of the user's own merge (resolved to look clean) is
// refused before git merge, and the user's merge is never aborted.
func TestMergeRefusesACheckoutMidMerge(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	a := addWorktree(t, repo, "a")
	write(t, filepath.Join(a.Path, "new.txt"), "new\n")
	if _, err := Commit(ctx, a, gittest.Env(), "a's work"); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, repo, "switch", "-q", "-c", "side")
	write(t, filepath.Join(repo, "a.txt"), "side\n")
	gittest.Git(t, repo, "commit", "-q", "-am", "side")
	gittest.Git(t, repo, "switch", "-q", "main")
	write(t, filepath.Join(repo, "a.txt"), "main\n")
	gittest.Git(t, repo, "commit", "-q", "-am", "main")
	cmd := exec.Command("git", "-C", repo, "merge", "-q", "side")
	cmd.Env = gittest.Env()
	if cmd.Run() == nil {
		t.Fatal("the user's merge did not conflict")
	}
	gittest.Git(t, repo, "checkout", "-q", "--ours", "a.txt")
	gittest.Git(t, repo, "add", "a.txt") // resolved to main's: the checkout looks clean
	before := state(t, repo, a)
	_, _, err := Merge(ctx, a, gittest.Env(), "")
	if err == nil || !strings.Contains(err.Error(), "merge in progress") {
		t.Fatalf("Merge into a checkout mid-merge = %v", err)
	}
	if after := state(t, repo, a); after != before {
		t.Errorf("a refused merge changed something:\n%s\n---\n%s", before, after)
	}
	if _, err := os.Stat(filepath.Join(repo, ".git", "MERGE_HEAD")); err != nil {
		t.Errorf("the user's merge in progress was aborted: %v", err)
	}
}

// A worktree the user locked (git worktree lock) is refused by name before anything,
// even with --force (git itself wants two), rather than failing in git after a
// finish ended the run.
func TestRemoveRefusesALockedWorktree(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	a := addWorktree(t, repo, "a")
	gittest.Git(t, repo, "worktree", "lock", "--reason", "on a usb disk", a.Path)
	before := state(t, repo, a)
	for _, o := range []RemoveOptions{{}, {Force: true}} {
		_, cerr := Check(ctx, a, gittest.Env(), o)
		err := Remove(ctx, a, gittest.Env(), o)
		if !errors.Is(cerr, ErrLocked) || !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "on a usb disk") || !strings.Contains(err.Error(), "git worktree unlock") {
			t.Fatalf("Check/Remove %+v of a locked worktree = %v / %v", o, cerr, err)
		}
	}
	if after := state(t, repo, a); after != before {
		t.Errorf("a refused remove changed something:\n%s\n---\n%s", before, after)
	}
}

// The checks a finish makes while the agent still runs (and in the user's main
// checkout) never write an index: git status's refresh would take index.lock, and an
// agent's git add at that moment would fail on it.
func TestChecksWriteNoIndex(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	a := addWorktree(t, repo, "a")
	write(t, filepath.Join(a.Path, "new.txt"), "new\n")
	if _, err := Commit(ctx, a, gittest.Env(), "a's work"); err != nil {
		t.Fatal(err)
	}
	idxOf := func(dir string) string {
		return gittest.Git(t, dir, "rev-parse", "--path-format=absolute", "--git-path", "index")
	}
	future := time.Now().Add(time.Hour)
	for _, dir := range []string{repo, a.Path} { // same content, new times: a refresh would rewrite the index
		if err := os.Chtimes(filepath.Join(dir, "a.txt"), future, future); err != nil {
			t.Fatal(err)
		}
	}
	read := func() string {
		x, _ := os.ReadFile(idxOf(repo))
		y, _ := os.ReadFile(idxOf(a.Path))
		return string(x) + string(y)
	}
	before := read()
	if _, err := Check(ctx, a, gittest.Env(), RemoveOptions{DeleteBranch: true}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := CheckMerge(ctx, a, gittest.Env(), "", true); err != nil {
		t.Fatal(err)
	}
	if err := CheckCommit(ctx, a, gittest.Env()); err != nil {
		t.Fatal(err)
	}
	if _, err := Diff(ctx, a, gittest.Env(), DiffOptions{}); err != nil {
		t.Fatal(err)
	}
	if read() != before {
		t.Fatal("a check rewrote an index")
	}
}

// A tag named as the run's branch (or as the branch merged into) does not stand in
// for it: the branch's own commits are what is merged.
func TestMergeUsesTheBranchNotATagOfItsName(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	a := addWorktree(t, repo, "a")
	gittest.Git(t, repo, "tag", "corral/a", "main") // at the base: merging it is nothing
	write(t, filepath.Join(a.Path, "new.txt"), "new\n")
	if _, err := Commit(ctx, a, gittest.Env(), "a's work"); err != nil {
		t.Fatal(err)
	}
	_, head, err := Merge(ctx, a, gittest.Env(), "")
	if err != nil || head == "" {
		t.Fatalf("Merge = %q, %v", head, err)
	}
	if got, _ := os.ReadFile(filepath.Join(repo, "new.txt")); string(got) != "new\n" {
		t.Fatalf("main checkout's new.txt after the merge: %q", got)
	}
	if msg := gittest.Git(t, repo, "log", "-1", "--format=%s"); strings.Contains(msg, "refs/heads") {
		t.Errorf("merge message %q", msg)
	}
}

// --delete-branch of a branch another checkout has taken (the worktree was switched
// off it): refused before anything, not after the worktree is gone.
func TestRemoveDeleteBranchCheckedOutElsewhere(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	a := addWorktree(t, repo, "a")
	gittest.Git(t, a.Path, "switch", "-q", "--detach")
	gittest.Git(t, repo, "switch", "-q", "corral/a")
	before := state(t, repo, a)
	err := Remove(ctx, a, gittest.Env(), RemoveOptions{DeleteBranch: true, Force: true})
	if !errors.Is(err, ErrBranchCheckedOut) || !strings.Contains(err.Error(), repo) {
		t.Fatalf("Remove --delete-branch of a branch checked out in the main checkout = %v", err)
	}
	if after := state(t, repo, a); after != before {
		t.Errorf("a refused remove changed something:\n%s\n---\n%s", before, after)
	}
}
