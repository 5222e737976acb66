package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"corral/demo/testkit/gittest"
)

// wsCorral runs corral on state's server with git isolated.
func wsCorral(t *testing.T, state string, args ...string) result {
	t.Helper()
	cmd := corral(t, args...)
	cmd.Env = append(cmd.Env, "CORRAL_STATE_DIR="+state)
	cmd.Env = append(cmd.Env, gittest.Isolation...)
	return run(t, cmd)
}

// corral diff and corral finish, end to end: two toy agents in two worktrees of one
// repository write the same files; each diff is its own; the first finishes with a
// merge; the second's merge conflicts and is refused with nothing changed; its dirty
// worktree is kept without --force and removed with it.
func TestDiffAndFinishVerbs(t *testing.T) {
	state := serverState(t)
	repo := filepath.Join(t.TempDir(), "repo")
	gittest.Git(t, t.TempDir(), "init", "-q", "-b", "main", repo)
	if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, repo, "add", "-A")
	gittest.Git(t, repo, "commit", "-q", "-m", "first")

	ids := map[string]string{}
	for _, name := range []string{"a", "b"} {
		r := wsCorral(t, state, "spawn", "--worktree", "--name", name, "--dir", repo, "--shell", "--",
			"printf 'by "+name+"\\n' > same.txt && printf '"+name+"\\n' >> a.txt")
		if r.code != 0 {
			t.Fatalf("spawn --worktree %s: %+v", name, r)
		}
		ids[name] = strings.TrimSpace(r.stdout)
		if w := wsCorral(t, state, "wait", ids[name]); w.code != 0 {
			t.Fatalf("wait %s: %+v", name, w)
		}
	}
	plain := wsCorral(t, state, "spawn", "--name", "plain", "--", "true")

	for own, other := range map[string]string{"a": "b", "b": "a"} {
		d := wsCorral(t, state, "diff", ids[own])
		if d.code != 0 || !strings.Contains(d.stdout, "+by "+own) || strings.Contains(d.stdout, "by "+other) {
			t.Fatalf("diff %s: %+v", own, d)
		}
	}
	if d := wsCorral(t, state, "diff", "--stat", ids["a"]); d.code != 0 || !strings.Contains(d.stdout, "2 files changed, 2 insertions(+)") {
		t.Fatalf("diff --stat: %+v", d)
	}
	var doc struct {
		Stat struct{ Added, Files int }
		Text string
	}
	if d := wsCorral(t, state, "diff", "--json", ids["a"]); d.code != 0 || json.Unmarshal([]byte(d.stdout), &doc) != nil ||
		doc.Stat.Added != 2 || doc.Stat.Files != 2 || !strings.Contains(doc.Text, "+by a") {
		t.Fatalf("diff --json: %+v", d)
	}
	if d := wsCorral(t, state, "diff", "plain"); d.code != 1 || !strings.Contains(d.stderr, "has no worktree") {
		t.Fatalf("diff of a run with no worktree (%s): %+v", plain.stdout, d)
	}

	f := wsCorral(t, state, "finish", ids["a"], "--commit", "a's work", "--merge")
	if f.code != 0 || !strings.Contains(f.stdout, "merged into main, removed the worktree, kept branch corral/a") {
		t.Fatalf("finish a: %+v", f)
	}
	if got, _ := os.ReadFile(filepath.Join(repo, "same.txt")); string(got) != "by a\n" {
		t.Fatalf("same.txt after finishing a: %q", got)
	}

	head, wtB := gittest.Git(t, repo, "rev-parse", "HEAD"), gittest.Git(t, repo, "worktree", "list")
	f = wsCorral(t, state, "finish", ids["b"], "--commit", "b's work", "--merge")
	if f.code != 1 || !strings.Contains(f.stderr, "would conflict in a.txt, same.txt") || !strings.Contains(f.stderr, "nothing was changed") {
		t.Fatalf("finish b with a conflicting merge: %+v", f)
	}
	if gittest.Git(t, repo, "rev-parse", "HEAD") != head || gittest.Git(t, repo, "worktree", "list") != wtB || gittest.Git(t, repo, "status", "--porcelain") != "" {
		t.Fatal("a refused finish changed the repository")
	}
	if f = wsCorral(t, state, "finish", ids["b"], "--merge", "--no-merge"); f.code != 2 {
		t.Fatalf("--merge --no-merge: %+v", f)
	}
	if f = wsCorral(t, state, "finish", ids["b"]); f.code != 1 || !strings.Contains(f.stderr, "untracked file") || !strings.Contains(f.stderr, "--force") {
		t.Fatalf("finish of a dirty worktree: %+v", f)
	}
	if f = wsCorral(t, state, "finish", ids["b"], "--force"); f.code != 0 || !strings.Contains(f.stdout, "removed the worktree, discarded") {
		t.Fatalf("finish --force: %+v", f)
	}
	if gittest.Git(t, repo, "worktree", "list", "--porcelain") != "worktree "+mustReal(t, repo)+"\nHEAD "+head+"\nbranch refs/heads/main" {
		t.Fatalf("worktrees left: %s", gittest.Git(t, repo, "worktree", "list"))
	}

	var info struct {
		Run struct {
			Finished struct {
				Into    string `json:"into"`
				Removed bool   `json:"removed"`
			} `json:"finished"`
		} `json:"run"`
	}
	if r := wsCorral(t, state, "info", ids["a"]); json.Unmarshal([]byte(r.stdout), &info) != nil || !info.Run.Finished.Removed || info.Run.Finished.Into != "main" {
		t.Fatalf("info of a finished run: %+v", r)
	}
	if r := wsCorral(t, state, "ls"); !strings.Contains(r.stdout, "(merged into main, removed)") {
		t.Fatalf("ls:\n%s", r.stdout)
	}
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
