package workspace

import (
	"context"
	"errors"
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
	out, err := g.run(ctx, wt.Path, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil || len(out) == 0 {
		return "", err
	}
	if _, err := g.run(ctx, wt.Path, "add", "-A"); err != nil {
		return "", err
	}
	if _, err := g.run(ctx, wt.Path, "commit", "-q", "-m", msg); err != nil {
		return "", err
	}
	return g.line(ctx, wt.Path, "rev-parse", "HEAD")
}

// Into is the branch a merge goes into: into, else the branch the base came from.
func Into(wt Worktree, into string) (string, error) {
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
	if uncommitted && present(wt.Path) {
		if tip, err = snapshot(ctx, g, wt); err != nil {
			return into, false, err
		}
	}
	_, err = g.run(ctx, wt.Repo, "merge-base", "--is-ancestor", tip, into)
	if err == nil || exitCode(err) != 1 {
		return into, err == nil, err
	}
	out, err := g.run(ctx, wt.Repo, "merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", into, tip)
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

// checkCheckout refuses a main checkout that is not on into or has uncommitted
// changes to tracked files (untracked ones the merge would overwrite, git merge
// refuses itself before touching anything).
func checkCheckout(ctx context.Context, g *git, repo, into string) error {
	if _, err := g.run(ctx, repo, "rev-parse", "--verify", "-q", "refs/heads/"+into); err != nil {
		return &NoBranchError{Repo: repo, Branch: into}
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
	if changed, _ := parseStatus(out); len(changed) > 0 {
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
	if _, err := g.run(ctx, wt.Repo, "merge", "--no-edit", "-q", wt.Branch); err != nil {
		return into, "", err
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
	out, err := g.run(ctx, wt.Repo, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return false, err
	}
	for _, f := range strings.Split(string(out), "\x00") {
		if p, ok := strings.CutPrefix(f, "worktree "); ok && same(p, wt.Path) {
			return false, nil
		}
	}
	return true, nil
}
