package ui

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// rawOf is what the tea.Raw messages among msgs would write to the terminal.
func rawOf(msgs []tea.Msg) []string {
	var out []string
	for _, m := range msgs {
		if r, ok := m.(tea.RawMsg); ok {
			out = append(out, r.Msg.(string))
		}
	}
	return out
}

// Copy mode: the caret starts on the window's last line, v marks, the caret moves,
// y writes exactly one OSC 52 with the base64 of the selected lines (no colour, no
// hosted escape) and says what it copied.
func TestCopyModeYanksOSC52(t *testing.T) {
	h := twoRuns(t)
	h.engine.ptyOutput("r1", runs.Output{Chunks: []runs.Chunk{{Data: []byte(
		"alpha\r\n\x1b[31mbeta\x1b[0m\r\n\x1b]52;c;aG9zdGVk\agamma\r\n")}}})
	if msgs := h.key("pgup", "c", "y"); len(rawOf(msgs)) != 1 {
		t.Fatalf("y without a mark wrote %q", rawOf(msgs))
	} else if want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte("gamma")) + "\a"; rawOf(msgs)[0] != want {
		t.Fatalf("y without a mark wrote %q, want %q (the caret's line)", rawOf(msgs)[0], want)
	}
	if h.m.term.Copying() || h.m.mode != modeScroll {
		t.Error("y did not go back to scrolling")
	}
	msgs := h.key("c", "v", "k")
	if v := h.view(); !strings.Contains(v, "COPY") {
		t.Errorf("no copy mode title:\n%s", v)
	}
	msgs = append(msgs, h.key("y")...)
	want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte("beta\ngamma")) + "\a"
	if got := rawOf(msgs); len(got) != 1 || got[0] != want {
		t.Fatalf("yank wrote %q, want exactly %q", got, want)
	}
	if v := h.view(); !strings.Contains(v, "copied 2 line(s), 10B, to the clipboard (OSC 52): beta ⏎ gamma") {
		t.Errorf("the status line does not say what was copied:\n%s", v)
	}
	h.key("c", "esc")
	if h.m.term.Copying() || h.m.mode != modeScroll {
		t.Error("esc did not leave copy mode for scrolling")
	}
	h.key("esc")
	if h.m.mode != modeBrowse {
		t.Error("esc did not go back to live")
	}
}

// Nothing but the yank key writes to the host: moving, marking and leaving copy mode
// produce no OSC 52.
func TestCopyModeWritesOnlyOnYank(t *testing.T) {
	h := twoRuns(t)
	h.engine.ptyOutput("r1", histLog(50))
	msgs := h.key("pgup", "c", "v", "k", "k", "pgup", "g", "G", "v", "esc", "esc")
	if got := rawOf(msgs); len(got) != 0 {
		t.Errorf("wrote %q without a yank", got)
	}
}

// The caret moves the window with it.
func TestCopyModeCaretMovesWindow(t *testing.T) {
	h := twoRuns(t)
	h.engine.ptyOutput("r1", histLog(100))
	h.key("pgup", "c", "g")
	if c := h.m.term.Caret(); c != 0 || scrollTop(h.m.term) != 0 {
		t.Fatalf("g: caret %d top %d, want 0 0", c, scrollTop(h.m.term))
	}
	if v := h.view(); !strings.Contains(v, "▶line 000") {
		t.Errorf("the caret is not drawn:\n%s", v)
	}
	h.key("G")
	if top, rows := h.m.term.Window(); h.m.term.Caret() != 99 || top+rows != 100 {
		t.Errorf("G: caret %d window %d+%d, want 99 at the bottom", h.m.term.Caret(), top, rows)
	}
}

// Save writes the transcript as plain text to the current directory and says where.
func TestSaveTranscript(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	h := twoRuns(t)
	h.engine.ptyOutput("r1", runs.Output{Chunks: []runs.Chunk{{Data: []byte("one\r\n\x1b[1;32mtwo\x1b[m\r\n")}}})
	h.key("pgup", "w")
	path := filepath.Join(dir, "corral-claude-r1.txt")
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "one\ntwo\n" {
		t.Fatalf("saved %q (%v), want the plain lines", b, err)
	}
	if v := h.view(); !strings.Contains(v, "saved to "+path+" (2 lines)") {
		t.Errorf("the status line does not say where:\n%s", v)
	}
}

// Inside tmux the status line says what tmux needs for the copy to reach the
// clipboard: its default set-clipboard (external) drops an application's OSC 52.
func TestCopyModeInTmuxSaysWhatItNeeds(t *testing.T) {
	h := twoRuns(t)
	h.m.inTmux = true
	h.engine.ptyOutput("r1", runs.Output{Chunks: []runs.Chunk{{Data: []byte("alpha\r\n")}}})
	if msgs := h.key("pgup", "c", "y"); len(rawOf(msgs)) != 1 {
		t.Fatalf("y wrote %q", rawOf(msgs))
	}
	if v := h.view(); !strings.Contains(v, "set -g set-clipboard on") {
		t.Errorf("the status line does not say what tmux needs:\n%s", v)
	}
}

// The copy key outside scroll mode opens the transcript with copy mode's caret on its
// last line (review: it did nothing there, though help lists it).
func TestCopyKeyFromLive(t *testing.T) {
	h := twoRuns(t)
	h.engine.ptyOutput("r1", runs.Output{Chunks: []runs.Chunk{{Data: []byte("alpha\r\nomega\r\n")}}})
	h.key("c")
	if h.m.mode != modeScroll || !h.m.term.Copying() {
		t.Fatalf("c from live: mode %v, copying %v", h.m.mode, h.m.term.Copying())
	}
	want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte("omega")) + "\a"
	if got := rawOf(h.key("y")); len(got) != 1 || got[0] != want {
		t.Fatalf("y wrote %q, want %q", got, want)
	}
}
