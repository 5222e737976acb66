package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// Starting, restarting and removing runs, and quitting, through the model: the
// new-run form, the spawn results, the quit question and its progress.

func TestNewRunForm(t *testing.T) {
	h := twoRuns(t)
	h.key("n")
	h.typeText("htop -d 5")
	h.key("down", "down") // kind, timeout
	h.typeText("90")
	h.key("down")
	h.typeText("off")
	h.key("enter")
	if len(h.engine.specs) != 1 {
		t.Fatalf("spawned %d specs", len(h.engine.specs))
	}
	want := runs.Spec{Shell: "htop -d 5", PTY: true, Timeout: 90 * time.Second, NoOutputTimeout: -1, Cols: 82, Rows: 20}
	if got := h.engine.specs[0]; !specEqual(got, want) {
		t.Errorf("spec %+v, want %+v", got, want)
	}
	h.key("n")
	h.typeText("make")
	h.key("tab", "down", "down")
	h.typeText("soon")
	h.key("enter")
	if v := h.view(); !strings.Contains(v, "not a duration") || len(h.engine.specs) != 1 {
		t.Errorf("a bad timeout was not refused inline:\n%s", v)
	}
	h.key("backspace", "backspace", "backspace", "backspace", "enter")
	if got := h.engine.specs[1]; got.PTY || got.Shell != "make" || got.Cols != 0 {
		t.Errorf("pipe spec %+v", got)
	}
}

// The new-run form's escape policy: the configured default (own) unless
// the escapes row is toggled to fail.
func TestNewRunFormEscapePolicy(t *testing.T) {
	h := twoRuns(t)
	h.key("n")
	h.typeText("codex")
	h.key("enter")
	h.key("n")
	h.typeText("codex")
	h.key("up") // wraps round to the escapes row
	h.typeText(" ")
	if v := h.view(); !strings.Contains(v, "own [fail]") {
		t.Errorf("escapes row not toggled:\n%s", v)
	}
	h.key("enter")
	if len(h.engine.specs) != 2 || h.engine.specs[0].Escape != "" || h.engine.specs[1].Escape != runs.EscapeFail {
		t.Fatalf("specs %+v: want the default, then fail", h.engine.specs)
	}
}

func specEqual(a, b runs.Spec) bool {
	return a.Shell == b.Shell && a.PTY == b.PTY && a.Timeout == b.Timeout &&
		a.NoOutputTimeout == b.NoOutputTimeout && a.Cols == b.Cols && a.Rows == b.Rows
}

func TestSpawnedRunIsSelected(t *testing.T) {
	h := twoRuns(t)
	h.engine.spawnID = "r9"
	h.key("n")
	h.typeText("vim")
	h.key("enter")
	info := liveRun("r9", "vim", true)
	h.send(EventMsg{Event: runs.Event{Type: runs.EventSpawn, Run: info, Detail: "pty", Time: t0}})
	if sel, _ := h.m.list.Selected(); sel.ID != "r9" {
		t.Errorf("selected %s, want the new run", sel.ID)
	}
	if len(h.engine.called("Screen r9")) != 1 {
		t.Errorf("the new run's screen was not fetched: %q", h.engine.Calls())
	}
}

func TestRestartKeepsSpec(t *testing.T) {
	h := twoRuns(t)
	h.key("j", "R")
	got := h.engine.specs[0]
	if got.Shell != "tests" || got.Timeout != 10*time.Minute || got.Stdout != nil || got.Stderr != nil {
		t.Errorf("restart spec %+v", got)
	}
}

func TestRemoveDropsRun(t *testing.T) {
	h := twoRuns(t)
	h.key("j", "d", "y")
	if _, ok := h.m.list.Run("r2"); ok {
		t.Fatal("removed run still listed")
	}
	if sel, _ := h.m.list.Selected(); sel.ID != "r1" {
		t.Errorf("selection %s after remove", sel.ID)
	}
}

func TestQuitWithLiveRunsAsksThenShutsDown(t *testing.T) {
	h := twoRuns(t)
	msgs := h.key("q")
	if len(h.engine.called("Shutdown")) != 0 || h.m.mode != modeDialog {
		t.Fatal("quit with a live run did not ask")
	}
	if v := h.view(); !strings.Contains(v, "1 live run(s) will be ended") {
		t.Errorf("no question:\n%s", v)
	}
	h.key("n")
	if h.m.mode != modeBrowse || len(h.engine.called("Shutdown")) != 0 {
		t.Fatal("n did not keep Corral open")
	}
	msgs = h.key("q", "y")
	if len(h.engine.called("Shutdown")) != 1 || !hasMsg[tea.QuitMsg](msgs) {
		t.Errorf("y: shutdown %q, quit %v", h.engine.called("Shutdown"), hasMsg[tea.QuitMsg](msgs))
	}
}

func TestQuitProgressShownUntilShutdownReturns(t *testing.T) {
	h := twoRuns(t)
	h.key("q")
	next, cmd := h.m.Update(keyMsg("y"))
	h.m = next.(Model)
	if v := h.view(); !strings.Contains(v, "quitting: ending 1 run(s): claude (running)") {
		t.Errorf("no progress:\n%s", v)
	}
	exiting := liveRun("r1", "claude", true)
	exiting.State, exiting.Seq = runs.Exiting, 5
	h.send(EventMsg{Event: runs.Event{Type: runs.EventState, Run: exiting, Detail: "exiting", Time: t0}})
	if v := h.view(); !strings.Contains(v, "claude (exiting)") {
		t.Errorf("progress does not follow events:\n%s", v)
	}
	if msgs := h.collect(cmd); !hasMsg[ShutdownMsg](msgs) {
		t.Fatalf("the command did not shut down: %v", msgs)
	}
}

func TestQuitWithoutLiveRuns(t *testing.T) {
	engine := newFake()
	h := newHarness(t, engine, 80, 24, endedRun("r2", "tests"))
	msgs := h.key("q")
	if len(engine.called("Shutdown")) != 1 || !hasMsg[tea.QuitMsg](msgs) {
		t.Errorf("q with no live run: calls %q", engine.Calls())
	}
}

// The new-run form's worktree row: off by default; on, the run gets a worktree on
// the branch typed (empty: Corral's default); a branch without a worktree is refused.
func TestNewRunFormWorktree(t *testing.T) {
	h := twoRuns(t)
	h.key("n")
	h.typeText("codex")
	h.key("down", "down", "down", "down") // the worktree row
	h.typeText(" ")
	if v := h.view(); !strings.Contains(v, " off [on]") {
		t.Fatalf("worktree row not toggled:\n%s", v)
	}
	h.key("down")
	h.typeText("feat/x")
	h.key("enter")
	if len(h.engine.specs) != 1 || h.engine.specs[0].Worktree == nil || h.engine.specs[0].Worktree.Branch != "feat/x" {
		t.Fatalf("specs %+v: want a worktree on feat/x", h.engine.specs)
	}
	h.key("n")
	h.typeText("codex")
	h.key("enter")
	if len(h.engine.specs) != 2 || h.engine.specs[1].Worktree != nil {
		t.Fatalf("a second run without the toggle got a worktree: %+v", h.engine.specs[1].Worktree)
	}
}

// A run the form asked for that is refused (no run made: its worktree could not be
// made) opens the form again with its fields and the whole error, to be corrected.
func TestNewRunFormRefusedOpensAgain(t *testing.T) {
	h := twoRuns(t)
	h.engine.fail["Spawn"] = errors.New("not a git repository: /home/me/scratch (or any of its parents): run it in a repository, or without --worktree")
	id := h.engine.spawnID
	h.engine.spawnID = "" // refused: no run
	h.key("n")
	h.typeText("codex")
	h.key("down", "down", "down", "down")
	h.typeText(" ")
	h.key("enter")
	v := h.view()
	if !h.m.dlg.Open() || !strings.Contains(v, "codex") || !strings.Contains(v, " off [on]") ||
		!strings.Contains(v, "not a git repository: /home/me/scratch") || !strings.Contains(v, "without --worktree") {
		t.Fatalf("a refused spawn: dialog open %v:\n%s", h.m.dlg.Open(), v)
	}
	delete(h.engine.fail, "Spawn")
	h.engine.spawnID = id
	h.typeText(" ") // the focus is where it was: the worktree row, turned off
	h.key("enter")
	if len(h.engine.specs) != 2 || h.engine.specs[1].Shell != "codex" || h.engine.specs[1].Worktree != nil || h.m.dlg.Open() {
		t.Fatalf("the second try: specs %+v, dialog open %v", h.engine.specs, h.m.dlg.Open())
	}
}

// The new-run form's after row: the runs the new one waits for, named as corral
// spawn --depends-on names them; the server resolves each name (the newest run of
// it), a bad condition is refused inline and a name of no run by the server, the form
// open again with it.
func TestNewRunFormAfter(t *testing.T) {
	h := twoRuns(t)
	h.key("n")
	h.typeText("make serve")
	h.key("down", "down", "down", "down", "down", "down") // the after row
	h.typeText("claude=whenever")
	h.key("enter")
	if v := h.view(); !strings.Contains(v, "after:") || !strings.Contains(v, "whenever") || len(h.engine.specs) != 0 {
		t.Fatalf("a bad condition was not refused inline (specs %d):\n%s", len(h.engine.specs), v)
	}
	for range len("whenever") {
		h.key("backspace")
	}
	h.typeText("ended, tests")
	h.key("enter")
	if len(h.engine.specs) != 1 {
		t.Fatalf("spawned %d specs:\n%s", len(h.engine.specs), h.view())
	}
	got := h.engine.specs[0].DependsOn
	want := []runs.Dependency{{Name: "claude", Condition: runs.CondEnded}, {Name: "tests", Condition: runs.CondStarted}}
	if len(got) != 2 || got[0].Name != want[0].Name || got[0].Condition != want[0].Condition ||
		got[1].Name != want[1].Name || got[1].Condition != want[1].Condition {
		t.Fatalf("depends on %+v, want %+v", got, want)
	}
	h.key("n")
	h.typeText("make serve")
	h.key("down", "down", "down", "down", "down", "down")
	h.typeText("nosuch=ready")
	h.key("enter")
	if v := h.view(); len(h.engine.specs) != 1 || !h.m.dlg.Open() || !strings.Contains(v, "nosuch") {
		t.Fatalf("a dependency on no run: specs %d, dialog open %v:\n%s", len(h.engine.specs), h.m.dlg.Open(), v)
	}
}
