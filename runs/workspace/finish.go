package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Commit stages everything in the worktree (git add -A) and commits it with msg on
// the worktree's branch. It returns the new commit, or "" when there was nothing to
// commit.
func Commit(ctx context.Context, wt Worktree, env []string, msg string) (string, error) {
	if strings.TrimSpace(msg) == "" {
		return "", errors.New("commit: empty message: say what the commit is")
	}
	g, err := newGit(env)
	if err != nil {
		return "", err
	}
	if err := verifyHere(ctx, g, wt); err != nil {
		return "", err
	}
	out, err := g.run(ctx, wt.Path, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil || len(out) == 0 {
		return "", err
	}
	restore, err := keepIndex(ctx, g, wt.Path)
	if err != nil {
		return "", err
	}
	if _, err := g.run(ctx, wt.Path, "add", "-A"); err != nil {
		return "", restore(err)
	}
	if _, err := g.run(ctx, wt.Path, "commit", "-q", "-m", msg); err != nil {
		return "", restore(err)
	}
	return g.line(ctx, wt.Path, "rev-parse", "HEAD")
}

// keepIndex copies the worktree's index aside, and returns what puts it back after
// a refused commit (a pre-commit or commit-msg hook): the staging the agent left, not
// everything git add -A staged. It returns the refusal, with the restore's own
// failure if it had one.
func keepIndex(ctx context.Context, g *git, path string) (func(error) error, error) {
	idx, err := g.line(ctx, path, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		return nil, err
	}
	saved, err := os.ReadFile(idx)
	had := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return func(cause error) error {
		var rerr error
		if had {
			tmp := idx + ".corral"
			if rerr = os.WriteFile(tmp, saved, 0o644); rerr == nil {
				rerr = os.Rename(tmp, idx)
			}
		} else if rerr = os.Remove(idx); errors.Is(rerr, os.ErrNotExist) {
			rerr = nil
		}
		if rerr != nil {
			return fmt.Errorf("%w (and putting the staging back failed: %v; every change is staged now, none lost)", cause, rerr)
		}
		return cause
	}, nil
}

// CheckCommit says whether Commit could commit in the worktree: git must know who
// commits (user.name and user.email, or their variables), which a finish checks
// before it ends the run, so that a commit refused for want of one does not end the
// agent.
func CheckCommit(ctx context.Context, wt Worktree, env []string) error {
	g, err := newGit(env)
	if err != nil {
		return err
	}
	if err := verifyHere(ctx, g, wt); err != nil {
		return err
	}
	for _, v := range []string{"GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"} {
		if _, err := g.run(ctx, wt.Path, "var", v); err != nil {
			return fmt.Errorf("git knows no one to commit as in %s (%w): set user.name and user.email (git config --global user.email you@example.com), or finish without --commit",
				wt.Path, err)
		}
	}
	return nil
}

// CheckOnBranch refuses a worktree that is not on its branch (the user switched it
// to another, or detached its HEAD), or is in the middle of a merge, rebase,
// cherry-pick or revert: what finish
// commits and merges is the branch, and a commit made elsewhere would not be in
// the merge. A worktree deleted by hand has no HEAD to be off its branch.
func CheckOnBranch(ctx context.Context, wt Worktree, env []string) error {
	g, err := newGit(env)
	if err != nil {
		return err
	}
	here, err := verify(ctx, g, wt)
	if err != nil || !here {
		return err
	}
	// A merge (or cherry-pick, revert) under way in the worktree: --commit would
	// commit its conflict markers.
	if err := inProgress(ctx, g, "worktree", wt.Path); err != nil {
		return err
	}
	on, _ := g.line(ctx, wt.Path, "symbolic-ref", "-q", "HEAD")
	if on == "refs/heads/"+wt.Branch {
		return nil
	}
	what := "a detached HEAD (a rebase under way?)"
	if b, ok := strings.CutPrefix(on, "refs/heads/"); ok {
		what = "branch " + b
	}
	return fmt.Errorf("worktree %s is on %s, not its branch %s: what finish commits and merges is %s; switch it back (git -C %s switch %s), or finish without --commit and --merge",
		wt.Path, what, wt.Branch, wt.Branch, wt.Path, wt.Branch)
}

// Into is the branch a merge goes into: into, else the branch the base came from.
func Into(wt Worktree, into string) (string, error) {
	into = strings.TrimPrefix(into, "refs/heads/")
	if into == "" {
		into = wt.BaseRef
	}
	if into == "" {
		return "", &NoIntoError{Base: wt.Base}
	}
	return into, nil
}

// CheckMerge says whether the worktree's branch merges into into (see Into) in the
// main checkout without touching anything: the checkout must have into checked out
// and no uncommitted changes to tracked files, and the merge must apply without a
// conflict (git merge-tree --write-tree, which writes objects but no ref, index or
// file). With uncommitted, the worktree's uncommitted changes count as if committed
// (as finish --commit will). It returns the branch and whether it is merged already.
func CheckMerge(ctx context.Context, wt Worktree, env []string, into string, uncommitted bool) (string, bool, error) {
	into, err := Into(wt, into)
	if err != nil {
		return "", false, err
	}
	g, err := newGit(env)
	if err != nil {
		return into, false, err
	}
	if err := checkCheckout(ctx, g, wt.Repo, into); err != nil {
		return into, false, err
	}
	tip := "refs/heads/" + wt.Branch
	if uncommitted {
		here, err := verify(ctx, g, wt)
		if err != nil {
			return into, false, err
		}
		if here {
			if tip, err = snapshot(ctx, g, wt); err != nil {
				return into, false, err
			}
		}
	}
	_, err = g.run(ctx, wt.Repo, "merge-base", "--is-ancestor", tip, "refs/heads/"+into)
	if err == nil || exitCode(err) != 1 {
		return into, err == nil, err
	}
	out, err := g.run(ctx, wt.Repo, "merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", "refs/heads/"+into, tip)
	if exitCode(err) == 1 {
		return into, false, &ConflictError{Branch: wt.Branch, Into: into, Files: conflicted(out)}
	}
	if err != nil {
		return into, false, err
	}
	tree, _, _ := strings.Cut(string(out), "\x00")
	return into, false, checkUntracked(ctx, g, wt, into, strings.TrimSpace(tree))
}

// checkUntracked refuses a merge that would write a file over an untracked file of
// the main checkout (git merge would refuse it too, but only once the run is ended):
// the files the merged tree adds to into that are untracked there.
func checkUntracked(ctx context.Context, g *git, wt Worktree, into, tree string) error {
	out, err := g.run(ctx, wt.Repo, "diff", "--name-only", "-z", "--no-renames", "--diff-filter=A", into, tree)
	if err != nil {
		return err
	}
	var added, in []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			added = append(added, p)
		}
	}
	const chunk = 500 // paths per git: a command line has a limit
	for len(added) > 0 {
		n := min(len(added), chunk)
		args := append([]string{"ls-files", "-z", "--others", "--exclude-standard", "--"}, added[:n]...)
		out, err := g.runEnv(ctx, wt.Repo, []string{"GIT_LITERAL_PATHSPECS=1"}, args...)
		if err != nil {
			return err
		}
		for _, p := range strings.Split(string(out), "\x00") {
			if p != "" {
				in = append(in, p)
			}
		}
		added = added[n:]
	}
	if len(in) > 0 {
		return &UntrackedError{Repo: wt.Repo, Branch: wt.Branch, Into: into, Files: in}
	}
	return nil
}

// inProgress refuses a checkout (where names it: "main checkout", "worktree") in the
// middle of a merge, rebase, cherry-pick or revert: finishing that is its user's.
func inProgress(ctx context.Context, g *git, where, dir string) error {
	for _, op := range []struct{ path, what, abort string }{
		{"MERGE_HEAD", "a merge", "merge"}, {"CHERRY_PICK_HEAD", "a cherry-pick", "cherry-pick"},
		{"REVERT_HEAD", "a revert", "revert"}, {"rebase-merge", "a rebase", "rebase"}, {"rebase-apply", "a rebase or am", "rebase"},
	} {
		p, err := g.line(ctx, dir, "rev-parse", "--path-format=absolute", "--git-path", op.path)
		if err != nil {
			return err
		}
		if present(p) {
			return &BusyError{Where: where, Dir: dir, What: op.what, Finish: op.abort}
		}
	}
	return nil
}

// checkCheckout refuses a main checkout that is not on into or has uncommitted
// changes to tracked files (untracked ones the merge would overwrite, git merge
// refuses itself before touching anything).
func checkCheckout(ctx context.Context, g *git, repo, into string) error {
	if _, err := g.run(ctx, repo, "rev-parse", "--verify", "-q", "refs/heads/"+into); err != nil {
		return &NoBranchError{Repo: repo, Branch: into}
	}
	if err := inProgress(ctx, g, "main checkout", repo); err != nil {
		return err
	}
	on, err := g.line(ctx, repo, "branch", "--show-current")
	if err != nil {
		return err
	}
	if on != into {
		return &WrongBranchError{Repo: repo, On: on, Into: into}
	}
	out, err := g.run(ctx, repo, "status", "--porcelain=v1", "-z", "--untracked-files=no")
	if err != nil {
		return err
	}
	if changed, _, _ := parseStatus(out); len(changed) > 0 {
		return &DirtyError{Repo: repo, Files: changed}
	}
	return nil
}

// snapshot writes the worktree's whole state as a commit object on top of its HEAD,
// on no branch (git collects it in time), so a merge can be checked before it is
// committed for real.
func snapshot(ctx context.Context, g *git, wt Worktree) (string, error) {
	var tree string
	err := withFullIndex(ctx, g, wt.Path, func(extra []string) error {
		out, err := g.runEnv(ctx, wt.Path, extra, "write-tree")
		tree = strings.TrimSpace(string(out))
		return err
	})
	if err != nil {
		return "", err
	}
	return g.line(ctx, wt.Path, "commit-tree", tree, "-p", "HEAD", "-m", "corral: finish check")
}

// conflicted reads the conflicting paths from `git merge-tree --write-tree
// --name-only -z`: the tree's id, then one path per field.
func conflicted(out []byte) []string {
	var fs []string
	for i, f := range strings.Split(string(out), "\x00") {
		if i > 0 && f != "" {
			fs = append(fs, f)
		}
	}
	return fs
}

// Merge merges the worktree's branch into into (see Into) in the main checkout,
// after CheckMerge: on any refusal nothing is touched. It returns the branch merged
// into and the main checkout's new HEAD ("" when the branch was merged already).
func Merge(ctx context.Context, wt Worktree, env []string, into string) (string, string, error) {
	into, merged, err := CheckMerge(ctx, wt, env, into, false)
	if err != nil || merged {
		return into, "", err
	}
	g, err := newGit(env)
	if err != nil {
		return into, "", err
	}
	// The branch by its full name: a tag of the same name would be what a short name
	// means to git (tags come before branches), and its commit what was merged.
	if _, err := g.run(ctx, wt.Repo, "merge", "--no-edit", "-q", "-m", mergeMessage(wt.Branch, into), "refs/heads/"+wt.Branch); err != nil {
		return into, "", undoMerge(context.WithoutCancel(ctx), g, wt, into, err)
	}
	head, err := g.line(ctx, wt.Repo, "rev-parse", "HEAD")
	return into, head, err
}

// Remove removes the worktree (git worktree remove of its path only: other
// worktrees, and the administrative files of worktrees Corral did not make, are never
// pruned) and, with o.DeleteBranch, its branch. It refuses with a *LostError when
// anything would be lost (see Check), unless o.Force.
func Remove(ctx context.Context, wt Worktree, env []string, o RemoveOptions) error {
	lost, err := Check(ctx, wt, env, o)
	if err != nil {
		return err
	}
	if !lost.Empty() && !o.Force {
		return &LostError{Path: wt.Path, Lost: lost}
	}
	g, err := newGit(env)
	if err != nil {
		return err
	}
	args := []string{"worktree", "remove"}
	if o.Force {
		args = append(args, "--force")
	}
	// A worktree removed outside Corral (git worktree remove) is neither there nor
	// known to git: there is nothing to remove, and its branch is still finished.
	if gone, err := unregistered(ctx, g, wt); err != nil {
		return err
	} else if !gone {
		if _, err := g.run(ctx, wt.Repo, append(args, wt.Path)...); err != nil {
			return err
		}
	}
	if o.DeleteBranch {
		_, err = g.run(ctx, wt.Repo, "branch", "-D", "-q", wt.Branch)
	}
	return err
}

// unregistered says the worktree's directory is gone and git no longer lists it
// among the repository's worktrees.
func unregistered(ctx context.Context, g *git, wt Worktree) (bool, error) {
	if present(wt.Path) {
		return false, nil
	}
	fields, err := listWorktrees(ctx, g, wt.Repo)
	if err != nil {
		return false, err
	}
	for _, f := range fields {
		if p, ok := strings.CutPrefix(f, "worktree "); ok && same(p, wt.Path) {
			return false, nil
		}
	}
	return true, nil
}

// undoMerge takes back a merge git started but did not commit (a pre-merge-commit or
// commit-msg hook refused it, or the checkout changed since CheckMerge and it
// conflicted): git merge --abort puts the main checkout back as it was, which
// CheckMerge found clean. It returns the refusal, saying whether nothing changed.
func undoMerge(ctx context.Context, g *git, wt Worktree, into string, err error) error {
	me := &MergeError{Repo: wt.Repo, Branch: wt.Branch, Into: into, Err: err}
	mh, ierr := g.line(ctx, wt.Repo, "rev-parse", "-q", "--verify", "MERGE_HEAD")
	if ierr != nil {
		return me // git stopped before it began: nothing was changed
	}
	if tip, _ := g.line(ctx, wt.Repo, "rev-parse", "-q", "--verify", "refs/heads/"+wt.Branch); mh != tip {
		return me // a merge not ours (the user's, begun meanwhile): never aborted
	}
	if _, aerr := g.run(ctx, wt.Repo, "merge", "--abort"); aerr != nil {
		me.AbortErr = aerr
	}
	return me
}

// mergeMessage is git's own message for merging branch into into ("Merge branch 'x'",
// with " into y" unless y is main or master), which git would not write for a
// branch named by its full ref.
func mergeMessage(branch, into string) string {
	msg := fmt.Sprintf("Merge branch '%s'", branch)
	if into != "main" && into != "master" {
		msg += " into " + into
	}
	return msg
}
