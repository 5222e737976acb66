package workspace

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// Request is what Create makes a worktree from; only Dir, Name, Root and Env are
// needed.
type Request struct {
	Dir    string   // the run's directory: the repository is the one holding it
	Name   string   // the run's name: the default branch is corral/<Name>
	Branch string   // "": corral/<Name>, made unique; an existing branch is reused
	Base   string   // "": HEAD of the checkout holding Dir
	Root   string   // where worktrees go (<Root>/<repo>-<hash>/<branch>)
	Env    []string // git's environment (PATH is searched for git in it)
	// Owner names the run whose worktree is at a path ("" for none, or nil): a branch
	// checked out there is refused naming the run to finish.
	Owner func(path string) string
}

// BranchPrefix starts the name of every branch Create makes itself.
const BranchPrefix = "corral/"

// Create makes a worktree for a run: a branch (made from the base, or an existing one
// not checked out anywhere) checked out in a new directory under Root. On failure
// nothing it made is left: a branch it made is deleted again.
func Create(ctx context.Context, req Request) (Worktree, error) {
	g, err := newGit(req.Env)
	if err != nil {
		return Worktree{}, err
	}
	top, common, prefix, err := locate(ctx, g, req.Dir)
	if err != nil {
		return Worktree{}, err
	}
	repo := mainCheckout(top, common)

	wt := Worktree{Repo: repo}
	if wt.Base, wt.BaseRef, err = resolveBase(ctx, g, top, req.Base); err != nil {
		return Worktree{}, err
	}

	root, err := filepath.Abs(req.Root)
	if err != nil || req.Root == "" {
		return Worktree{}, fmt.Errorf("%w: none given: set worktree_root in the config", ErrBadRoot)
	}
	if inside(root, repo) || inside(root, top) {
		return Worktree{}, fmt.Errorf("%w: %s is inside the checkout %s, whose git status it would clutter: choose a directory outside it", ErrBadRoot, root, repo)
	}
	pathOf := func(branch string) string {
		return filepath.Join(root, repoDirName(repo), strings.ReplaceAll(branch, "/", "-"))
	}

	branch := req.Branch
	if branch == "" {
		branch, err = freeBranch(ctx, g, repo, BranchPrefix+branchWord(req.Name), func(b string) bool {
			_, err := os.Lstat(pathOf(b))
			return err == nil
		})
		if err != nil {
			return Worktree{}, err
		}
		wt.NewBranch = true
	} else {
		branch = strings.TrimPrefix(branch, "refs/heads/")
		if _, err := g.run(ctx, repo, "check-ref-format", "--branch", branch); err != nil {
			return Worktree{}, fmt.Errorf("%w: %q: give a valid git branch name", ErrBadBranch, req.Branch)
		}
		if exists(ctx, g, repo, "refs/heads/"+branch) {
			if at, err := checkedOutAt(ctx, g, repo, branch); err != nil {
				return Worktree{}, err
			} else if at != "" {
				return Worktree{}, checkedOutError(branch, at, repo, req.Owner)
			}
			// Its changes are counted from where it left the base, so the figures
			// and the diff are what merging it would bring.
			if mb, err := g.line(ctx, repo, "merge-base", wt.Base, "refs/heads/"+branch); err == nil && mb != "" {
				wt.Base = mb
			}
		} else {
			wt.NewBranch = true
		}
	}
	wt.Branch = branch

	wt.Path = pathOf(branch)
	if _, err := os.Lstat(wt.Path); err == nil {
		return Worktree{}, fmt.Errorf("%w: %s: remove it, or give another --branch", ErrPathExists, wt.Path)
	}
	made, err := mkdirs(filepath.Dir(wt.Path))
	if err != nil {
		return Worktree{}, fmt.Errorf("worktree root: %w", err)
	}
	undoDirs := func() {
		for i := len(made) - 1; i >= 0; i-- {
			os.Remove(made[i]) // only when empty
		}
	}

	if wt.NewBranch {
		if _, err := g.run(ctx, repo, "branch", "--no-track", branch, wt.Base); err != nil {
			undoDirs()
			return Worktree{}, err
		}
	}
	if _, err := g.run(ctx, repo, "worktree", "add", wt.Path, branch); err != nil {
		if wt.NewBranch {
			g.run(context.WithoutCancel(ctx), repo, "branch", "-D", branch)
		}
		undoDirs()
		return Worktree{}, err
	}
	wt.Dir = wt.Path
	if prefix != "" {
		wt.Dir = filepath.Join(wt.Path, filepath.FromSlash(strings.TrimSuffix(prefix, "/")))
		// A directory git does not track (empty, or ignored) is not checked out: made
		// empty, so the run still starts where it was asked to.
		if err := os.MkdirAll(wt.Dir, 0o755); err != nil {
			UndoCreate(context.WithoutCancel(ctx), wt, req.Env)
			return Worktree{}, err
		}
	}
	return wt, nil
}

// UndoCreate takes back what Create made, for a run that then could not start: the
// worktree (nothing has run in it) and the branch when Create made it.
func UndoCreate(ctx context.Context, wt Worktree, env []string) error {
	g, err := newGit(env)
	if err != nil {
		return err
	}
	_, err = g.run(ctx, wt.Repo, "worktree", "remove", "--force", wt.Path)
	if err == nil {
		os.Remove(filepath.Dir(wt.Path)) // the repository's directory under the root, when empty
	}
	if err == nil && wt.NewBranch {
		_, err = g.run(ctx, wt.Repo, "branch", "-D", wt.Branch)
	}
	return err
}

// mainCheckout is the main working tree of the repository whose common git dir is
// common: a worktree made from a linked worktree belongs to the main checkout.
func mainCheckout(top, common string) string {
	if filepath.Base(common) == ".git" {
		return filepath.Dir(common)
	}
	return top // a submodule's or an unusual layout: the checkout itself
}

// resolveBase is base as a full commit hash, and the branch it names ("" when it is
// not a branch). "" and "HEAD" are the checkout's HEAD and the branch it is on.
func resolveBase(ctx context.Context, g *git, top, base string) (string, string, error) {
	rev := base
	if rev == "" {
		rev = "HEAD"
	}
	commit, err := g.line(ctx, top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil || commit == "" {
		if base == "" {
			return "", "", fmt.Errorf("%w: the repository at %s has no commit yet: commit once, or give --base", ErrUnknownBase, top)
		}
		return "", "", fmt.Errorf("%w %q: no such commit, branch or tag in %s: give one that exists (git log, git branch)", ErrUnknownBase, base, top)
	}
	ref := ""
	if rev == "HEAD" {
		ref, _ = g.line(ctx, top, "symbolic-ref", "--quiet", "--short", "HEAD")
	} else if name := strings.TrimPrefix(rev, "refs/heads/"); exists(ctx, g, top, "refs/heads/"+name) {
		ref = name
	}
	return commit, ref, nil
}

// exists reports whether ref names something.
func exists(ctx context.Context, g *git, dir, ref string) bool {
	_, err := g.run(ctx, dir, "rev-parse", "--verify", "--quiet", ref)
	return err == nil
}

// freeBranch is name, or name-2, name-3 … the first that no branch has and whose
// worktree path is free (used says it is not).
func freeBranch(ctx context.Context, g *git, repo, name string, used func(string) bool) (string, error) {
	if _, err := g.run(ctx, repo, "check-ref-format", "--branch", name); err != nil {
		name = BranchPrefix + "run"
	}
	out, err := g.run(ctx, repo, "for-each-ref", "--format=%(refname:strip=2)", "refs/heads/"+name, "refs/heads/"+name+"-*")
	if err != nil {
		return "", err
	}
	taken := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		taken[l] = true
	}
	if !taken[name] && !hasPrefixRef(out, name+"/") && !used(name) {
		return name, nil
	}
	for i := 2; ; i++ {
		if c := name + "-" + strconv.Itoa(i); !taken[c] && !used(c) {
			return c, nil
		}
	}
}

// hasPrefixRef reports whether a branch lies under name/ (which would make a branch
// called name impossible).
func hasPrefixRef(refs []byte, prefix string) bool {
	return bytes.Contains(append([]byte("\n"), refs...), []byte("\n"+prefix))
}

// branchWord is a run name as a branch name component.
func branchWord(name string) string {
	w := strings.Map(func(r rune) rune {
		switch {
		case r == '-' || r == '_' || r == '.':
			return r
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			return r
		}
		return '-'
	}, name)
	w = strings.Trim(w, "-.")
	for strings.Contains(w, "..") {
		w = strings.ReplaceAll(w, "..", ".")
	}
	w = strings.TrimSuffix(w, ".lock")
	if w == "" {
		w = "run"
	}
	return w
}

// checkedOutAt is the path of the worktree that has branch checked out, "" if none.
// checkedOutError refuses branch, checked out at: the way out depends on whose
// checkout that is (the main checkout is never removed; a run's worktree goes with
// finishing the run).
func checkedOutError(branch, at, repo string, owner func(string) string) error {
	if same(at, repo) {
		return fmt.Errorf("%w: branch %s is checked out in the main checkout %s: give another --branch, or switch that checkout to another branch first", ErrBranchCheckedOut, branch, at)
	}
	if owner != nil {
		if run := owner(at); run != "" {
			return fmt.Errorf("%w: branch %s is checked out in %s, the worktree of run %s: finish that run (corral finish %s), or give another --branch", ErrBranchCheckedOut, branch, at, run, run)
		}
	}
	return fmt.Errorf("%w: branch %s is checked out in %s: remove that worktree (git worktree remove), or give another --branch", ErrBranchCheckedOut, branch, at)
}

// same reports whether two paths name one directory (links resolved).
func same(a, b string) bool {
	if a == b {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

func checkedOutAt(ctx context.Context, g *git, repo, branch string) (string, error) {
	fields, err := listWorktrees(ctx, g, repo)
	if err != nil {
		return "", err
	}
	path := ""
	for _, l := range fields {
		if p, ok := strings.CutPrefix(l, "worktree "); ok {
			path = p
		} else if l == "branch refs/heads/"+branch {
			return path, nil
		}
	}
	return "", nil
}

// repoDirName names a repository's directory under the root: its base name and a
// short hash of its path (two repositories called app do not share one).
func repoDirName(repo string) string {
	sum := sha256.Sum256([]byte(repo))
	return branchWord(filepath.Base(repo)) + "-" + hex.EncodeToString(sum[:4])
}

// inside reports whether path is dir or under it (both absolute, links resolved
// where they exist).
func inside(path, dir string) bool {
	path, dir = realish(path), realish(dir)
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// realish is path with links resolved in its longest existing leading part.
func realish(path string) string {
	path = filepath.Clean(path)
	rest := ""
	for p := path; ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		if filepath.Dir(p) == p {
			return path
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}

// mkdirs makes dir and its missing parents (0700: worktrees may hold secrets a
// setup step copied in) and returns the ones it made, outermost first.
func mkdirs(dir string) ([]string, error) {
	var missing []string
	for p := dir; ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); err == nil {
			break
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		missing = append(missing, p)
		if filepath.Dir(p) == p {
			break
		}
	}
	var made []string
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return made, err
		}
		made = append(made, missing[i])
	}
	return made, nil
}

// RepoOf is the main checkout of the repository holding dir.
func RepoOf(ctx context.Context, dir string, env []string) (string, error) {
	g, err := newGit(env)
	if err != nil {
		return "", err
	}
	top, common, _, err := locate(ctx, g, dir)
	if err != nil {
		return "", err
	}
	return mainCheckout(top, common), nil
}

// locate is the checkout holding dir (its top), the repository's common git dir and
// dir's path under the top ("" or "sub/dir/").
func locate(ctx context.Context, g *git, dir string) (top, common, prefix string, err error) {
	if dir, err = filepath.Abs(dir); err != nil {
		return "", "", "", err
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", "", "", fmt.Errorf("%w: %s is not a directory: give the run a directory inside a git repository", ErrNotRepo, dir)
	}
	out, err := g.run(ctx, dir, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir", "--show-prefix")
	if err != nil {
		if exitCode(err) < 0 {
			return "", "", "", err
		}
		return "", "", "", fmt.Errorf("%w: %s (or any of its parents): run it in a repository, or without --worktree", ErrNotRepo, dir)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) < 2 || lines[0] == "" {
		return "", "", "", fmt.Errorf("%w: %s is not in a repository's working tree (a bare repository has none): run it in a checkout", ErrNotRepo, dir)
	}
	if len(lines) > 2 {
		prefix = lines[2]
	}
	return lines[0], lines[1], prefix, nil
}
