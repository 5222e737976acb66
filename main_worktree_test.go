package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"corral/demo/testkit"

	"corral/demo/testkit/gittest"
)

// corral spawn --worktree through the server: the run starts in a worktree under the
// config's [worktree] root, info carries it and its figures after its end, ls shows
// its branch and figures; --branch without --worktree is a usage error; an unknown
// base is one clear error and no run.
func TestSpawnWorktreeCLI(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "wts")
	conf := filepath.Join(dir, "corral.toml")
	if err := os.WriteFile(conf, []byte("[worktree]\nroot = \""+root+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state")
	env := append(gittest.Env(), "CORRAL_STATE_DIR="+state, "CORRAL_CONFIG="+conf, "XDG_CONFIG_HOME="+filepath.Join(dir, "cfg"))
	repo := filepath.Join(dir, "repo")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.MkdirAll(repo, 0o755)
	git("init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644)
	git("add", "a.txt")
	git("commit", "-q", "-m", "a")
	corral := func(args ...string) result {
		t.Helper()
		cmd := exec.Command(corralBin, args...)
		cmd.Env, cmd.Dir = env, repo
		return run(t, cmd)
	}

	sp := corral("spawn", "--worktree", "--name", "w", "--shell", "--", "echo more >> a.txt; pwd")
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	srv := testkit.Pin(t, serverPID(t, state))
	endLater(t, srv, syscall.SIGTERM, "server")
	id := strings.TrimSpace(sp.stdout)
	if r := corral("wait", id); r.code != 0 {
		t.Fatalf("wait: %+v", r)
	}
	r := corral("info", id)
	var info struct {
		Run struct {
			Worktree struct{ Repo, Path, Dir, Branch, Base, BaseRef string }
			Diff     *struct{ Added, Removed, Files int }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &info); err != nil {
		t.Fatalf("info: %v\n%s", err, r.stdout)
	}
	wt := info.Run.Worktree
	if wt.Branch != "corral/w" || !strings.HasPrefix(wt.Path, root) || wt.Dir != wt.Path || info.Run.Diff == nil ||
		info.Run.Diff.Added != 1 || info.Run.Diff.Files != 1 {
		t.Fatalf("info: %s", r.stdout)
	}
	if ls := corral("ls"); !strings.Contains(ls.stdout, "BRANCH") || !strings.Contains(ls.stdout, "corral/w +1 −0") {
		t.Fatalf("ls:\n%s", ls.stdout)
	}
	if r := corral("spawn", "--branch", "x", "--", "true"); r.code != 2 || !strings.Contains(r.stderr, "--branch and --base need --worktree") {
		t.Fatalf("--branch alone: %+v", r)
	}
	before := corral("ls", "--json").stdout
	if r := corral("spawn", "--worktree", "--base", "nope", "--", "true"); r.code != 1 || !strings.Contains(r.stderr, `unknown base "nope"`) {
		t.Fatalf("unknown base: %+v", r)
	}
	if after := corral("ls", "--json").stdout; strings.Count(after, `"run_id"`) != strings.Count(before, `"run_id"`) {
		t.Fatalf("a failed spawn listed a run:\n%s", after)
	}
}
