package runs

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/runs/workspace"

	"corral/demo/testkit/gittest"
)

func worktreeSpec(repo, root, shell string, setup ...string) Spec {
	return Spec{Shell: shell, Dir: repo, BaseEnv: gittest.Env(),
		Worktree: &WorktreeSpec{Root: root, Setup: setup}}
}

func TestSpawnWorktree(t *testing.T) {
	t.Run("plain", func(t *testing.T) { testSpawnWorktree(t) })
	// A subreaper reaps children nobody claims: git must be claimed as Corral's own.
	t.Run("subreaper", func(t *testing.T) { testSpawnWorktree(t, WithEscapeDetection()) })
}

// gitClaimed is gitIn with git claimed as the supervisor's helper, as its own git is:
// a subreaper's orphan reaping would otherwise reap the test's git before its Wait.
func gitClaimed(t *testing.T, s *Supervisor, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = gittest.Env()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	s.spawnMu.Lock()
	err := cmd.Start()
	if err == nil {
		s.escapes.helper(cmd.Process.Pid, true)
	}
	s.spawnMu.Unlock()
	if err == nil {
		err = cmd.Wait()
		s.spawnMu.Lock()
		s.escapes.helper(cmd.Process.Pid, false)
		s.spawnMu.Unlock()
	}
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out.Bytes())
	}
	return strings.TrimSpace(out.String())
}

func testSpawnWorktree(t *testing.T, opts ...Option) {
	repo := gittest.Repo(t) // before the supervisor: no subreaper yet
	s := newSup(t, opts...)
	root := t.TempDir()
	spec := worktreeSpec(filepath.Join(repo, "sub"), root, "pwd; echo new > made.txt")
	spec.Name = "fixer"
	id := spawn(t, s, spec)
	info := waitEnd(t, s, id)
	wt := info.Worktree
	if wt == nil {
		t.Fatalf("no worktree in %+v", info)
	}
	if wt.Repo != repo || wt.Branch != "corral/fixer" || wt.BaseRef != "main" || !wt.NewBranch ||
		wt.Base != gitClaimed(t, s, repo, "rev-parse", "HEAD") || wt.Dir != filepath.Join(wt.Path, "sub") || !strings.HasPrefix(wt.Path, root) {
		t.Fatalf("worktree %+v", wt)
	}
	if info.Reason != Exit || info.Spec.Dir != wt.Dir {
		t.Fatalf("reason %s dir %s", info.Reason, info.Spec.Dir)
	}
	waitOutput(t, s, id, wt.Dir+"\n")
	if _, err := os.Stat(filepath.Join(wt.Dir, "made.txt")); err != nil {
		t.Fatalf("the run did not write in its worktree: %v", err)
	}
	if st := gitClaimed(t, s, repo, "status", "--porcelain"); st != "" {
		t.Fatalf("main checkout changed: %s", st)
	}
}

func TestSpawnWorktreeErrorsMakeNoRun(t *testing.T) {
	s := newSup(t)
	repo := gittest.Repo(t)
	root := t.TempDir()
	before := gittest.Git(t, repo, "for-each-ref", "refs/heads/")
	for name, tc := range map[string]struct {
		spec Spec
		want error
	}{
		"not a repo":   {worktreeSpec(t.TempDir(), root, "true"), workspace.ErrNotRepo},
		"unknown base": {func() Spec { s := worktreeSpec(repo, root, "true"); s.Worktree.Base = "nope"; return s }(), workspace.ErrUnknownBase},
		"checked out":  {func() Spec { s := worktreeSpec(repo, root, "true"); s.Worktree.Branch = "main"; return s }(), workspace.ErrBranchCheckedOut},
		"git missing": {func() Spec {
			s := worktreeSpec(repo, root, "true")
			s.BaseEnv = []string{"PATH=" + t.TempDir()}
			return s
		}(), workspace.ErrGitMissing},
	} {
		id, err := s.Spawn(tc.spec)
		if id != "" || !errors.Is(err, tc.want) {
			t.Fatalf("%s: id %q err %v, want %v", name, id, err, tc.want)
		}
	}
	if n := len(s.Snapshot()); n != 0 {
		t.Fatalf("%d runs listed after failed spawns", n)
	}
	if got := gittest.Git(t, repo, "for-each-ref", "refs/heads/"); got != before {
		t.Fatalf("branches %s, were %s", got, before)
	}
}

func TestWorktreeSetup(t *testing.T) {
	s := newSup(t)
	repo := gittest.Repo(t)
	root := t.TempDir()
	id := spawn(t, s, worktreeSpec(repo, root, "echo program; cat copied",
		"echo first step", `cp "$CORRAL_REPO/a.txt" copied`))
	info := waitEnd(t, s, id)
	out := string(waitOutput(t, s, id, "program"))
	if info.Reason != Exit || *info.ExitCode != 0 {
		t.Fatalf("reason %s code %v: %s", info.Reason, info.ExitCode, out)
	}
	if i, j := strings.Index(out, "first step"), strings.Index(out, "program"); i < 0 || j < i || !strings.Contains(out, "one\ntwo") {
		t.Fatalf("output %q", out)
	}
}

func TestWorktreeSetupFails(t *testing.T) {
	s := newSup(t)
	repo := gittest.Repo(t)
	id := spawn(t, s, worktreeSpec(repo, t.TempDir(), "echo program-ran", "true", "echo failing; exit 3"))
	info := waitEnd(t, s, id)
	out, _ := s.Log(id)
	if info.Reason != SetupError || !strings.Contains(info.SetupErr, "step 2 (echo failing; exit 3) exited with status 3") ||
		!strings.Contains(info.SetupErr, info.Worktree.Path) {
		t.Fatalf("reason %s detail %q", info.Reason, info.SetupErr)
	}
	if strings.Contains(string(out.Bytes()), "program-ran") {
		t.Fatalf("the program ran after a failed step: %q", out.Bytes())
	}
	if _, err := os.Stat(filepath.Join(info.Worktree.Path, "a.txt")); err != nil {
		t.Fatalf("the worktree was not kept: %v", err)
	}
}

// The repository's own corral.toml gives its [worktree] setup and root; a mistake
// in it is a spawn error naming its line, and nothing is made.
func TestWorktreeRepoConfig(t *testing.T) {
	s := newSup(t)
	repo := gittest.Repo(t)
	root := t.TempDir()
	conf := filepath.Join(repo, "corral.toml")
	if err := os.WriteFile(conf, []byte("[worktree]\nsetup = [\"echo from the repo config\"]\nroot = \""+root+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := worktreeSpec(repo, "", "echo program")
	id := spawn(t, s, spec)
	info := waitEnd(t, s, id)
	waitOutput(t, s, id, "program")
	out, _ := s.Log(id)
	if !strings.Contains(string(out.Bytes()), "from the repo config") || !strings.HasPrefix(info.Worktree.Path, root) {
		t.Fatalf("output %q, worktree %s", out.Bytes(), info.Worktree.Path)
	}

	if err := os.WriteFile(conf, []byte("[worktree]\n\nsetup = \"npm ci\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := gittest.Git(t, repo, "for-each-ref", "refs/heads/")
	n := len(s.Snapshot())
	_, err := s.Spawn(worktreeSpec(repo, root, "true"))
	if err == nil || !strings.Contains(err.Error(), "corral.toml:3") {
		t.Fatalf("err %v, want the config's line 3", err)
	}
	if got := gittest.Git(t, repo, "for-each-ref", "refs/heads/"); got != before || len(s.Snapshot()) != n {
		t.Fatalf("a bad config left branches %s or runs", got)
	}
}

// A run that cannot be made once its worktree was (its name is refused) takes the
// worktree and its branch back.
func TestWorktreeUndoneWhenTheRunIsRefused(t *testing.T) {
	s := newSup(t)
	repo := gittest.Repo(t)
	waitEnd(t, s, spawn(t, s, Spec{Shell: "true"}))
	before := gittest.Git(t, repo, "for-each-ref", "refs/heads/")
	spec := worktreeSpec(repo, t.TempDir(), "true")
	spec.Name = "r" // the start of every run's id
	if id, err := s.Spawn(spec); id != "" || !errors.Is(err, ErrBadSpec) {
		t.Fatalf("id %q err %v", id, err)
	}
	if got := gittest.Git(t, repo, "for-each-ref", "refs/heads/"); got != before {
		t.Fatalf("branches %s, were %s", got, before)
	}
	if wts := gittest.Git(t, repo, "worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 1 {
		t.Fatalf("worktrees left: %s", wts)
	}
}

// A branch checked out in another run's worktree is refused naming that run and how
// to free the branch; one checked out in the main checkout is not told to finish a
// run or remove the main checkout.
func TestSpawnWorktreeNamesWhoHasTheBranch(t *testing.T) {
	s := newSup(t)
	repo := gittest.Repo(t)
	root := t.TempDir()
	first := worktreeSpec(repo, root, "exec sleep 60")
	first.Name = "holder"
	id := spawn(t, s, first)
	second := worktreeSpec(repo, root, "true")
	second.Worktree.Branch = "corral/holder"
	_, err := s.Spawn(second)
	if !errors.Is(err, workspace.ErrBranchCheckedOut) || !strings.Contains(err.Error(), "the worktree of run holder: finish that run (corral finish holder)") {
		t.Fatalf("spawn on the branch of run holder: %v", err)
	}
	second.Worktree.Branch = "main"
	_, err = s.Spawn(second)
	if !errors.Is(err, workspace.ErrBranchCheckedOut) || !strings.Contains(err.Error(), "in the main checkout "+repo) || strings.Contains(err.Error(), "remove that worktree") {
		t.Fatalf("spawn on the main checkout's branch: %v", err)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// A worktree's setup steps run once, before a service's first attempt: its later
// attempts start in the worktree as set up.
func TestWorktreeSetupOncePerWorktree(t *testing.T) {
	s := newSup(t)
	spec := worktreeSpec(gittest.Repo(t), t.TempDir(), "echo attempt-ran; exit 1", "echo setup-step-ran")
	spec.Restart = &RestartSpec{Policy: RestartOnFailure, MaxRestarts: 2, Window: time.Minute}
	spec.Restart.Backoff, spec.Restart.BackoffMax = time.Millisecond, time.Millisecond
	id := spawn(t, s, spec)
	info := waitEnd(t, s, id)
	out := string(waitOutput(t, s, id, "attempt-ran"))
	if info.Service.attempt() != 3 || strings.Count(out, "attempt-ran") != 3 || strings.Count(out, "\nsetup-step-ran\n") != 1 {
		t.Fatalf("attempts %d, output %q", info.Service.attempt(), out)
	}
}
