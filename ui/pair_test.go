package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/ptyhost"
	"corral/runs"
)

// pairRuns is a parity pair: "probe (pty)" r1 with a screen, "probe (pipe)" r2.
func pairRuns(t *testing.T) *harness {
	t.Helper()
	engine := newFake()
	a, b := liveRun("r1", "probe (pty)", true), liveRun("r2", "probe (pipe)", false)
	a.Spec.Pair, b.Spec.Pair = "p1", "p1"
	engine.snap = []runs.Info{a, b}
	engine.screens["r1"] = screenWith(60, 20, "tty\r\n")
	engine.logs["r2"] = runs.Output{Chunks: []runs.Chunk{{Stream: ptyhost.Stdout, Data: []byte("pipe\n")}}}
	return newHarness(t, engine, 160, 40, a, b)
}

// Selecting either run of a pair shows both side by side, the PTY run on the left.
func TestPairShownSideBySide(t *testing.T) {
	h := pairRuns(t)
	goldenView(t, "frame_pair", h.m.View().Content, 160)
	v := h.view()
	line := lineWith(v, "probe (pty)")
	if !strings.Contains(line, "probe (pipe)") || strings.Index(line, "probe (pty)") > strings.Index(line, "probe (pipe)") {
		t.Fatalf("pair not side by side (pty left):\n%s", v)
	}
	h.key("j") // the pipe run: still both, still the PTY run left
	if line := lineWith(h.view(), "probe (pty)"); !strings.Contains(line, "probe (pipe)") ||
		strings.Index(line, "probe (pty)") > strings.Index(line, "probe (pipe)") {
		t.Fatalf("pair from its pipe run:\n%s", h.view())
	}
}

// lineWith is the first line holding both pane titles' text, or "".
func lineWith(v, s string) string {
	for _, l := range strings.Split(v, "\n") {
		if strings.Count(l, "probe (") == 2 && strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// In focus, a key goes to both runs of the pair; b makes it go to the selected one.
func TestPairKeysGoToBothOrOne(t *testing.T) {
	h := pairRuns(t)
	h.key("enter", "x", "ctrl+]")
	if h.engine.written["r1"] == nil || string(h.engine.written["r2"]) != "x" {
		t.Fatalf("written %q", h.engine.written)
	}
	h.key("b", "enter", "y", "ctrl+]")
	if string(h.engine.written["r1"]) != "xy" || string(h.engine.written["r2"]) != "x" {
		t.Fatalf("with keys to one: written %q", h.engine.written)
	}
}

// Once both runs ended the pane shows what differs; v switches to the screens.
func TestPairDiffWhenBothEnded(t *testing.T) {
	h := pairRuns(t)
	h.engine.ptyOutput("r1", runs.Output{Chunks: []runs.Chunk{{Data: []byte("tty\r\n")}}})
	for _, id := range []string{"r1", "r2"} {
		i, _ := h.m.list.Run(id)
		i.State, i.Reason, i.Seq, i.EndedAt = runs.Exited, runs.Exit, i.Seq+10, t0
		code := 0
		i.ExitCode = &code
		i.Cleanup.VerifiedEmpty = true
		h.send(EventMsg{Event: runs.Event{Type: runs.EventExit, Run: i, Time: t0}})
	}
	goldenView(t, "frame_pair_diff", h.m.View().Content, 160)
	v := h.view()
	if !strings.Contains(v, "Parity: 1 difference(s)") || !strings.Contains(v, "-tty") || !strings.Contains(v, "+pipe") {
		t.Fatalf("no comparison:\n%s", v)
	}
	h.key("v")
	if v := h.view(); strings.Contains(v, "Parity:") {
		t.Fatalf("v did not switch to the screens:\n%s", v)
	}
}

// The new-run form's kind row cycles pty, pipe, parity; parity starts a pair.
func TestFormStartsAPair(t *testing.T) {
	h := twoRuns(t)
	h.key("n")
	h.send(tea.PasteMsg{Content: "echo hi"})
	h.key("tab", "tab", "enter")
	specs := h.engine.specs
	if len(specs) != 2 || !specs[0].PTY || specs[1].PTY || specs[0].Pair == "" || specs[0].Pair != specs[1].Pair ||
		specs[0].Name != "echo (pty)" || specs[1].Name != "echo (pipe)" {
		t.Fatalf("spawned %+v", specs)
	}
}

// The pipe run of a pair that printed and ended before it was listed gets its log read
// when it is listed: no output event will come to ask for it (a CI failure showed the
// pipe half of a pair stay "…").
func TestPairPartnerListedAfterItsOutput(t *testing.T) {
	engine := newFake()
	a, b := liveRun("r1", "probe (pty)", true), liveRun("r2", "probe (pipe)", false)
	a.Spec.Pair, b.Spec.Pair = "p1", "p1"
	engine.snap = []runs.Info{a}
	engine.screens["r1"] = screenWith(60, 20, "tty\r\n")
	engine.logs["r2"] = runs.Output{Chunks: []runs.Chunk{{Stream: ptyhost.Stdout, Data: []byte("pipe-side\n")}}}
	h := newHarness(t, engine, 160, 40, a)
	b.State, b.Reason = runs.Exited, runs.Exit
	h.send(EventMsg{Event: runs.Event{Type: runs.EventExit, Run: b, Time: t0}})
	if v := h.view(); !strings.Contains(v, "pipe-side") {
		t.Fatalf("the partner's log was never read:\n%s", v)
	}
}
