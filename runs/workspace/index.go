package workspace

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
)

// withFullIndex calls f with the variables that point git at a temporary index of
// everything in the worktree at path — its index, then every change in its files,
// untracked ones included (ignored ones not) — so `git diff --cached BASE` in that
// environment is everything the worktree changed against BASE: commits on its
// branch, staged, unstaged and untracked files. The user's own index is never written
// (their staging stays as they left it); the temporary one is removed afterwards.
func withFullIndex(ctx context.Context, g *git, path string, f func(extra []string) error) error {
	idx, err := g.line(ctx, path, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp("", "corral-index-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name)
	// A copy of its index, so git add reuses its stat data and hashes only what
	// changed; a worktree without one starts from an empty index.
	if src, err := os.Open(idx); err == nil {
		_, err = io.Copy(tmp, src)
		src.Close()
		if err != nil {
			tmp.Close()
			return err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	extra := []string{"GIT_INDEX_FILE=" + filepath.Clean(name), "GIT_OPTIONAL_LOCKS=0"}
	if _, err := g.runEnv(ctx, path, extra, "add", "-A", "--", "."); err != nil {
		return err
	}
	return f(extra)
}
