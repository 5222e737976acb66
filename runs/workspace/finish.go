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
	env = gitEnv(env)
	if strings.TrimSpace(msg) == "" {
		return "", errors.New("commit: empty message: say what the commit is")
	}
	out, err := runGit(ctx, wt.Path, env, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil || len(out) == 0 {
		return "", err
	}
	if _, err := runGit(ctx, wt.Path, env, "add", "-A"); err != nil {
		return "", err
	}
	if _, err := runGit(ctx, wt.Path, env, "commit", "-q", "-m", msg); err != nil {
		return "", err
	}
	return revParse(ctx, wt.Path, env, "HEAD")
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
// conflict (git merge-tree --write-tree, which writes no tree but objects). With
// uncommitted, the worktree's uncommitted changes count as if committed (as finish
// --commit will). It returns the branch and whether it is merged already.
func CheckMerge(ctx context.Context, wt Worktree, env []string, into string, uncommitted bool) (string, bool, error) {
	env = gitEnv(env)
	into, err := Into(wt, into)
	if err != nil {
		return "", false, err
	}
	if err := checkCheckout(ctx, wt.Repo, env, into); err != nil {
		return into, false, err
	}
	tip := "refs/heads/" + wt.Branch
	if uncommitted && exists(wt.Path) {
		if tip, err = snapshot(ctx, wt, env); err != nil {
			return into, false, err
		}
	}
	if r, err := gitCode(ctx, wt.Repo, env, "merge-base", "--is-ancestor", tip, into); err != nil || r.code == 0 {
		return into, err == nil, err
	}
	r, err := gitCode(ctx, wt.Repo, env, "merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", into, tip)
	if err != nil {
		return into, false, err
	}
	if r.code != 0 {
		return into, false, &ConflictError{Branch: wt.Branch, Into: into, Files: conflicted(r.out)}
	}
	return into, false, nil
}

// checkCheckout refuses a main checkout that is not on into or has uncommitted
// changes to tracked files (untracked ones the merge would overwrite, git merge
// refuses itself before touching anything).
func checkCheckout(ctx context.Context, repo string, env []string, into string) error {
	if _, err := revParse(ctx, repo, env, "refs/heads/"+into); err != nil {
		return &NoBranchError{Repo: repo, Branch: into}
	}
	out, err := runGit(ctx, repo, env, "branch", "--show-current")
	if err != nil {
		return err
	}
	if on := strings.TrimSpace(string(out)); on != into {
		return &WrongBranchError{Repo: repo, On: on, Into: into}
	}
	out, err = runGit(ctx, repo, env, "status", "--porcelain=v1", "-z", "--untracked-files=no")
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
func snapshot(ctx context.Context, wt Worktree, env []string) (string, error) {
	indexEnv, done, err := tempIndex(ctx, wt.Path, env)
	if err != nil {
		return "", err
	}
	defer done()
	tree, err := runGit(ctx, wt.Path, indexEnv, "write-tree")
	if err != nil {
		return "", err
	}
	out, err := runGit(ctx, wt.Path, env, "commit-tree", strings.TrimSpace(string(tree)), "-p", "HEAD", "-m", "corral: finish check")
	return strings.TrimSpace(string(out)), err
}

// conflicted reads the conflicting paths from `git merge-tree --write-tree
// --name-only -z`: the tree's id, then one path per field.
func conflicted(out []byte) []string {
	fs := fields(out)
	if len(fs) > 0 {
		fs = fs[1:]
	}
	return fs
}

// Merge merges the worktree's branch into into (see Into) in the main checkout,
// after CheckMerge: on any refusal nothing is touched. It returns the branch merged
// into and the main checkout's new HEAD ("" when the branch was merged already).
func Merge(ctx context.Context, wt Worktree, env []string, into string) (string, string, error) {
	env = gitEnv(env)
	into, merged, err := CheckMerge(ctx, wt, env, into, false)
	if err != nil || merged {
		return into, "", err
	}
	if _, err := runGit(ctx, wt.Repo, env, "merge", "--no-edit", "-q", wt.Branch); err != nil {
		return into, "", err
	}
	head, err := revParse(ctx, wt.Repo, env, "HEAD")
	return into, head, err
}

// Remove removes the worktree (git worktree remove of its path only: other
// worktrees, and the administrative files of worktrees Corral did not make, are never
// pruned) and, with o.DeleteBranch, its branch. It refuses with a *LostError when
// anything would be lost (see Check), unless o.Force.
func Remove(ctx context.Context, wt Worktree, env []string, o RemoveOptions) error {
	env = gitEnv(env)
	lost, err := Check(ctx, wt, env, o)
	if err != nil {
		return err
	}
	if !lost.Empty() && !o.Force {
		return &LostError{Path: wt.Path, Lost: lost}
	}
	args := []string{"worktree", "remove"}
	if o.Force {
		args = append(args, "--force")
	}
	if _, err := runGit(ctx, wt.Repo, env, append(args, wt.Path)...); err != nil {
		return err
	}
	if o.DeleteBranch {
		_, err = runGit(ctx, wt.Repo, env, "branch", "-D", "-q", wt.Branch)
	}
	return err
}

func revParse(ctx context.Context, dir string, env []string, rev string) (string, error) {
	out, err := runGit(ctx, dir, env, "rev-parse", "--verify", "-q", rev+"^{commit}")
	return strings.TrimSpace(string(out)), err
}
