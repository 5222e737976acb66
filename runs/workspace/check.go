package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Lost is what removing a worktree would lose.
type Lost struct {
	Changed   []string `json:"changed,omitempty"`   // tracked files with uncommitted changes
	Untracked []string `json:"untracked,omitempty"` // untracked files, not the ignored ones
	// Commits ("abc1234 subject") are on no branch, tag or remote-tracking branch that
	// outlives the removal.
	Commits []string `json:"commits,omitempty"`
	// Ignored files and directories (.env, node_modules/) go with the worktree too,
	// but are not counted as lost: they are what git is told to leave out (built,
	// installed, or copied in by a setup step), and refusing for them would refuse
	// every worktree a build ran in. They are named, so a removal says what went.
	Ignored []string `json:"ignored,omitempty"`
	// Submodules are the worktree's initialized submodules: git removes a worktree
	// holding any only by force, and their clones (their own commits and changes)
	// go with it.
	Submodules []string `json:"submodules,omitempty"`
}

// Empty says nothing would be lost (ignored files aside).
func (l Lost) Empty() bool {
	return len(l.Changed) == 0 && len(l.Untracked) == 0 && len(l.Commits) == 0 && len(l.Submodules) == 0
}

func (l Lost) String() string {
	var parts []string
	if n := len(l.Changed); n > 0 {
		parts = append(parts, fmt.Sprintf("%d changed file%s (%s)", n, plural(n), list(l.Changed)))
	}
	if n := len(l.Untracked); n > 0 {
		parts = append(parts, fmt.Sprintf("%d untracked file%s (%s)", n, plural(n), list(l.Untracked)))
	}
	if n := len(l.Commits); n > 0 {
		parts = append(parts, fmt.Sprintf("%d commit%s on no other branch (%s)", n, plural(n), list(l.Commits)))
	}
	if n := len(l.Submodules); n > 0 {
		parts = append(parts, fmt.Sprintf("%d initialized submodule%s (%s), whose clones go with it (commits not pushed from them too)", n, plural(n), list(l.Submodules)))
	}
	return strings.Join(parts, ", ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// RemoveOptions: Force removes whatever would be lost; DeleteBranch deletes the
// worktree's branch too, so its commits count as lost unless another branch has them.
type RemoveOptions struct {
	Force        bool
	DeleteBranch bool
}

// Check lists what removing the worktree with o would lose: uncommitted changes,
// untracked files, and commits that no branch left afterwards holds (the worktree's
// own branch holds them unless o.DeleteBranch or the worktree is off its branch).
func Check(ctx context.Context, wt Worktree, env []string, o RemoveOptions) (Lost, error) {
	var l Lost
	g, err := newGit(env)
	if err != nil {
		return l, err
	}
	here, lock, err := verifyLocked(ctx, g, wt)
	if err != nil {
		return l, err
	}
	if lock != "" {
		return l, fmt.Errorf("%w: %s (%s): unlock it first (git worktree unlock %s) if it is to go",
			ErrLocked, wt.Path, lock, wt.Path)
	}
	if o.DeleteBranch {
		// git branch -D refuses a branch checked out in another worktree (the worktree
		// was switched off it, and another took it): refused here, before anything.
		at, err := checkedOutAt(ctx, g, wt.Repo, wt.Branch)
		if err != nil {
			return l, err
		}
		if at != "" && realish(at) != realish(wt.Path) {
			return l, fmt.Errorf("%w: branch %s is checked out in %s, so it cannot be deleted: finish without --delete-branch, or switch that checkout off it",
				ErrBranchCheckedOut, wt.Branch, at)
		}
	}
	var tips []string
	if here {
		out, err := g.run(ctx, wt.Path, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=matching")
		if err != nil {
			return l, err
		}
		l.Changed, l.Untracked, l.Ignored = parseStatus(out)
		if l.Submodules, err = submodules(ctx, g, wt.Path); err != nil {
			return l, err
		}
		tips = append(tips, "HEAD")
	}
	// The branch is counted too when it goes, or when the worktree is gone: the
	// worktree may be off it (switched to another branch, or detached), and then its
	// commits are not reachable from HEAD.
	if (o.DeleteBranch || !here) && exists(ctx, g, wt.Repo, "refs/heads/"+wt.Branch) {
		tips = append(tips, "refs/heads/"+wt.Branch)
	}
	if len(tips) == 0 {
		return l, nil
	}
	commits, err := unkept(ctx, g, wt, here, tips, o.DeleteBranch)
	l.Commits = commits
	return l, err
}

// verify refuses a worktree that git no longer lists for the repository (removed
// by hand, or by finishing another run that shared it): its directory, if one is
// there again, may lie in another repository, which git run in it would act on. It
// says whether the worktree's directory is there (a worktree the user deleted by hand
// is listed but gone).
func verify(ctx context.Context, g *git, wt Worktree) (bool, error) {
	here, _, err := verifyLocked(ctx, g, wt)
	return here, err
}

// verifyLocked is verify, and the worktree's lock (git worktree lock): "" when it is
// not locked, else its reason (or "locked" when none was given).
func verifyLocked(ctx context.Context, g *git, wt Worktree) (bool, string, error) {
	here, lock := false, ""
	fields, err := listWorktrees(ctx, g, wt.Repo)
	if err != nil {
		return false, "", err
	}
	want := realish(wt.Path)
	listed, in := false, false
	for _, f := range fields {
		if p, ok := strings.CutPrefix(f, "worktree "); ok {
			in = realish(p) == want
			listed = listed || in
		} else if in && (f == "locked" || strings.HasPrefix(f, "locked ")) {
			lock = strings.TrimSpace(strings.TrimPrefix(f, "locked"))
			if lock == "" {
				lock = "locked"
			}
		}
	}
	here, err = verifyListed(ctx, g, wt, listed)
	return here, lock, err
}

// verifyListed is the rest of verify, once the list said whether git has it.
func verifyListed(ctx context.Context, g *git, wt Worktree, listed bool) (bool, error) {
	want := realish(wt.Path)
	gone := fmt.Errorf("%w: %s is not a worktree of %s any more (removed by hand, or by finishing a run that shared it): nothing of it is left to finish or diff",
		ErrNotWorktree, wt.Path, wt.Repo)
	if !listed {
		if !present(wt.Path) { // removed outside Corral (git worktree remove): nothing to do
			return false, nil
		}
		return false, gone
	}
	if !present(wt.Path) {
		return false, nil
	}
	top, err := g.line(ctx, wt.Path, "rev-parse", "--path-format=absolute", "--show-toplevel")
	if err != nil || realish(top) != want {
		return false, gone
	}
	return true, nil
}

// submodules lists the worktree's initialized submodules: entries of its index that
// are submodules and have their .git in place, or, failing those, "(modules)" when
// the worktree's git dir holds submodule clones (git's own tests before it removes).
func submodules(ctx context.Context, g *git, path string) ([]string, error) {
	out, err := g.run(ctx, path, "ls-files", "-z", "--stage")
	if err != nil {
		return nil, err
	}
	var subs []string
	for _, e := range strings.Split(string(out), "\x00") {
		meta, p, ok := strings.Cut(e, "\t")
		if ok && strings.HasPrefix(meta, "160000 ") && present(filepath.Join(path, filepath.FromSlash(p), ".git")) {
			subs = append(subs, p)
		}
	}
	if len(subs) > 0 {
		return subs, nil
	}
	modules, err := g.line(ctx, path, "rev-parse", "--path-format=absolute", "--git-path", "modules")
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(modules); err == nil && st.IsDir() {
		subs = append(subs, "(modules)")
	}
	return subs, nil
}

// parseStatus splits `git status --porcelain=v1 -z` into changed, untracked and
// ignored paths (the last only with --ignored).
func parseStatus(out []byte) (changed, untracked, ignored []string) {
	fs := strings.Split(string(out), "\x00")
	for i := 0; i < len(fs); i++ {
		e := fs[i]
		if len(e) < 4 {
			continue
		}
		if e[:2] == "??" {
			untracked = append(untracked, e[3:])
			continue
		}
		if e[:2] == "!!" {
			ignored = append(ignored, e[3:])
			continue
		}
		changed = append(changed, e[3:])
		if e[0] == 'R' || e[0] == 'C' {
			i++ // a rename's or copy's source path follows as a field of its own
		}
	}
	return changed, untracked, ignored
}

// unkept lists the commits reachable from tips (HEAD is the worktree's, when here)
// that no branch, tag or remote-tracking branch holds, leaving the worktree's own
// branch out of the keepers when it is to be deleted.
func unkept(ctx context.Context, g *git, wt Worktree, here bool, tips []string, dropBranch bool) ([]string, error) {
	dir := wt.Repo
	if here {
		dir = wt.Path
	}
	args := append([]string{"log", "--format=%h %s"}, tips...)
	args = append(args, "--not")
	if dropBranch {
		args = append(args, "--exclude="+wt.Branch)
	}
	args = append(args, "--branches", "--tags", "--remotes", "--")
	out, err := g.run(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	var commits []string
	for _, c := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if c != "" {
			commits = append(commits, c)
		}
	}
	return commits, nil
}

// verifyHere is verify for what needs the worktree's files: one deleted by hand is
// refused by name too.
func verifyHere(ctx context.Context, g *git, wt Worktree) error {
	here, err := verify(ctx, g, wt)
	if err == nil && !here {
		err = fmt.Errorf("%w: worktree %s was deleted by hand (its directory is gone; its branch %s keeps its commits): there is nothing in it to diff or commit; finish without --commit to take it off git's list of worktrees",
			ErrNotWorktree, wt.Path, wt.Branch)
	}
	return err
}

// present says whether path is there (a worktree the user deleted by hand is not).
func present(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
