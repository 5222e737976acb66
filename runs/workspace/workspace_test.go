package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/gittest"
)

// addWorktree makes a worktree on a new branch from main, as Create would.
func addWorktree(t *testing.T, repo, name string) Worktree {
	t.Helper()
	path := filepath.Join(filepath.Dir(repo), name)
	gittest.Git(t, repo, "worktree", "add", "-q", "-b", "corral/"+name, path, "main")
	return Worktree{Repo: repo, Path: path, Dir: path, Branch: "corral/" + name,
		Base: gittest.Git(t, repo, "rev-parse", "main"), BaseRef: "main", NewBranch: true}
}

// state is what a refusal must leave as it was.
func state(t *testing.T, repo string, wts ...Worktree) string {
	t.Helper()
	s := gittest.Git(t, repo, "rev-parse", "HEAD") + gittest.Git(t, repo, "status", "--porcelain") +
		gittest.Git(t, repo, "branch", "-av") + gittest.Git(t, repo, "worktree", "list", "--porcelain")
	for _, wt := range wts {
		s += gittest.Git(t, wt.Path, "status", "--porcelain", "--untracked-files=all") + gittest.Git(t, wt.Path, "diff", "--cached")
	}
	return s
}

func TestDiffShowsOnlyItsOwnChanges(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	a, b := addWorktree(t, repo, "a"), addWorktree(t, repo, "b")
	for _, wt := range []Worktree{a, b} {
		name := filepath.Base(wt.Path)
		write(t, filepath.Join(wt.Path, "committed.txt"), "committed by "+name+"\n")
		gittest.Git(t, wt.Path, "add", "committed.txt")
		gittest.Git(t, wt.Path, "commit", "-q", "-m", "commit of "+name)
		write(t, filepath.Join(wt.Path, "staged.txt"), "staged by "+name+"\n")
		gittest.Git(t, wt.Path, "add", "staged.txt")
		write(t, filepath.Join(wt.Path, "a.txt"), "one\ntwo by "+name+"\n")
		write(t, filepath.Join(wt.Path, "untracked.txt"), "untracked by "+name+"\n")
	}
	before := state(t, repo, a, b)
	for _, wt := range []Worktree{a, b} {
		name, other := filepath.Base(wt.Path), "a"
		if name == "a" {
			other = "b"
		}
		out, err := Diff(ctx, wt, gittest.Env(), DiffOptions{})
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
		text, st, err := DiffWithStat(ctx, wt, gittest.Env(), DiffOptions{})
		if want, _ := StatOf(ctx, wt, gittest.Env()); err != nil || !bytes.Equal(text, out) || st != want || st.Files != 4 {
			t.Errorf("DiffWithStat of %s: stat %+v (StatOf %+v), same text %v, %v", name, st, want, bytes.Equal(text, out), err)
		}
		stat, err := Diff(ctx, wt, gittest.Env(), DiffOptions{Stat: true, Color: true})
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
	repo := gittest.Repo(t)
	a, b := addWorktree(t, repo, "a"), addWorktree(t, repo, "b")
	for _, wt := range []Worktree{a, b} {
		write(t, filepath.Join(wt.Path, "same.txt"), "written by "+filepath.Base(wt.Path)+"\n")
		if _, err := Commit(ctx, wt, gittest.Env(), "work of "+filepath.Base(wt.Path)); err != nil {
			t.Fatal(err)
		}
	}
	into, head, err := Merge(ctx, a, gittest.Env(), "")
	if err != nil || into != "main" || head == "" {
		t.Fatalf("Merge(a) = %q, %q, %v", into, head, err)
	}
	if got, _ := os.ReadFile(filepath.Join(repo, "same.txt")); string(got) != "written by a\n" {
		t.Fatalf("main checkout's same.txt after merging a: %q", got)
	}
	before := state(t, repo, a, b)
	_, _, err = Merge(ctx, b, gittest.Env(), "")
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
	write(t, filepath.Join(b.Path, "a.txt"), "changed by b, uncommitted\n")
	write(t, filepath.Join(repo, "a.txt"), "changed on main\n")
	gittest.Git(t, repo, "commit", "-q", "-am", "main moves on")
	b2 := b
	gittest.Git(t, b.Path, "reset", "-q", "--hard", b.Base)
	write(t, filepath.Join(b.Path, "a.txt"), "changed by b, uncommitted\n")
	before = state(t, repo, b2)
	if _, _, err := CheckMerge(ctx, b2, gittest.Env(), "", true); !errors.As(err, &conflict) || conflict.Files[0] != "a.txt" {
		t.Fatalf("CheckMerge with uncommitted = %v, want a conflict in a.txt", err)
	}
	if _, _, err := CheckMerge(ctx, b2, gittest.Env(), "", false); err != nil {
		t.Fatalf("CheckMerge without uncommitted = %v", err)
	}
	if after := state(t, repo, b2); after != before {
		t.Errorf("CheckMerge changed something:\n%s\n---\n%s", before, after)
	}
}

func TestMergeRefusesACheckoutItCannotUse(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	a := addWorktree(t, repo, "a")
	write(t, filepath.Join(a.Path, "new.txt"), "new\n")
	if _, err := Commit(ctx, a, gittest.Env(), "new"); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "a.txt"), "dirty\n")
	var dirty *DirtyError
	if _, _, err := Merge(ctx, a, gittest.Env(), ""); !errors.As(err, &dirty) || dirty.Files[0] != "a.txt" {
		t.Fatalf("Merge into a dirty checkout = %v", err)
	}
	gittest.Git(t, repo, "checkout", "-q", "a.txt")
	gittest.Git(t, repo, "switch", "-q", "-c", "elsewhere")
	var wrong *WrongBranchError
	if _, _, err := Merge(ctx, a, gittest.Env(), ""); !errors.As(err, &wrong) || wrong.On != "elsewhere" {
		t.Fatalf("Merge into a checkout on another branch = %v", err)
	}
	var noBranch *NoBranchError
	if _, _, err := Merge(ctx, a, gittest.Env(), "nosuch"); !errors.As(err, &noBranch) {
		t.Fatalf("Merge into a missing branch = %v", err)
	}
	detached := a
	detached.BaseRef = ""
	var noInto *NoIntoError
	if _, _, err := Merge(ctx, detached, gittest.Env(), ""); !errors.As(err, &noInto) || !strings.Contains(err.Error(), "--into") {
		t.Fatalf("Merge with no base branch = %v", err)
	}
	gittest.Git(t, repo, "switch", "-q", "main")
	// A file the branch adds is untracked in the main checkout: git merge would
	// refuse, so the check does, before anything (a run's end) is done. The same for
	// a file of the worktree's uncommitted work, counted as finish --commit will.
	write(t, filepath.Join(repo, "new.txt"), "the user's own\n")
	write(t, filepath.Join(a.Path, "more.txt"), "uncommitted\n")
	var untracked *UntrackedError
	if _, _, err := CheckMerge(ctx, a, gittest.Env(), "", false); !errors.As(err, &untracked) || len(untracked.Files) != 1 || untracked.Files[0] != "new.txt" {
		t.Fatalf("CheckMerge over an untracked file = %v", err)
	}
	os.Remove(filepath.Join(repo, "new.txt"))
	write(t, filepath.Join(repo, "more.txt"), "the user's own\n")
	if _, _, err := CheckMerge(ctx, a, gittest.Env(), "", true); !errors.As(err, &untracked) || untracked.Files[0] != "more.txt" ||
		!strings.Contains(err.Error(), "move or remove them there") {
		t.Fatalf("CheckMerge with uncommitted work over an untracked file = %v", err)
	}
	if _, _, err := CheckMerge(ctx, a, gittest.Env(), "", false); err != nil {
		t.Fatalf("CheckMerge of the commits alone = %v", err)
	}
	if gittest.Git(t, repo, "rev-parse", "HEAD") != a.Base {
		t.Errorf("a refused merge moved main")
	}
}

func TestRemoveKeepsWhatWouldBeLost(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	a, b := addWorktree(t, repo, "a"), addWorktree(t, repo, "b")
	write(t, filepath.Join(a.Path, "untracked.txt"), "work\n")
	write(t, filepath.Join(a.Path, "a.txt"), "changed\n")
	before := state(t, repo, a, b)
	err := Remove(ctx, a, gittest.Env(), RemoveOptions{})
	var lost *LostError
	if !errors.As(err, &lost) || lost.Lost.Untracked[0] != "untracked.txt" || lost.Lost.Changed[0] != "a.txt" {
		t.Fatalf("Remove of a dirty worktree = %v", err)
	}
	// Uncommitted work is kept by a commit; a merge alone would not take it.
	if msg := err.Error(); !strings.Contains(msg, "commit it (--commit MSG)") || strings.Contains(msg, "merge") {
		t.Errorf("the refusal of uncommitted work says %q", msg)
	}
	if after := state(t, repo, a, b); after != before {
		t.Errorf("a refused remove changed something:\n%s\n---\n%s", before, after)
	}
	if err := Remove(ctx, a, gittest.Env(), RemoveOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if present(a.Path) || !present(b.Path) {
		t.Errorf("after Remove --force: a exists %v, b exists %v", present(a.Path), present(b.Path))
	}
	gittest.Git(t, repo, "rev-parse", "--verify", "refs/heads/corral/a") // kept

	// b's commit is on its branch only: kept while the branch is, lost with it.
	write(t, filepath.Join(b.Path, "new.txt"), "new\n")
	if _, err := Commit(ctx, b, gittest.Env(), "b's work"); err != nil {
		t.Fatal(err)
	}
	before = state(t, repo, b)
	if err := Remove(ctx, b, gittest.Env(), RemoveOptions{DeleteBranch: true}); !errors.As(err, &lost) || len(lost.Lost.Commits) != 1 || !strings.Contains(lost.Lost.Commits[0], "b's work") {
		t.Fatalf("Remove --delete-branch of an unmerged branch = %v", err)
	}
	if msg := lost.Error(); !strings.Contains(msg, "keep the branch (no --delete-branch) or merge it (--merge)") {
		t.Errorf("the refusal of commits only the branch holds says %q", msg)
	}
	if after := state(t, repo, b); after != before {
		t.Errorf("a refused remove changed something:\n%s\n---\n%s", before, after)
	}
	if _, _, err := Merge(ctx, b, gittest.Env(), ""); err != nil {
		t.Fatal(err)
	}
	if err := Remove(ctx, b, gittest.Env(), RemoveOptions{DeleteBranch: true}); err != nil {
		t.Fatalf("Remove --delete-branch of a merged branch = %v", err)
	}
	if out := gittest.Git(t, repo, "branch", "--list", "corral/b"); out != "" || present(b.Path) {
		t.Errorf("merged b not removed: branch %q, path exists %v", out, present(b.Path))
	}
}

// An edit of the same size in the same second as the worktree's index was written is
// seen: git's stat data cannot tell it from the checked-out file, so only the index's
// own time makes git read it again, and the temporary index must keep that time.
func TestDiffSeesASameSizeEditInTheIndexSecond(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	for try := 0; ; try++ {
		wt := addWorktree(t, repo, fmt.Sprintf("racy%d", try))
		file := filepath.Join(wt.Path, "a.txt")
		old, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		edit := bytes.ToUpper(old)
		if bytes.Equal(edit, old) || len(edit) != len(old) {
			t.Fatalf("a.txt %q has no same-size edit", old)
		}
		write(t, file, string(edit))
		idx, err1 := os.Stat(filepath.Join(gittest.Git(t, wt.Path, "rev-parse", "--path-format=absolute", "--git-path", "index")))
		st, err2 := os.Stat(file)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if idx.ModTime().Unix() != st.ModTime().Unix() {
			if try == 20 {
				t.Skip("never edited within the second the index was written")
			}
			continue // a second boundary fell between them: the case is not made
		}
		// The diff is read in a later second, as a user reads it after the agent's
		// edit: a temporary index dated then would make the edit look checked out.
		for time.Now().Unix() <= st.ModTime().Unix() {
			time.Sleep(10 * time.Millisecond)
		}
		out, err := Diff(ctx, wt, gittest.Env(), DiffOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if want := "+" + strings.ReplaceAll(strings.TrimSpace(string(edit)), "\n", "\n+"); !strings.Contains(string(out), want) {
			t.Fatalf("the diff misses a same-size edit made in the index's second:\n%s", out)
		}
		return
	}
}

// A worktree removed outside Corral: its diff says so and where its commits are, and
// finishing it goes on with its branch (nothing to remove, the branch deleted when
// asked), whether git still lists it (rm -rf) or not (git worktree remove).
func TestWorktreeRemovedOutsideCorral(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	a, b := addWorktree(t, repo, "a"), addWorktree(t, repo, "b")
	gittest.Git(t, repo, "worktree", "remove", a.Path)
	var gone *GoneError
	if _, err := Diff(ctx, a, gittest.Env(), DiffOptions{}); !errors.As(err, &gone) || !strings.Contains(err.Error(), "removed outside Corral") {
		t.Fatalf("Diff of a removed worktree = %v", err)
	}
	if err := Remove(ctx, a, gittest.Env(), RemoveOptions{DeleteBranch: true}); err != nil {
		t.Fatalf("Remove of a worktree git no longer lists = %v", err)
	}
	if out := gittest.Git(t, repo, "branch", "--list", "corral/a"); out != "" {
		t.Errorf("branch corral/a kept: %q", out)
	}
	os.RemoveAll(b.Path)
	if err := Remove(ctx, b, gittest.Env(), RemoveOptions{}); err != nil {
		t.Fatalf("Remove of a deleted worktree git still lists = %v", err)
	}
	if wts := gittest.Git(t, repo, "worktree", "list", "--porcelain"); strings.Contains(wts, b.Path) {
		t.Errorf("the deleted worktree is still listed:\n%s", wts)
	}
	gittest.Git(t, repo, "rev-parse", "--verify", "refs/heads/corral/b") // kept
}

// git's list of worktrees fails while another worktree of the repository is half
// added; the list is asked again, so a count (or a finish) at that moment goes on,
// and a list that keeps failing still ends in git's error.
func TestWorktreeListAskedAgain(t *testing.T) {
	ctx := context.Background()
	repo := gittest.Repo(t)
	wt := addWorktree(t, repo, "a")
	if err := os.WriteFile(filepath.Join(wt.Path, "new.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	calls := filepath.Join(t.TempDir(), "calls")
	// The first three lists fail, as git does reading a half-written worktree.
	env := gittest.Shim(t, fmt.Sprintf(`case "$*" in *"worktree list"*)
	echo x >> '%s'
	[ "$(wc -l < '%s')" -le 3 ] && { echo "fatal: failed to read .git/worktrees/b/commondir" >&2; exit 128; };;
esac`, calls, calls))
	st, err := StatOf(ctx, wt, env)
	if err != nil || st != (Stat{Added: 1, Files: 1}) {
		t.Fatalf("StatOf = %+v, %v; want the new file counted", st, err)
	}
	if b, _ := os.ReadFile(calls); bytes.Count(b, []byte("\n")) != 4 {
		t.Fatalf("git listed worktrees %d times, want 4", bytes.Count(b, []byte("\n")))
	}
	always := gittest.Shim(t, `case "$*" in *"worktree list"*) echo "fatal: broken" >&2; exit 128;; esac`)
	if _, err := StatOf(ctx, wt, always); err == nil || !strings.Contains(err.Error(), "fatal: broken") {
		t.Fatalf("StatOf with a list that always fails = %v, want git's error", err)
	}
}
