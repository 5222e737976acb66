package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The errors Create returns wrap one of these, so a caller can tell them apart with
// errors.Is; each message names the thing and what to do.
var (
	ErrGitMissing       = errors.New("git not found")
	ErrNotRepo          = errors.New("not a git repository")
	ErrUnknownBase      = errors.New("unknown base")
	ErrPathExists       = errors.New("worktree path exists")
	ErrBranchCheckedOut = errors.New("branch checked out elsewhere")
	ErrBadBranch        = errors.New("bad branch name")
	ErrBadRoot          = errors.New("bad worktree root")
	// ErrNotWorktree: the path is no longer a worktree of the repository (removed by
	// hand, or by finishing another run that shared it); git is not run in it.
	ErrNotWorktree = errors.New("not a worktree of the repository any more")
	// ErrLocked: the user locked the worktree (git worktree lock); it is not removed.
	ErrLocked = errors.New("worktree locked")
)

// GitError is git exiting non-zero: the command and what it said.
type GitError struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *GitError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

func (e *GitError) Unwrap() error { return e.Err }

// Runner runs a git command to its end (Start, then Wait). A program that reaps
// children it does not know (a subreaper) passes one that tells its reaper first.
type Runner func(cmd *exec.Cmd) error

type runnerKey struct{}

// WithRunner makes every git this package runs under ctx run through r.
func WithRunner(ctx context.Context, r Runner) context.Context {
	return context.WithValue(ctx, runnerKey{}, r)
}

// gitEnv is env without the variables that would point git at another repository
// than the one named by -C (a Corral started from a git hook inherits them), and
// with git's optional locks off: a check (git status) never rewrites an index to
// refresh it, so it never holds the index.lock an agent's own git add, or the user's
// in the main checkout, would then fail on. Commands that must write take their locks
// all the same.
func gitEnv(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX",
			"GIT_OBJECT_DIRECTORY", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GIT_OPTIONAL_LOCKS=0")
}

// lookGit finds git in env's PATH (the user's, not the server's), else ErrGitMissing.
func lookGit(env []string) (string, error) {
	path := ""
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == "PATH" {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, "git")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w in PATH (%s): install git or put it in the PATH the run is spawned with", ErrGitMissing, path)
}

// git runs the git program found in env's PATH, in env.
type git struct {
	bin string
	env []string
}

func newGit(env []string) (*git, error) {
	bin, err := lookGit(env)
	if err != nil {
		return nil, err
	}
	return &git{bin: bin, env: gitEnv(env)}, nil
}

// run runs git -C dir args… and returns its standard output.
func (g *git) run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return g.runEnv(ctx, dir, nil, args...)
}

// runEnv is run with extra variables in the environment.
func (g *git) runEnv(ctx context.Context, dir string, extra []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, g.bin, append([]string{"-C", dir}, args...)...)
	cmd.Env = append(append([]string(nil), g.env...), extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	run := (*exec.Cmd).Run
	if r, ok := ctx.Value(runnerKey{}).(Runner); ok && r != nil {
		run = r
	}
	if err := run(cmd); err != nil {
		return out.Bytes(), &GitError{Args: args, Stderr: errb.String(), Err: err}
	}
	return out.Bytes(), nil
}

// listWorktrees is `git worktree list --porcelain -z` in repo, split into its fields
// ("worktree PATH", "branch REF", "locked REASON", "" between worktrees). git reads
// every worktree's administrative files for it, and one that another git is adding at
// that moment can be half written ("failed to read .git/worktrees/NAME/commondir"):
// two runs started at once, or the user's own `git worktree add`. A failed list is
// asked again a few times, a little later each, before its error counts.
func listWorktrees(ctx context.Context, g *git, repo string) ([]string, error) {
	pause := listRetryPause
	for try := 1; ; try++ {
		out, err := g.run(ctx, repo, "worktree", "list", "--porcelain", "-z")
		if err == nil {
			return strings.Split(string(out), "\x00"), nil
		}
		if try == listTries || ctx.Err() != nil {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(pause):
		}
		pause *= 2
	}
}

// listTries and listRetryPause bound listWorktrees' retries: 4 tries over about 0.35 s,
// longer than git takes to write a new worktree's few files.
const (
	listTries      = 4
	listRetryPause = 50 * time.Millisecond
)

// line is run's output as one trimmed line.
func (g *git) line(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := g.run(ctx, dir, args...)
	return strings.TrimSpace(string(out)), err
}

// exitCode is err's exit status when git ran and failed, else -1.
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}
