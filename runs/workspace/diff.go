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
	text, _, err := diffAndStat(ctx, wt, env, o, false)
	return text, err
}

// DiffWithStat is Diff and StatOf of one temporary index: the worktree staged once.
func DiffWithStat(ctx context.Context, wt Worktree, env []string, o DiffOptions) ([]byte, Stat, error) {
	return diffAndStat(ctx, wt, env, o, true)
}

func diffAndStat(ctx context.Context, wt Worktree, env []string, o DiffOptions, withStat bool) ([]byte, Stat, error) {
	g, err := newGit(env)
	if err != nil {
		return nil, Stat{}, err
	}
	if !present(wt.Path) {
		return nil, Stat{}, &GoneError{Worktree: wt}
	}
	if err := verifyHere(ctx, g, wt); err != nil {
		return nil, Stat{}, err
	}
	args := []string{"diff", "--cached", "--no-ext-diff", "--color=never"}
	if o.Color {
		args[3] = "--color=always"
	}
	if o.Stat {
		args = append(args, "--stat")
	}
	var text []byte
	var st Stat
	err = withFullIndex(ctx, g, wt.Path, func(extra []string) error {
		if text, err = g.runEnv(ctx, wt.Path, extra, append(args, wt.Base, "--")...); err != nil || !withStat {
			return err
		}
		out, err := g.runEnv(ctx, wt.Path, extra, "diff", "--cached", "--numstat", "-z", "--no-ext-diff", wt.Base, "--")
		st = parseNumstat(out)
		return err
	})
	return text, st, err
}
