package workspace

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitTestEnv isolates git from the user's and the system's configuration and gives
// commits a fixed identity.
func gitTestEnv() []string {
	return append(os.Environ(),
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com")
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = gitTestEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// newRepo makes a repository on main with one commit (README).
func newRepo(t *testing.T) string {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "repo")
	if out, err := exec.Command("git", "init", "-q", "-b", "main", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	write(t, filepath.Join(repo, "README"), "one\ntwo\n")
	git(t, repo, "add", "README")
	git(t, repo, "commit", "-q", "-m", "init")
	return repo
}

// addWorktree makes a worktree on a new branch from main, as Create would.
func addWorktree(t *testing.T, repo, name string) Worktree {
	t.Helper()
	path := filepath.Join(filepath.Dir(repo), name)
	git(t, repo, "worktree", "add", "-q", "-b", "corral/"+name, path, "main")
	return Worktree{Repo: repo, Path: path, Dir: path, Branch: "corral/" + name,
		Base: git(t, repo, "rev-parse", "main"), BaseRef: "main", NewBranch: true}
}

// state is what a refusal must leave as it was.
func state(t *testing.T, repo string, wts ...Worktree) string {
	t.Helper()
	s := git(t, repo, "rev-parse", "HEAD") + git(t, repo, "status", "--porcelain") +
		git(t, repo, "branch", "-av") + git(t, repo, "worktree", "list", "--porcelain")
	for _, wt := range wts {
		s += git(t, wt.Path, "status", "--porcelain", "--untracked-files=all") + git(t, wt.Path, "diff", "--cached")
	}
	return s
}

func TestDiffShowsOnlyItsOwnChanges(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	a, b := addWorktree(t, repo, "a"), addWorktree(t, repo, "b")
	for _, wt := range []Worktree{a, b} {
		name := filepath.Base(wt.Path)
		write(t, filepath.Join(wt.Path, "committed.txt"), "committed by "+name+"\n")
		git(t, wt.Path, "add", "committed.txt")
		git(t, wt.Path, "commit", "-q", "-m", "commit of "+name)
		write(t, filepath.Join(wt.Path, "staged.txt"), "staged by "+name+"\n")
		git(t, wt.Path, "add", "staged.txt")
		write(t, filepath.Join(wt.Path, "README"), "one\ntwo by "+name+"\n")
		write(t, filepath.Join(wt.Path, "untracked.txt"), "untracked by "+name+"\n")
	}
	before := state(t, repo, a, b)
	for _, wt := range []Worktree{a, b} {
		name, other := filepath.Base(wt.Path), "a"
		if name == "a" {
			other = "b"
		}
		out, err := Diff(ctx, wt, gitTestEnv(), DiffOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"+committed by " + name, "+staged by " + name, "+two by " + name, "-two", "+untracked by " + name} {
			if !strings.Contains(string(out), want) {
				t.Errorf("diff of %s lacks %q:\n%s", name, want, out)
			}
		}
		if strings.Contains(string(out), "by "+other) {
			t.Errorf("diff of %s shows %s's changes:\n%s", name, other, out)
		}
		if bytes.Contains(out, []byte("\x1b[")) {
			t.Errorf("diff of %s is coloured without Color", name)
		}
		stat, err := Diff(ctx, wt, gitTestEnv(), DiffOptions{Stat: true, Color: true})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(stat), "4 files changed") || !bytes.Contains(stat, []byte("\x1b[")) {
			t.Errorf("diff --stat --color of %s:\n%q", name, stat)
		}
	}
	if after := state(t, repo, a, b); after != before {
		t.Errorf("Diff touched the repository or an index:\n%s\n---\n%s", before, after)
	}
}

func TestMergeLandsFirstAndRefusesConflictingSecond(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	a, b := addWorktree(t, repo, "a"), addWorktree(t, repo, "b")
	for _, wt := range []Worktree{a, b} {
		write(t, filepath.Join(wt.Path, "same.txt"), "written by "+filepath.Base(wt.Path)+"\n")
		if _, err := Commit(ctx, wt, gitTestEnv(), "work of "+filepath.Base(wt.Path)); err != nil {
			t.Fatal(err)
		}
	}
	into, head, err := Merge(ctx, a, gitTestEnv(), "")
	if err != nil || into != "main" || head == "" {
		t.Fatalf("Merge(a) = %q, %q, %v", into, head, err)
	}
	if got, _ := os.ReadFile(filepath.Join(repo, "same.txt")); string(got) != "written by a\n" {
		t.Fatalf("main checkout's same.txt after merging a: %q", got)
	}
	before := state(t, repo, a, b)
	_, _, err = Merge(ctx, b, gitTestEnv(), "")
	var conflict *ConflictError
	if !errors.As(err, &conflict) || len(conflict.Files) != 1 || conflict.Files[0] != "same.txt" {
		t.Fatalf("Merge(b) = %v, want a conflict in same.txt", err)
	}
	if !strings.Contains(err.Error(), "same.txt") || !strings.Contains(err.Error(), "--no-merge") {
		t.Errorf("the conflict's message does not say which file and what to do: %v", err)
	}
	if after := state(t, repo, a, b); after != before {
		t.Errorf("a refused merge changed something:\n%s\n---\n%s", before, after)
	}
	// Counting b's uncommitted changes as finish --commit will: a conflict found
	// before anything is committed.
	write(t, filepath.Join(b.Path, "README"), "changed by b, uncommitted\n")
	write(t, filepath.Join(repo, "README"), "changed on main\n")
	git(t, repo, "commit", "-q", "-am", "main moves on")
	b2 := b
	git(t, b.Path, "reset", "-q", "--hard", b.Base)
	write(t, filepath.Join(b.Path, "README"), "changed by b, uncommitted\n")
	before = state(t, repo, b2)
	if _, _, err := CheckMerge(ctx, b2, gitTestEnv(), "", true); !errors.As(err, &conflict) || conflict.Files[0] != "README" {
		t.Fatalf("CheckMerge with uncommitted = %v, want a conflict in README", err)
	}
	if _, _, err := CheckMerge(ctx, b2, gitTestEnv(), "", false); err != nil {
		t.Fatalf("CheckMerge without uncommitted = %v", err)
	}
	if after := state(t, repo, b2); after != before {
		t.Errorf("CheckMerge changed something:\n%s\n---\n%s", before, after)
	}
}

func TestMergeRefusesACheckoutItCannotUse(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	a := addWorktree(t, repo, "a")
	write(t, filepath.Join(a.Path, "new.txt"), "new\n")
	if _, err := Commit(ctx, a, gitTestEnv(), "new"); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "README"), "dirty\n")
	var dirty *DirtyError
	if _, _, err := Merge(ctx, a, gitTestEnv(), ""); !errors.As(err, &dirty) || dirty.Files[0] != "README" {
		t.Fatalf("Merge into a dirty checkout = %v", err)
	}
	git(t, repo, "checkout", "-q", "README")
	git(t, repo, "switch", "-q", "-c", "elsewhere")
	var wrong *WrongBranchError
	if _, _, err := Merge(ctx, a, gitTestEnv(), ""); !errors.As(err, &wrong) || wrong.On != "elsewhere" {
		t.Fatalf("Merge into a checkout on another branch = %v", err)
	}
	var noBranch *NoBranchError
	if _, _, err := Merge(ctx, a, gitTestEnv(), "nosuch"); !errors.As(err, &noBranch) {
		t.Fatalf("Merge into a missing branch = %v", err)
	}
	detached := a
	detached.BaseRef = ""
	var noInto *NoIntoError
	if _, _, err := Merge(ctx, detached, gitTestEnv(), ""); !errors.As(err, &noInto) || !strings.Contains(err.Error(), "--into") {
		t.Fatalf("Merge with no base branch = %v", err)
	}
	git(t, repo, "switch", "-q", "main")
	if git(t, repo, "rev-parse", "HEAD") != a.Base {
		t.Errorf("a refused merge moved main")
	}
}

func TestRemoveKeepsWhatWouldBeLost(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	a, b := addWorktree(t, repo, "a"), addWorktree(t, repo, "b")
	write(t, filepath.Join(a.Path, "untracked.txt"), "work\n")
	write(t, filepath.Join(a.Path, "README"), "changed\n")
	before := state(t, repo, a, b)
	err := Remove(ctx, a, gitTestEnv(), RemoveOptions{})
	var lost *LostError
	if !errors.As(err, &lost) || lost.Lost.Untracked[0] != "untracked.txt" || lost.Lost.Changed[0] != "README" {
		t.Fatalf("Remove of a dirty worktree = %v", err)
	}
	if after := state(t, repo, a, b); after != before {
		t.Errorf("a refused remove changed something:\n%s\n---\n%s", before, after)
	}
	if err := Remove(ctx, a, gitTestEnv(), RemoveOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if exists(a.Path) || !exists(b.Path) {
		t.Errorf("after Remove --force: a exists %v, b exists %v", exists(a.Path), exists(b.Path))
	}
	git(t, repo, "rev-parse", "--verify", "refs/heads/corral/a") // kept

	// b's commit is on its branch only: kept while the branch is, lost with it.
	write(t, filepath.Join(b.Path, "new.txt"), "new\n")
	if _, err := Commit(ctx, b, gitTestEnv(), "b's work"); err != nil {
		t.Fatal(err)
	}
	before = state(t, repo, b)
	if err := Remove(ctx, b, gitTestEnv(), RemoveOptions{DeleteBranch: true}); !errors.As(err, &lost) || len(lost.Lost.Commits) != 1 || !strings.Contains(lost.Lost.Commits[0], "b's work") {
		t.Fatalf("Remove --delete-branch of an unmerged branch = %v", err)
	}
	if after := state(t, repo, b); after != before {
		t.Errorf("a refused remove changed something:\n%s\n---\n%s", before, after)
	}
	if _, _, err := Merge(ctx, b, gitTestEnv(), ""); err != nil {
		t.Fatal(err)
	}
	if err := Remove(ctx, b, gitTestEnv(), RemoveOptions{DeleteBranch: true}); err != nil {
		t.Fatalf("Remove --delete-branch of a merged branch = %v", err)
	}
	if out := git(t, repo, "branch", "--list", "corral/b"); out != "" || exists(b.Path) {
		t.Errorf("merged b not removed: branch %q, path exists %v", out, exists(b.Path))
	}
}
