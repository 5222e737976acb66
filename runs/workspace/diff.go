package workspace

import "context"

// DiffOptions is how Diff prints: Stat for git's --stat summary instead of the
// patch, Color for git's colours (--color=always) whatever the output is.
type DiffOptions struct {
	Stat  bool `json:"stat,omitempty"`
	Color bool `json:"color,omitempty"`
}

// Diff is everything the worktree changed against its base commit, as `git diff`
// prints it: the commits on its branch, staged, unstaged and untracked files (not the
// ignored ones). The user's index is never touched: the changes are staged into a
// temporary copy of it (withFullIndex).
func Diff(ctx context.Context, wt Worktree, env []string, o DiffOptions) ([]byte, error) {
	g, err := newGit(env)
	if err != nil {
		return nil, err
	}
	args := []string{"diff", "--cached", "--no-ext-diff", "--color=never"}
	if o.Color {
		args[3] = "--color=always"
	}
	if o.Stat {
		args = append(args, "--stat")
	}
	var out []byte
	err = withFullIndex(ctx, g, wt.Path, func(extra []string) error {
		out, err = g.runEnv(ctx, wt.Path, extra, append(args, wt.Base, "--")...)
		return err
	})
	return out, err
}
