package workspace

import (
	"fmt"
	"strings"
)

// LostError refuses to remove a worktree that holds work nothing else keeps.
type LostError struct {
	Path string
	Lost Lost
}

func (e *LostError) Error() string {
	// The way out depends on what would be lost: uncommitted work is kept by
	// committing it (a merge alone takes only commits); commits only the branch
	// holds, by keeping the branch or merging it.
	what := "commit it (--commit MSG), or pass --force to discard it"
	if len(e.Lost.Changed)+len(e.Lost.Untracked) == 0 {
		what = "keep the branch (no --delete-branch) or merge it (--merge), or pass --force to discard them"
	}
	msg := fmt.Sprintf("worktree %s holds work that removing it would lose: %s; %s", e.Path, e.Lost, what)
	if len(e.Lost.Ignored) > 0 {
		msg += fmt.Sprintf(" (its ignored files go with it whichever you choose: %s)", list(e.Lost.Ignored))
	}
	return msg
}

// GoneError: the worktree's directory was removed outside Corral (deleted by hand,
// or git worktree remove); what was committed is on its branch still. It is an
// ErrNotWorktree.
type GoneError struct{ Worktree Worktree }

func (e *GoneError) Error() string {
	wt := e.Worktree
	return fmt.Sprintf("worktree %s is gone (deleted by hand, or removed outside Corral): what was committed is on branch %s; see it with git -C %s diff %s %s; finish without --commit to take it off git's list of worktrees",
		wt.Path, wt.Branch, wt.Repo, short(wt.Base), wt.Branch)
}

func (e *GoneError) Unwrap() error { return ErrNotWorktree }

// DirtyError refuses a merge into a main checkout with uncommitted changes.
type DirtyError struct {
	Repo  string
	Files []string
}

func (e *DirtyError) Error() string {
	return fmt.Sprintf("main checkout %s has uncommitted changes (%s): commit or stash them there, then finish again",
		e.Repo, list(e.Files))
}

// WrongBranchError refuses a merge into a branch the main checkout is not on: Corral
// merges only where the user can see it, never switches their branch.
type WrongBranchError struct {
	Repo, On, Into string
}

func (e *WrongBranchError) Error() string {
	on := "a detached HEAD"
	if e.On != "" {
		on = "branch " + e.On
	}
	return fmt.Sprintf("main checkout %s is on %s, not %s: run `git -C %s switch %s` first, or pass --into with the branch it is on",
		e.Repo, on, e.Into, e.Repo, e.Into)
}

// UntrackedError refuses a merge that would write over untracked files of the main
// checkout.
type UntrackedError struct {
	Repo, Branch, Into string
	Files              []string
}

func (e *UntrackedError) Error() string {
	return fmt.Sprintf("merging %s into %s would overwrite untracked files in the main checkout %s (%s): nothing was changed; move or remove them there (or commit them), then finish again",
		e.Branch, e.Into, e.Repo, list(e.Files))
}

// BusyError refuses a merge into a main checkout, or a commit or merge of a
// worktree, in the middle of an operation (a merge, rebase, cherry-pick or revert):
// finishing that is its user's.
type BusyError struct {
	Where, Dir, What, Finish string
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("%s %s has %s in progress: finish it (git %s --continue) or abort it (git %s --abort) there, then finish again",
		e.Where, e.Dir, e.What, e.Finish, e.Finish)
}

// ConflictError refuses a merge that would conflict; nothing was touched.
type ConflictError struct {
	Branch, Into string
	Files        []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("merging %s into %s would conflict in %s: nothing was changed; finish with --no-merge to keep the branch (with --commit MSG if its work is not committed yet), then merge it by hand (git merge %s) and resolve the conflict",
		e.Branch, e.Into, list(e.Files), e.Branch)
}

// MergeError: git merge itself failed after CheckMerge passed (a hook refused it,
// or the checkout changed meanwhile); a merge it left in progress was aborted.
type MergeError struct {
	Repo, Branch, Into string
	Err                error // git merge's failure
	AbortErr           error // git merge --abort's, when that failed too
}

func (e *MergeError) Error() string {
	if e.AbortErr != nil {
		return fmt.Sprintf("merging %s into %s in %s failed (%v), and undoing it failed too (%v): the merge is still in progress there; look at it with git status, and git merge --abort it",
			e.Branch, e.Into, e.Repo, e.Err, e.AbortErr)
	}
	return fmt.Sprintf("merging %s into %s in %s failed (%v): nothing was changed; fix the cause (a hook of the repository?) and finish again, or merge it by hand (git merge %s)",
		e.Branch, e.Into, e.Repo, e.Err, e.Branch)
}

func (e *MergeError) Unwrap() error { return e.Err }

// NoIntoError: the worktree's base was not a branch, so there is no default branch to
// merge into.
type NoIntoError struct{ Base string }

func (e *NoIntoError) Error() string {
	return fmt.Sprintf("the worktree's base %.12s was not a branch: pass --into BRANCH to say where to merge", e.Base)
}

// NoBranchError: a branch named for the merge does not exist.
type NoBranchError struct{ Repo, Branch string }

func (e *NoBranchError) Error() string {
	return fmt.Sprintf("no branch %s in %s: pass --into with an existing branch", e.Branch, e.Repo)
}

// list names up to a few items, and how many more.
func list(items []string) string {
	const most = 5
	if len(items) <= most {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:most], ", "), len(items)-most)
}
