package workspace

import (
	"bytes"
	"context"
	"strconv"
)

// StatOf counts how much wt changed against its base — commits on its branch, staged,
// unstaged and untracked files — as `git diff --numstat` would: lines added and
// removed, and files touched (a binary file counts as a file, without lines). The
// user's index is not touched.
func StatOf(ctx context.Context, wt Worktree, env []string) (Stat, error) {
	g, err := newGit(env)
	if err != nil {
		return Stat{}, err
	}
	if err := verifyHere(ctx, g, wt); err != nil {
		return Stat{}, err
	}
	var st Stat
	err = withFullIndex(ctx, g, wt.Path, func(extra []string) error {
		out, err := g.runEnv(ctx, wt.Path, extra, "diff", "--cached", "--numstat", "-z", "--no-ext-diff", wt.Base, "--")
		if err != nil {
			return err
		}
		st = parseNumstat(out)
		return nil
	})
	return st, err
}

// parseNumstat reads `git diff --numstat -z`: "added\tremoved\tpath\0", or for a
// rename "added\tremoved\t\0from\0to\0"; a binary file has "-" for both counts.
func parseNumstat(out []byte) Stat {
	var st Stat
	for len(out) > 0 {
		i := bytes.IndexByte(out, 0)
		if i < 0 {
			i = len(out)
		}
		rec := out[:i]
		out = out[min(i+1, len(out)):]
		f := bytes.SplitN(rec, []byte{'\t'}, 3)
		if len(f) < 3 {
			continue
		}
		if len(f[2]) == 0 { // a rename: two path fields follow
			for range 2 {
				if j := bytes.IndexByte(out, 0); j >= 0 {
					out = out[j+1:]
				} else {
					out = nil
				}
			}
		}
		st.Files++
		a, _ := strconv.Atoi(string(f[0]))
		r, _ := strconv.Atoi(string(f[1]))
		st.Added += a
		st.Removed += r
	}
	return st
}
