package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// Under corral replay the player's keys work outside focus: each writes its command's
// bytes to the selected run; the status line says what they do and help lists them.
// Elsewhere they do nothing of the kind, and space stays pause/resume of the run.
func TestReplayKeysOutsideFocus(t *testing.T) {
	engine := newFake()
	h := harnessWith(t, engine, Options{Initial: []runs.Info{liveRun("r1", "replay demo.cast", true)}, Replay: true}, 120, 30)
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeyRight}, {Code: tea.KeyLeft}, {Code: tea.KeyHome},
		{Code: tea.KeyEnd}, {Code: tea.KeySpace, Text: " "}, {Code: '+', Text: "+"}, {Code: '-', Text: "-"}} {
		h.send(k)
	}
	want := "\x1b[C\x1b[D\x1b[H\x1b[F +-"
	if got := string(engine.written["r1"]); got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
	if len(engine.called("Pause")) > 0 {
		t.Error("space paused the player's process instead of the playback")
	}
	status := statusOf(h.view())
	for _, hint := range []string{"space pause/resume", "← back 10 s", "→ on 10 s", "home restart", "end to the end", "faster", "slower"} {
		if !strings.Contains(status, hint) {
			t.Errorf("status line %q lacks %q", status, hint)
		}
	}
	h.key("?")
	if v := h.view(); !strings.Contains(v, "Replay (corral replay)") || !strings.Contains(v, "back 10 s") {
		t.Errorf("help lacks the replay keys:\n%s", v)
	}

	plain := newFake()
	p := newHarness(t, plain, 120, 30, liveRun("r1", "shell", true))
	p.send(tea.KeyPressMsg{Code: tea.KeyRight}, tea.KeyPressMsg{Code: tea.KeyEnd})
	if len(plain.written["r1"]) > 0 || strings.Contains(statusOf(p.view()), "back 10 s") {
		t.Errorf("replay keys acted outside corral replay: %q", plain.written["r1"])
	}
	p.key("?")
	if strings.Contains(p.view(), "Replay (corral replay)") {
		t.Error("help lists the replay keys outside corral replay")
	}
}

// The replay keys are overridden by action name like every other.
func TestReplayKeysOverridable(t *testing.T) {
	engine := newFake()
	h := harnessWith(t, engine, Options{Initial: []runs.Info{liveRun("r1", "replay", true)}, Replay: true,
		Keys: map[string][]string{"replay_forward": {"L"}, "replay_back": {"H"}}}, 120, 30)
	h.key("L", "H")
	h.send(tea.KeyPressMsg{Code: tea.KeyRight})
	if got := string(engine.written["r1"]); got != "\x1b[C\x1b[D" {
		t.Errorf("wrote %q", got)
	}
	if err := CheckKeys(map[string][]string{"replay_pause": {"+"}}); err == nil {
		t.Error("a key bound to two replay actions was accepted")
	}
}

// statusOf is a frame's last line: the status line.
func statusOf(frame string) string {
	lines := strings.Split(strings.TrimRight(frame, "\n"), "\n")
	return lines[len(lines)-1]
}
