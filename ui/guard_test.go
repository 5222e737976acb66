package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/workspace"
)

// typeFast sends keys 1 ms apart, as an unbracketed paste arrives.
func (h *harness) typeFast(names ...string) {
	for _, n := range names {
		h.clk.t = h.clk.t.Add(time.Millisecond)
		h.send(keyMsg(n))
	}
}

// An unbracketed paste outside focus is not read as commands: `xyq d` opens the
// cancel question; its y comes before anyone could read it and is ignored, the q
// is no answer and closes it, and the rest of the paste is dropped.
func TestBurstIsNotCommands(t *testing.T) {
	h := twoRuns(t)
	h.typeFast("x", "y", "q", "space", "d")
	if got := h.engine.Calls(); containsPrefix(got, "Cancel") || containsPrefix(got, "Shutdown") ||
		containsPrefix(got, "Pause") || containsPrefix(got, "Remove") {
		t.Fatalf("a paste acted: %q", got)
	}
	if h.m.mode != modeBrowse || !strings.Contains(h.view(), "ignored 2 key(s)") {
		t.Fatalf("mode %v, no notice:\n%s", h.m.mode, h.view())
	}
	h.clk.t = h.clk.t.Add(time.Second) // a person, later
	h.key("space")
	if len(h.engine.called("Pause")) != 1 {
		t.Fatalf("a key typed later did not act: %q", h.engine.Calls())
	}
}

// A question answered at a person's pace is answered.
func TestQuestionAnsweredAfterReading(t *testing.T) {
	h := twoRuns(t)
	h.key("x")
	h.clk.t = h.clk.t.Add(400 * time.Millisecond)
	h.key("y")
	if len(h.engine.called("Cancel")) != 1 {
		t.Fatalf("calls %q", h.engine.Calls())
	}
}

// When the focused run ends, focus stays on its last screen and the next keys
// (the second Ctrl-C of "press Ctrl-C again to exit") go nowhere, least of all to
// Corral's quit; the leave chord leaves.
func TestFocusStaysOnAnEndedRun(t *testing.T) {
	h := twoRuns(t)
	h.key("enter")
	ended, _ := h.m.list.Run("r1")
	ended.State, ended.Reason, ended.Seq, ended.EndedAt = runs.Exited, runs.Exit, ended.Seq+10, t0
	code := 0
	ended.ExitCode = &code
	h.send(EventMsg{Event: runs.Event{Type: runs.EventExit, Run: ended, Time: t0}})
	msgs := h.key("ctrl+c", "q", "x")
	if h.m.mode != modeFocus || hasMsg[tea.QuitMsg](msgs) || containsPrefix(h.engine.Calls(), "Shutdown") ||
		len(h.engine.written["r1"]) != 0 {
		t.Fatalf("keys after the end acted: mode %v, calls %q, written %q", h.m.mode, h.engine.Calls(), h.engine.written)
	}
	if v := h.view(); !strings.Contains(v, "has ended: its last screen; keys are not sent") {
		t.Errorf("no word of the end:\n%s", v)
	}
	h.key("ctrl+]")
	if h.m.mode != modeBrowse {
		t.Fatal("the leave chord did not leave")
	}
}

// Quitting while an ended run was never looked at asks, even with nothing live.
func TestQuitAsksForUnseenEnds(t *testing.T) {
	engine := newFake()
	a, b := endedRun("r1", "build"), endedRun("r2", "claude")
	h := newHarness(t, engine, 120, 30, a, b)
	h.m.list.SetAttention("r2", true)
	h.key("ctrl+c")
	if h.m.mode != modeDialog || !strings.Contains(h.view(), "1 run(s) ended that you have not looked at") {
		t.Fatalf("ctrl+c quit without asking:\n%s", h.view())
	}
	if msgs := h.key("y"); !hasMsg[tea.QuitMsg](msgs) {
		t.Error("y did not quit")
	}
}

func containsPrefix(calls []string, p string) bool {
	for _, c := range calls {
		if strings.HasPrefix(c, p) {
			return true
		}
	}
	return false
}

// R on an ended run restarts it in place: the new run takes the old one's row (which
// leaves the engine too), not a second row of the same name.
func TestRestartInPlace(t *testing.T) {
	engine := newFake()
	a, b, c := endedRun("r1", "build"), endedRun("r2", "tests"), endedRun("r3", "lint")
	engine.snap = []runs.Info{a, b, c}
	engine.spawnID = "r9"
	h := newHarness(t, engine, 120, 30, a, b, c)
	h.key("j", "R")
	fresh := liveRun("r9", "tests", false)
	h.send(EventMsg{Event: runs.Event{Type: runs.EventSpawn, Run: fresh, Time: t0}})
	var names []string
	for _, i := range h.m.list.Runs() {
		names = append(names, i.ID)
	}
	if strings.Join(names, " ") != "r1 r9 r3" {
		t.Fatalf("rows %v, want r1 r9 r3", names)
	}
	if sel, _ := h.m.list.Selected(); sel.ID != "r9" || len(h.engine.called("Remove")) != 1 {
		t.Errorf("selected %s, calls %q", sel.ID, h.engine.Calls())
	}
}

// Text typed while the form's kind row has the focus goes to the command, not away.
func TestFormKindRowKeepsTypedText(t *testing.T) {
	h := twoRuns(t)
	h.key("n", "down") // the kind row
	h.key("l", "s", "enter")
	if specs := h.engine.specs; len(specs) != 1 || specs[0].Shell != "ls" {
		t.Fatalf("started %+v, want the command ls", specs)
	}
}

// R on an ended worktree run restarts it in its own worktree while that is there (no
// second worktree, the work left in the first); once finished, on its kept branch.
func TestRestartKeepsTheWorktree(t *testing.T) {
	engine := newFake()
	a, b := endedRun("r1", "claude"), endedRun("r2", "codex")
	wt := &workspace.Worktree{Repo: "/src/app", Path: "/state/wt/app/corral-claude", Dir: "/state/wt/app/corral-claude/web",
		Branch: "corral/claude", Base: "abc", BaseRef: "main"}
	a.Spec.Dir, a.Spec.Worktree, a.Worktree = wt.Dir, &runs.WorktreeSpec{Root: "/state/wt"}, wt
	wt2 := *wt
	wt2.Branch = "corral/codex"
	b.Spec.Dir, b.Spec.Worktree, b.Worktree = wt.Dir, &runs.WorktreeSpec{Root: "/state/wt"}, &wt2
	b.Finished = &workspace.Finished{Removed: true, Branch: "corral/codex"}
	engine.snap = []runs.Info{a, b}
	engine.spawnID = "r9"
	h := newHarness(t, engine, 120, 30, a, b)
	h.key("R")
	if len(h.engine.specs) != 1 || h.engine.specs[0].Worktree == nil || h.engine.specs[0].Worktree.Use == nil ||
		*h.engine.specs[0].Worktree.Use != *wt {
		t.Fatalf("restart of a run whose worktree is there: %+v", h.engine.specs[0].Worktree)
	}
	h.key("j", "R")
	if len(h.engine.specs) != 2 || h.engine.specs[1].Worktree.Use != nil || h.engine.specs[1].Worktree.Branch != "corral/codex" ||
		h.engine.specs[1].Dir != "/src/app/web" {
		t.Fatalf("restart of a finished run: dir %s worktree %+v", h.engine.specs[1].Dir, h.engine.specs[1].Worktree)
	}
}
