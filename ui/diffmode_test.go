package ui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/workspace"
)

const agentDiff = `diff --git a/web/app.go b/web/app.go
index 1111111..2222222 100644
--- a/web/app.go
+++ b/web/app.go
@@ -1,2 +1,2 @@
 package web
-var port = 80
+var port = 8080
diff --git a/notes.md b/notes.md
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/notes.md
@@ -0,0 +1 @@
+agent's notes
`

// worktreeRuns is a harness with a live run in a worktree (selected) and an ended
// run without one.
func worktreeRuns(t *testing.T) *harness {
	engine := newFake()
	a, b := liveRun("r1", "agent", true), endedRun("r2", "tests")
	a.Worktree = &workspace.Worktree{Repo: "/src/web", Path: "/state/worktrees/web/agent", Dir: "/state/worktrees/web/agent",
		Branch: "corral/agent", Base: "0123456789abcdef0123456789abcdef01234567", BaseRef: "main", NewBranch: true}
	engine.snap = []runs.Info{a, b}
	engine.screens["r1"] = screenWith(80, 24, "$ ")
	engine.diffs = map[string]string{"r1": agentDiff}
	return newHarness(t, engine, 100, 30, a, b)
}

func TestDiffKeyOpensTheRunsDiff(t *testing.T) {
	h := worktreeRuns(t)
	if v := h.view(); !strings.Contains(v, "= diff of its worktree") {
		t.Errorf("the status line does not offer the diff key on a worktree run:\n%s", v)
	}
	h.key("=")
	if h.m.mode != modeDiff {
		t.Fatalf("mode %v after the diff key, want the diff view", h.m.mode)
	}
	if got := h.engine.called("Diff"); len(got) != 1 || got[0] != "Diff r1 false false" {
		t.Errorf("Diff calls %q, want one plain read of r1", got)
	}
	v := h.view()
	for _, want := range []string{"DIFF  agent corral/agent against main (0123456) +2 −1 in 2 files",
		"file 1/2 web/app.go · line 1/15", "+var port = 8080", "+agent's notes"} {
		if !strings.Contains(v, want) {
			t.Errorf("the diff view lacks %q:\n%s", want, v)
		}
	}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 8}) // smaller than the diff, so the next file's header can go to the top
	h.key("]")
	if v = h.view(); !strings.Contains(v, "file 2/2 notes.md") || !strings.HasPrefix(strings.Split(v, "\n")[1], "diff --git a/notes.md") {
		t.Errorf("] did not go to the next file:\n%s", v)
	}
	h.engine.mu.Lock()
	h.engine.diffs["r1"] = agentDiff + "+a second line\n"
	h.engine.mu.Unlock()
	h.key("r", "G")
	if len(h.engine.called("Diff")) != 2 || !strings.Contains(h.view(), "+a second line") {
		t.Errorf("r did not read the diff again: %q\n%s", h.engine.called("Diff"), h.view())
	}
	h.key("q")
	if h.m.mode != modeBrowse || strings.Contains(h.view(), "DIFF ") {
		t.Errorf("q did not close the diff view (mode %v):\n%s", h.m.mode, h.view())
	}
}

func TestDiffKeyOnARunWithoutWorktree(t *testing.T) {
	h := worktreeRuns(t)
	h.key("j", "=")
	if h.m.mode != modeBrowse || len(h.engine.called("Diff")) != 0 {
		t.Fatalf("mode %v, Diff calls %q: the view opened on a run without a worktree", h.m.mode, h.engine.called("Diff"))
	}
	if v := h.view(); !strings.Contains(v, "diff: tests has no worktree") {
		t.Errorf("the status line does not say why:\n%s", v)
	}
}

func TestDiffErrorAndSearchKeys(t *testing.T) {
	h := worktreeRuns(t)
	h.engine.fail["Diff"] = errors.New("not a git repository: /src/web")
	h.key("=")
	if v := h.view(); !strings.Contains(v, "diff: not a git repository: /src/web") {
		t.Errorf("the read's error is not shown:\n%s", v)
	}
	delete(h.engine.fail, "Diff")
	h.key("r", "/")
	h.typeText("port")
	if h.m.mode != modeDiff {
		t.Fatal("typing the search left the diff view")
	}
	h.key("enter")
	if v := h.view(); !strings.Contains(v, "/port 1/2") {
		t.Errorf("the search did not run:\n%s", v)
	}
	h.key("/", "esc") // esc drops the edit, and does not close the view
	if h.m.mode != modeDiff {
		t.Error("esc while typing the search closed the view")
	}
	h.key("esc")
	if h.m.mode != modeBrowse {
		t.Error("esc did not close the view")
	}
}

func TestDiffKeyOverride(t *testing.T) {
	engine := newFake()
	h := harnessWith(t, engine, Options{Keys: map[string][]string{"diff": {"ctrl+g"}, "diff_close": {"x"}}}, 80, 24)
	if k := h.m.c.Keys; !strings.Contains(strings.Join(k.Diff.Keys(), " "), "ctrl+g") || k.DiffClose.Keys()[0] != "x" {
		t.Errorf("overrides not applied: %v %v", k.Diff.Keys(), k.DiffClose.Keys())
	}
	if err := CheckKeys(map[string][]string{"diff_next_file": {"j"}}); err == nil {
		t.Error("a diff key bound twice in the diff view was accepted")
	}
}

// The diff view's Update and View call no engine: only diffCmd does. The index is built
// by the view's own command, which reads nothing but the text.
func TestDiffViewUpdateAndViewNeverCallTheEngine(t *testing.T) {
	h := worktreeRuns(t)
	before := len(h.engine.Calls())
	m := h.m
	step := func(msg tea.Msg) tea.Cmd {
		next, cmd := m.Update(msg)
		m = next.(Model)
		_ = m.View()
		return cmd
	}
	if step(keyMsg("=")) == nil {
		t.Fatal("the diff key made no command to read the diff")
	}
	wt := *h.engine.snap[0].Worktree
	load := step(DiffMsg{ID: "r1", Gen: m.diff.Gen(), Result: runs.DiffResult{Text: []byte(agentDiff), Worktree: wt}})
	if load == nil {
		t.Fatal("the read diff made no command to index it")
	}
	step(load())
	for _, k := range []string{"j", "G", "g", "]", "[", "}", "{", "l", "h", "/", "p", "enter", "n", "N", "ctrl+d", "ctrl+u", "space", "b"} {
		step(keyMsg(k))
	}
	step(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	step(keyMsg("q"))
	if calls := h.engine.Calls()[before:]; len(calls) != 0 {
		t.Errorf("Update or View called the engine: %q", calls)
	}
}
