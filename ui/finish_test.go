package ui

import (
	"errors"
	"strings"
	"testing"

	"corral/runs"
	"corral/runs/workspace"
	"corral/ui/dialog"
)

// worktreeRuns is a live worktree run (r1), an ended one (r2) and one without a
// worktree (r3).
func finishRuns(t *testing.T) *harness {
	engine := newFake()
	a, b, c := liveRun("r1", "claude", true), endedRun("r2", "codex"), endedRun("r3", "tests")
	a.Worktree = &workspace.Worktree{Repo: "/src/app", Path: "/state/worktrees/app/claude", Branch: "corral/claude", BaseRef: "main"}
	a.Diff = &workspace.Stat{Added: 3, Removed: 1, Files: 2}
	b.Worktree = &workspace.Worktree{Repo: "/src/app", Path: "/state/worktrees/app/codex", Branch: "corral/codex", BaseRef: "main"}
	engine.snap = []runs.Info{a, b, c}
	return newHarness(t, engine, 120, 30, a, b, c)
}

// answerLater lets the question be read before it is answered (dialog.AnswerGrace).
func (h *harness) answerLater(name string) {
	h.clk.t = h.clk.t.Add(2 * dialog.AnswerGrace)
	h.key(name)
}

// The finish dialog takes finish's choices; a live run is ended only after the
// question a cancel asks, and the finish goes to the engine in a command.
func TestFinishDialogOfALiveRun(t *testing.T) {
	h := finishRuns(t)
	h.key("F")
	if h.m.mode != modeDialog || !h.m.dlg.Open() {
		t.Fatalf("F: mode %v, dialog open %v", h.m.mode, h.m.dlg.Open())
	}
	v := h.view()
	for _, want := range []string{"Finish claude", "corral/claude in /state/worktrees/app/claude (+3 −1)", "finishing ends it", "empty: main"} {
		if !strings.Contains(v, want) {
			t.Errorf("the finish dialog lacks %q:\n%s", want, v)
		}
	}
	h.typeText("agent's work")
	h.key("down", "space", "down", "down", "space") // merge; into main (empty); delete the branch
	if len(h.engine.called("Finish")) != 0 {
		t.Fatal("the dialog called the engine before it was accepted")
	}
	h.key("enter")
	if !h.m.dlg.Asking() || !strings.Contains(h.view(), "Cancel claude (r1) and finish its worktree?") {
		t.Fatalf("accepting the dialog of a live run did not ask first:\n%s", h.view())
	}
	h.answerLater("y")
	got := h.engine.called("Finish")
	if len(got) != 1 || !strings.Contains(got[0], "Finish r1 {Commit:agent's work Merge:true Into: DeleteBranch:true Force:false}") {
		t.Fatalf("finish calls: %q", got)
	}
	if !strings.Contains(h.m.flash, "finished claude r1: removed the worktree, kept branch corral/r1") {
		t.Fatalf("flash after the finish: %q", h.m.flash)
	}
}

// No to the question finishes nothing; an ended run's finish asks nothing; a run
// without a worktree has no dialog; a refusal is shown.
func TestFinishDialogRefusalsAndNo(t *testing.T) {
	h := finishRuns(t)
	h.key("F", "enter")
	h.answerLater("n")
	if len(h.engine.called("Finish")) != 0 || h.m.mode != modeBrowse {
		t.Fatalf("no to the question: finish calls %q, mode %v", h.engine.called("Finish"), h.m.mode)
	}

	h.key("j", "F", "space") // r2 has ended: space on the commit row is text
	h.key("backspace", "enter")
	if got := h.engine.called("Finish"); len(got) != 1 || !strings.HasPrefix(got[0], "Finish r2 {Commit: Merge:false") || h.m.dlg.Asking() {
		t.Fatalf("finish of an ended run: calls %q, asking %v", got, h.m.dlg.Asking())
	}

	h.key("j", "F")
	if h.m.dlg.Open() || !strings.Contains(h.m.flash, "tests has no worktree") {
		t.Fatalf("F on a run without a worktree: open %v, flash %q", h.m.dlg.Open(), h.m.flash)
	}

	h.engine.fail["Finish"] = errors.New("finish r2: merging corral/codex into main would conflict in same.txt: nothing was changed; finish with --no-merge to keep the branch")
	h.key("k", "F", "down", "space", "enter")
	// The refusal is shown whole in the dialog, open again with the same choices.
	v := h.view()
	if !h.m.dlg.Open() || !strings.Contains(v, "refused: merging corral/codex into main would conflict in") ||
		!strings.Contains(v, "--no-merge to keep the branch") || !strings.Contains(v, " [yes]") {
		t.Fatalf("a refused finish: dialog open %v, flash %q:\n%s", h.m.dlg.Open(), h.m.flash, v)
	}
	if !strings.Contains(h.m.flash, "finish codex r2 refused: nothing was changed") {
		t.Errorf("a refused finish: flash %q", h.m.flash)
	}
	delete(h.engine.fail, "Finish")
	h.key("down", "space", "enter") // into: space is text; accepted again
	if got := h.engine.called("Finish"); len(got) != 3 || !strings.HasPrefix(got[2], "Finish r2 {Commit: Merge:true Into:") {
		t.Fatalf("the second try: calls %q", got)
	}
	if h.m.dlg.Open() || strings.Contains(h.view(), "refused:") {
		t.Fatalf("a finish that went through left the dialog or its refusal:\n%s", h.view())
	}
}

// Removing an ended run whose worktree is still there says it stays behind, and
// which key finishes it instead.
func TestRemoveOfAWorktreeRunSaysItStays(t *testing.T) {
	h := finishRuns(t)
	h.key("j", "d")
	if !h.m.dlg.Asking() || !strings.Contains(h.view(), "Remove codex? Its worktree stays, unfinished (F finishes it).") {
		t.Fatalf("d on an unfinished worktree run:\n%s", h.view())
	}
}

// A finish done anywhere (another UI, corral finish) is a line of the events pane.
func TestFinishEventIsShown(t *testing.T) {
	h := finishRuns(t)
	run := h.engine.snap[1]
	run.Finished = &workspace.Finished{Into: "main", Removed: true, Branch: "corral/codex"}
	h.send(EventMsg{Event: runs.Event{Type: runs.EventWorktree, Run: run, Time: t0, Detail: run.Finished.Done()}})
	h.engine.snap[1] = run
	h.key("j")
	v := h.view()
	if !strings.Contains(v, "codex r2 finished: merged into main, removed the worktree, kept") {
		t.Fatalf("the events pane lacks the finish:\n%s", v)
	}
	if !strings.Contains(v, "finish  merged into main,") {
		t.Fatalf("the details pane lacks the finish:\n%s", v)
	}
}

// A finish that failed part way (the run was ended, a later step failed) is not
// offered again as it was: the status line and the events pane say what was done.
func TestFinishFailedPartWay(t *testing.T) {
	h := finishRuns(t)
	h.engine.fail["Finish"] = errors.New("finish r2: git commit: hook failed (done: ended the run)")
	h.key("j", "F", "enter")
	if h.m.dlg.Open() || !strings.Contains(h.m.flash, "finish codex r2: git commit: hook failed (done: ended the run)") {
		t.Fatalf("a finish failed part way: dialog open %v, flash %q", h.m.dlg.Open(), h.m.flash)
	}
	if v := h.view(); strings.Contains(v, "finish r2:") {
		t.Errorf("the run's id is said twice:\n%s", v)
	}
}
