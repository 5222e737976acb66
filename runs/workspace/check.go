package workspace

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// Lost is what removing a worktree would lose.
type Lost struct {
	Changed   []string `json:"changed,omitempty"`   // tracked files with uncommitted changes
	Untracked []string `json:"untracked,omitempty"` // untracked files, not the ignored ones
	// Commits ("abc1234 subject") are on no branch, tag or remote-tracking branch that
	// outlives the removal.
	Commits []string `json:"commits,omitempty"`
}

// Empty says nothing would be lost.
func (l Lost) Empty() bool {
	return len(l.Changed) == 0 && len(l.Untracked) == 0 && len(l.Commits) == 0
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
	head := "refs/heads/" + wt.Branch
	if present(wt.Path) {
		out, err := g.run(ctx, wt.Path, "status", "--porcelain=v1", "-z", "--untracked-files=all")
		if err != nil {
			return l, err
		}
		l.Changed, l.Untracked = parseStatus(out)
		head = "HEAD"
	}
	commits, err := unkept(ctx, g, wt, head, o.DeleteBranch)
	l.Commits = commits
	return l, err
}

// parseStatus splits `git status --porcelain=v1 -z` into changed and untracked paths.
func parseStatus(out []byte) (changed, untracked []string) {
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
		changed = append(changed, e[3:])
		if e[0] == 'R' || e[0] == 'C' {
			i++ // a rename's or copy's source path follows as a field of its own
		}
	}
	return changed, untracked
}

// unkept lists the commits reachable from head (in the worktree, or the branch when
// the worktree is gone) that no branch, tag or remote-tracking branch holds,
// leaving the worktree's own branch out of the keepers when it is to be deleted.
func unkept(ctx context.Context, g *git, wt Worktree, head string, dropBranch bool) ([]string, error) {
	dir := wt.Path
	if head != "HEAD" {
		dir = wt.Repo
	}
	args := []string{"log", "--format=%h %s", head, "--not"}
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

// present says whether path is there (a worktree the user deleted by hand is not).
func present(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
