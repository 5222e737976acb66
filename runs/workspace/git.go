package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// gitResult is what one git process left: its output and its exit code.
type gitResult struct {
	out  []byte
	code int
}

// runGit runs git in dir with env (see gitEnv) and returns its
// standard output. A non-zero exit is an error that quotes git's own message.
func runGit(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	r, err := gitCode(ctx, dir, env, args...)
	if err == nil && r.code != 0 {
		err = fmt.Errorf("git %s in %s: exit status %d", args[0], dir, r.code)
	}
	return r.out, err
}

// gitCode is runGit for the commands whose exit code is an answer (merge-tree: 1 is
// "conflicts"): a non-zero exit is returned, not an error, when git said nothing on
// its standard error.
func gitCode(ctx context.Context, dir string, env []string, args ...string) (gitResult, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return gitResult{out: stdout.Bytes()}, nil
	case errors.Is(err, exec.ErrNotFound):
		return gitResult{}, ErrNoGit
	case errors.As(err, &exit) && stderr.Len() == 0:
		return gitResult{out: stdout.Bytes(), code: exit.ExitCode()}, nil
	case errors.As(err, &exit):
		return gitResult{}, fmt.Errorf("git %s in %s: %s", args[0], dir, strings.TrimSpace(stderr.String()))
	default:
		return gitResult{}, fmt.Errorf("git %s in %s: %w", args[0], dir, err)
	}
}

// gitEnv is env (the process's own when nil) without the variables that would point git at another repository,
// work tree or index than the directory it is run in (set when Corral itself was
// started from a git hook, say).
func gitEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// fields splits git's NUL-terminated (-z) output into its fields.
func fields(out []byte) []string {
	var fs []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			fs = append(fs, f)
		}
	}
	return fs
}

// exists says whether path is there (a worktree the user deleted by hand is not).
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
