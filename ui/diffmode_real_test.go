package ui

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/config"
	"corral/runs"

	"corral/demo/testkit/gittest"
)

// The diff key on a real worktree run of a real supervisor: the run changed one file
// and made another in its worktree, and the view shows both against its base. (The
// edit changes a.txt's size, so what this tests does not lean on git's check of files
// modified in the second their index was written.)
func TestDiffViewOfARealWorktreeRun(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := filepath.Join(t.TempDir(), "repo")
	gittest.Git(t, t.TempDir(), "init", "-q", "-b", "main", repo)
	if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, repo, "add", "-A")
	gittest.Git(t, repo, "commit", "-q", "-m", "first")

	state := t.TempDir()
	reg, err := runs.OpenRegistry(filepath.Join(state, "state"), config.Default())
	if err != nil {
		t.Fatal(err)
	}
	sup, err := runs.New(runs.WithDefaults(config.Default()), runs.WithRegistry(reg), runs.WithLogDir(filepath.Join(state, "logs")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sup.Shutdown(context.Background()) })
	id, err := sup.Spawn(runs.Spec{Name: "agent", Shell: "printf 'one\\nTWO, longer\\n' > a.txt; echo hello > new.txt", Dir: repo,
		BaseEnv: gittest.Env(), Worktree: &runs.WorktreeSpec{Root: filepath.Join(state, "worktrees")}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if info, err := sup.Wait(ctx, id); err != nil || info.Worktree == nil {
		t.Fatalf("wait: %v, worktree %v", err, info.Worktree)
	}

	snap := sup.Snapshot()
	m, err := newModel(Options{Engine: Local{sup}, Initial: snap}, (&clock{t: t0}).now)
	if err != nil {
		t.Fatal(err)
	}
	m.tick = func(int) tea.Cmd { return nil }
	h := &harness{t: t, m: m}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.key("=")
	v := h.view()
	for _, want := range []string{"DIFF  agent corral/agent against main", "+2 −1 in 2 files", "file 1/2 a.txt",
		"-two", "+TWO, longer", "+hello", "new.txt"} {
		if !strings.Contains(v, want) {
			t.Errorf("the diff view lacks %q:\n%s", want, v)
		}
	}
	if out, _ := exec.Command("git", "-C", repo, "status", "--porcelain").Output(); len(out) != 0 {
		t.Errorf("the main checkout changed: %s", out)
	}
}
