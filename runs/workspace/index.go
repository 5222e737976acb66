package workspace

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// tempIndex stages everything in the worktree at path (tracked changes, deletions and
// untracked files not ignored) into a private copy of its index, never the user's:
// the returned env names the copy in GIT_INDEX_FILE, so `git diff --cached BASE`
// under it is everything the worktree changed against BASE. done removes the copy.
// The copy starts from the worktree's own index so git reuses its file stat cache
// and hashes only what changed.
func tempIndex(ctx context.Context, path string, env []string) (indexEnv []string, done func(), err error) {
	out, err := runGit(ctx, path, env, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		return nil, nil, err
	}
	own := strings.TrimSpace(string(out))
	if !filepath.IsAbs(own) {
		own = filepath.Join(path, own)
	}
	tmp, err := os.CreateTemp("", "corral-index-*")
	if err != nil {
		return nil, nil, fmt.Errorf("temporary index: %w", err)
	}
	done = func() { os.Remove(tmp.Name()) }
	if err := copyIndex(tmp, own); err != nil {
		done()
		return nil, nil, err
	}
	indexEnv = append(env[:len(env):len(env)], "GIT_INDEX_FILE="+tmp.Name())
	if _, err := runGit(ctx, path, indexEnv, "add", "-A"); err != nil {
		done()
		return nil, nil, err
	}
	return indexEnv, done, nil
}

// copyIndex copies the index at from into to and closes it; a repository with no
// index yet (nothing ever staged) leaves it empty, which git reads as an empty index
// once it has written it.
func copyIndex(to *os.File, from string) error {
	defer to.Close()
	src, err := os.Open(from)
	if os.IsNotExist(err) {
		return os.Remove(to.Name())
	}
	if err != nil {
		return fmt.Errorf("temporary index: %w", err)
	}
	defer src.Close()
	if _, err := io.Copy(to, src); err != nil {
		return fmt.Errorf("temporary index: %w", err)
	}
	return nil
}
