package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"corral/demo/testkit/gittest"
)

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func branches(t *testing.T, repo string) string {
	return gittest.Git(t, repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/")
}

func TestCreateDefaults(t *testing.T) {
	repo := gittest.Repo(t)
	root := t.TempDir()
	ctx := context.Background()
	wt, err := Create(ctx, Request{Dir: filepath.Join(repo, "sub"), Name: "fix bug", Root: root, Env: gittest.Env()})
	if err != nil {
		t.Fatal(err)
	}
	head := gittest.Git(t, repo, "rev-parse", "HEAD")
	realRepo, _ := filepath.EvalSymlinks(repo)
	if wt.Repo != realRepo || wt.Branch != "corral/fix-bug" || wt.Base != head || wt.BaseRef != "main" || !wt.NewBranch {
		t.Fatalf("worktree %+v (repo %s head %s)", wt, realRepo, head)
	}
	if !strings.HasPrefix(wt.Path, root) || wt.Dir != filepath.Join(wt.Path, "sub") {
		t.Fatalf("path %s dir %s", wt.Path, wt.Dir)
	}
	if _, err := os.Stat(filepath.Join(wt.Dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, wt.Path, "symbolic-ref", "--short", "HEAD"); got != "corral/fix-bug" {
		t.Fatalf("worktree on %s", got)
	}
	if st := gittest.Git(t, repo, "status", "--porcelain"); st != "" {
		t.Fatalf("main checkout not clean: %s", st)
	}
	// The same name again: a unique branch and path.
	wt2, err := Create(ctx, Request{Dir: repo, Name: "fix bug", Root: root, Env: gittest.Env()})
	if err != nil {
		t.Fatal(err)
	}
	if wt2.Branch != "corral/fix-bug-2" || wt2.Path == wt.Path || wt2.Dir != wt2.Path {
		t.Fatalf("second %+v", wt2)
	}
	// A worktree of that worktree belongs to the main checkout; its base is its HEAD.
	write(t, filepath.Join(wt2.Path, "c.txt"), "c\n")
	gittest.Git(t, wt2.Path, "add", "c.txt")
	gittest.Git(t, wt2.Path, "commit", "-q", "-m", "c")
	wt3, err := Create(ctx, Request{Dir: wt2.Path, Name: "nested", Root: root, Env: gittest.Env()})
	if err != nil {
		t.Fatal(err)
	}
	if wt3.Repo != realRepo || wt3.BaseRef != "corral/fix-bug-2" || wt3.Base != gittest.Git(t, wt2.Path, "rev-parse", "HEAD") {
		t.Fatalf("nested %+v", wt3)
	}
}

func TestCreateExplicit(t *testing.T) {
	repo := gittest.Repo(t)
	root := t.TempDir()
	ctx := context.Background()
	first := gittest.Git(t, repo, "rev-parse", "HEAD")
	write(t, filepath.Join(repo, "a.txt"), "changed\n")
	gittest.Git(t, repo, "commit", "-q", "-am", "second")
	gittest.Git(t, repo, "tag", "v1", first)

	wt, err := Create(ctx, Request{Dir: repo, Name: "x", Branch: "feature/a", Base: "v1", Root: root, Env: gittest.Env()})
	if err != nil {
		t.Fatal(err)
	}
	if wt.Base != first || wt.BaseRef != "" || wt.Branch != "feature/a" || !wt.NewBranch || filepath.Base(wt.Path) != "feature-a" {
		t.Fatalf("%+v", wt)
	}
	// An existing branch nobody has checked out is reused.
	gittest.Git(t, repo, "branch", "old", first)
	wt2, err := Create(ctx, Request{Dir: repo, Name: "y", Branch: "old", Base: "main", Root: root, Env: gittest.Env()})
	if err != nil {
		t.Fatal(err)
	}
	if wt2.NewBranch || wt2.Branch != "old" || wt2.BaseRef != "main" || wt2.Base != first {
		t.Fatalf("reused %+v", wt2)
	}
}

func TestCreateErrors(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	root := t.TempDir()
	before := branches(t, repo)

	check := func(name string, err, want error, words ...string) {
		t.Helper()
		if !errors.Is(err, want) {
			t.Fatalf("%s: err %v, want %v", name, err, want)
		}
		for _, w := range words {
			if !strings.Contains(err.Error(), w) {
				t.Fatalf("%s: %q does not say %q", name, err, w)
			}
		}
		if b := branches(t, repo); b != before {
			t.Fatalf("%s: branches %q, were %q", name, b, before)
		}
		if wts := gittest.Git(t, repo, "worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 1+strings.Count(before, "checked") {
			t.Fatalf("%s: worktrees %s", name, wts)
		}
	}

	notRepo := t.TempDir()
	_, err := Create(ctx, Request{Dir: notRepo, Name: "a", Root: root, Env: gittest.Env()})
	check("not a repo", err, ErrNotRepo, notRepo)

	_, err = Create(ctx, Request{Dir: repo, Name: "a", Base: "nope", Root: root, Env: gittest.Env()})
	check("unknown base", err, ErrUnknownBase, `"nope"`)

	env := []string{"PATH=" + t.TempDir(), "HOME=" + t.TempDir()}
	_, err = Create(ctx, Request{Dir: repo, Name: "a", Root: root, Env: env})
	check("git missing", err, ErrGitMissing, "install git")

	_, err = Create(ctx, Request{Dir: repo, Name: "a", Branch: "main", Root: root, Env: gittest.Env()})
	check("checked out", err, ErrBranchCheckedOut, "main", repo)

	_, err = Create(ctx, Request{Dir: repo, Name: "a", Root: filepath.Join(repo, "wts"), Env: gittest.Env()})
	check("root inside", err, ErrBadRoot, repo)

	_, err = Create(ctx, Request{Dir: repo, Name: "a", Branch: "bad..name", Root: root, Env: gittest.Env()})
	check("bad branch", err, ErrBadBranch, "bad..name")

	// The path of an explicit branch exists: nothing made, the branch not left behind.
	p := filepath.Join(root, repoDirName(mustReal(t, repo)), "taken")
	write(t, filepath.Join(p, "keep"), "mine\n")
	_, err = Create(ctx, Request{Dir: repo, Name: "a", Branch: "taken", Root: root, Env: gittest.Env()})
	check("path exists", err, ErrPathExists, p)
	if b, _ := os.ReadFile(filepath.Join(p, "keep")); string(b) != "mine\n" {
		t.Fatal("the existing path was touched")
	}

	// git worktree add itself fails (a post-checkout hook is not the cause: the path's
	// parent is a file): the branch Create made is deleted again.
	fileRoot := filepath.Join(t.TempDir(), "file")
	write(t, fileRoot, "x")
	_, err = Create(ctx, Request{Dir: repo, Name: "a", Root: fileRoot, Env: gittest.Env()})
	if err == nil {
		t.Fatal("a root that is a file made a worktree")
	}
	if b := branches(t, repo); b != before {
		t.Fatalf("branches %q, were %q", b, before)
	}
}

func TestCreateUndoesBranchWhenWorktreeAddFails(t *testing.T) {
	repo := gittest.Repo(t)
	root := t.TempDir()
	before := branches(t, repo)
	// A worktree already registered at the path git will be given (its directory
	// gone, so Create's own check passes): git worktree add refuses it.
	wt, err := Create(context.Background(), Request{Dir: repo, Name: "z", Branch: "keep", Root: root, Env: gittest.Env()})
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(wt.Path)
	gittest.Git(t, repo, "branch", "-m", "keep", "kept") // the registered worktree keeps its path
	_, err = Create(context.Background(), Request{Dir: repo, Name: "z", Branch: "keep", Root: root, Env: gittest.Env()})
	var ge *GitError
	if !errors.As(err, &ge) {
		t.Fatalf("err %v, want git's refusal", err)
	}
	if b := branches(t, repo); b != before+"\nkept" && b != "kept\n"+before {
		t.Fatalf("branches %q", b)
	}
}

func mustReal(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestStat(t *testing.T) {
	repo := gittest.Repo(t)
	ctx := context.Background()
	wt, err := Create(ctx, Request{Dir: repo, Name: "s", Root: t.TempDir(), Env: gittest.Env()})
	if err != nil {
		t.Fatal(err)
	}
	st, err := StatOf(ctx, wt, gittest.Env())
	if err != nil || st != (Stat{}) {
		t.Fatalf("fresh: %+v %v", st, err)
	}
	// A commit on the branch, a staged change, an unstaged one, an untracked file and
	// an untracked binary file.
	write(t, filepath.Join(wt.Path, "c.txt"), "1\n2\n3\n")
	gittest.Git(t, wt.Path, "add", "c.txt")
	gittest.Git(t, wt.Path, "commit", "-q", "-m", "c")
	write(t, filepath.Join(wt.Path, "a.txt"), "one\nTWO\n") // +1 -1
	gittest.Git(t, wt.Path, "add", "a.txt")
	write(t, filepath.Join(wt.Path, "sub", "b.txt"), "b\nmore\n") // +1, unstaged
	write(t, filepath.Join(wt.Path, "new.txt"), "n\n")            // +1, untracked
	write(t, filepath.Join(wt.Path, "bin.dat"), "\x00\x01\x02")   // binary, untracked
	indexBefore := gittest.Git(t, wt.Path, "diff", "--cached", "--name-only")
	st, err = StatOf(ctx, wt, gittest.Env())
	if err != nil {
		t.Fatal(err)
	}
	if want := (Stat{Added: 6, Removed: 1, Files: 5}); st != want {
		t.Fatalf("stat %+v, want %+v", st, want)
	}
	if got := gittest.Git(t, wt.Path, "diff", "--cached", "--name-only"); got != indexBefore {
		t.Fatalf("the user's index changed: %q, was %q", got, indexBefore)
	}
	if got := gittest.Git(t, wt.Path, "status", "--porcelain"); !strings.Contains(got, "?? new.txt") {
		t.Fatalf("untracked file was staged in the user's index: %s", got)
	}
}
