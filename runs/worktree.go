package runs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"corral/config"
	"corral/runs/workspace"
)

// worktreeBudget bounds making a run's worktree (git worktree add checks out every
// file, a big repository's in seconds).
const worktreeBudget = 5 * time.Minute

// WithWorktrees sets what runs' worktrees take when neither their spec nor their
// repository's corral.toml says: the server config's [worktree] root and setup.
func WithWorktrees(w config.Worktree) Option { return func(s *Supervisor) { s.worktrees = w } }

// gitContext is ctx with git run as a helper of Corral's: the escape scan, which
// reaps zombie children no run owns, leaves it to its exec.Cmd.
func (s *Supervisor) gitContext(ctx context.Context) context.Context {
	return workspace.WithRunner(ctx, func(cmd *exec.Cmd) error {
		s.spawnMu.Lock()
		err := cmd.Start()
		if err == nil {
			s.escapes.helper(cmd.Process.Pid, true)
		}
		s.spawnMu.Unlock()
		if err != nil {
			return err
		}
		err = cmd.Wait()
		s.spawnMu.Lock()
		s.escapes.helper(cmd.Process.Pid, false)
		s.spawnMu.Unlock()
		return err
	})
}

// gitEnvOf is the environment git runs in for spec: the run's own (the client's
// PATH finds the client's git).
func gitEnvOf(spec Spec) []string {
	if spec.BaseEnv != nil {
		return spec.BaseEnv
	}
	return os.Environ()
}

// makeWorktree gives spec its worktree before the run exists: made (or, for Use,
// taken as it is), spec.Dir moved into it and its setup steps resolved. setup says
// they are to run: only in a worktree made now. A failure makes no run and leaves
// nothing made.
func (s *Supervisor) makeWorktree(spec Spec) (_ Spec, wt *workspace.Worktree, setup bool, err error) {
	ws := *spec.Worktree
	spec.Worktree = &ws
	if ws.Use != nil {
		u := *ws.Use
		if !s.madeWorktree(u) {
			return spec, nil, false, fmt.Errorf("%w: %s is not a worktree Corral made for a run of this state dir: only a run's own worktree is taken as it is (a restore, a restart); spawn with --worktree to make one",
				ErrBadSpec, u.Path)
		}
		spec.Dir = u.Dir
		ws.Setup = nil
		return spec, &u, false, nil
	}
	ctx, cancel := context.WithTimeout(s.gitContext(context.Background()), worktreeBudget)
	defer cancel()
	env := gitEnvOf(spec)
	dir := spec.dir(env)
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return spec, nil, false, err
		}
	}
	repo, err := workspace.RepoOf(ctx, dir, env)
	if err != nil {
		return spec, nil, false, err
	}
	own, err := repoWorktreeConfig(repo)
	if err != nil {
		return spec, nil, false, err
	}
	root := firstOf(ws.Root, own.Root, s.worktrees.Root)
	if root == "" && s.reg != nil {
		root = filepath.Join(s.reg.Dir(), "worktrees")
	}
	if ws.Setup == nil {
		ws.Setup = own.Setup
		if ws.Setup == nil {
			ws.Setup = s.worktrees.Setup
		}
	}
	ws.Root = root
	made, err := workspace.Create(ctx, workspace.Request{Dir: dir, Name: spec.Name, Branch: ws.Branch,
		Base: ws.Base, Root: root, Env: env, Owner: s.worktreeOwner})
	if err != nil {
		return spec, nil, false, err
	}
	spec.Dir = made.Dir
	return spec, &made, len(ws.Setup) > 0, nil
}

// worktreeOwner names the run (its name, else its id) whose worktree is at path and
// is not removed yet; "" when none is.
func (s *Supervisor) worktreeOwner(path string) string {
	for _, i := range s.Snapshot() {
		if i.Worktree == nil || i.Worktree.Path != path || i.Finished != nil && i.Finished.Removed {
			continue
		}
		if i.Name != "" {
			return i.Name
		}
		return i.ID
	}
	return ""
}

// madeWorktree reports whether a run of this supervisor, or a record of its state dir,
// has worktree u (its path, repository and branch): a spawn that takes a worktree as
// it is (Use) may take only one Corral made, which finish will then remove.
func (s *Supervisor) madeWorktree(u workspace.Worktree) bool {
	same := func(w *workspace.Worktree) bool {
		return w != nil && w.Path == u.Path && w.Repo == u.Repo && w.Branch == u.Branch
	}
	for _, i := range s.Snapshot() {
		if same(i.Worktree) {
			return true
		}
	}
	if s.reg == nil {
		return false
	}
	recs, _ := s.reg.List()
	for _, rec := range recs {
		if same(rec.Worktree) {
			return true
		}
	}
	return false
}

// repoWorktreeConfig is the [worktree] table of the repository's own corral.toml at
// its top, if it has one.
func repoWorktreeConfig(repo string) (config.Worktree, error) {
	f, err := config.Load(filepath.Join(repo, config.FileName))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return config.Worktree{}, nil
	case err != nil:
		return config.Worktree{}, fmt.Errorf("%w: %w", ErrBadSpec, err)
	}
	return f.Worktree, nil
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// setupFile is where a run's failing setup step is written: in the log dir, so a
// server after this one ends the run with setup-error too.
func (r *run) setupFile() string {
	if r.sup.logDir != "" {
		return filepath.Join(r.sup.logDir, r.id+".setup")
	}
	return filepath.Join(os.TempDir(), "corral-"+r.id+".setup")
}

// setupScript runs each step ($1 is the status file, $2 the shell, $3 the main
// checkout, $4 the number of steps, the steps, then the program), says which one
// failed into the status file and exits with its status, or execs the program: the
// program keeps the run's pid and session, and the steps are the run's own processes
// (a cancel ends them). A step finds the main checkout in $CORRAL_REPO (its .env).
const setupScript = `f=$1 sh=$2 repo=$3 n=$4; shift 4
i=0
while [ "$i" -lt "$n" ]; do
	i=$((i+1)); step=$1; shift
	printf 'corral setup %s/%s: %s\n' "$i" "$n" "$step"
	CORRAL_REPO=$repo "$sh" -c "$step"
	st=$?
	if [ "$st" -ne 0 ]; then
		printf '%s\n%s\n%s\n' "$st" "$i" "$step" > "$f"
		printf 'corral setup: step %s failed (status %s): the run ends; the worktree is kept\n' "$i" "$st" >&2
		exit "$st"
	fi
done
exec "$@"
`

// wrapSetup makes cmd run the setup steps first (setupScript), then its program.
func (r *run) wrapSetup(path string, args []string, env []string, steps []string) (string, []string) {
	wrapped := []string{"sh", "-c", setupScript, "corral-setup", r.setupFile(), shellIn(env), r.wt.Repo, strconv.Itoa(len(steps))}
	wrapped = append(wrapped, steps...)
	wrapped = append(wrapped, path)
	wrapped = append(wrapped, args[1:]...)
	return "/bin/sh", wrapped
}

// setupFailed reads the setup status file: the detail of a failed step, "" if none.
// It is read without the run's lock.
func (r *run) setupFailed() string {
	if r.wt == nil { // a run resumed by a server after the one that started it has its wt too
		return ""
	}
	b, err := os.ReadFile(r.setupFile())
	if err != nil {
		return ""
	}
	lines := strings.SplitN(strings.TrimRight(string(b), "\n"), "\n", 3)
	if len(lines) < 3 {
		return "a setup step failed"
	}
	where := ""
	if r.wt != nil {
		where = "; the worktree is kept at " + r.wt.Path
	}
	return fmt.Sprintf("setup step %s (%s) exited with status %s%s", lines[1], lines[2], lines[0], where)
}

// setupSteps is the steps r runs before its program ("" when none).
func (r *run) setupSteps() []string {
	if !r.runSetup || r.spec.Worktree == nil {
		return nil
	}
	return slices.Clone(r.spec.Worktree.Setup)
}
