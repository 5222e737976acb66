package ui

import (
	"encoding/base64"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Copy mode (issue 12.7): in scroll mode, a caret line moves with the scroll keys, a
// mark starts a selection, and the yank key copies the selected lines to the host's
// clipboard with an OSC 52 that Corral writes itself — only then, on the user's
// command. A hosted program's own OSC 52 never reaches the host (DESIGN §7): the
// screen and the transcript renderer drop it.

// maxCopyBytes bounds one copy: terminals refuse (or choke on) larger OSC 52 payloads.
const maxCopyBytes = 1 << 20

// copySel is copy mode's caret and mark, as history line indexes.
type copySel struct {
	on     bool
	caret  int
	anchor int // -1: no mark, the caret's line alone is copied
}

// selected reports whether line i is in the marked selection.
func (c copySel) selected(i int) bool {
	if !c.on || c.anchor < 0 {
		return false
	}
	return i >= min(c.anchor, c.caret) && i <= max(c.anchor, c.caret)
}

// span is the first and last line a yank copies.
func (c copySel) span() (int, int) {
	if c.anchor < 0 {
		return c.caret, c.caret
	}
	return min(c.anchor, c.caret), max(c.anchor, c.caret)
}

// StartCopy puts the caret on the window's last line; false while there is nothing
// to copy (the history is loading or empty).
func (t *Terminal) StartCopy() bool {
	s := t.scroll
	if s == nil || s.loading || len(s.lines) == 0 {
		return false
	}
	s.copy = copySel{on: true, caret: min(s.top+s.rows-1, len(s.lines)-1), anchor: -1}
	t.ver++
	return true
}

// Copying reports whether the pane is in copy mode.
func (t Terminal) Copying() bool { return t.scroll != nil && t.scroll.copy.on }

// LeaveCopy goes back to scrolling.
func (t *Terminal) LeaveCopy() {
	if t.scroll != nil {
		t.scroll.copy = copySel{}
		t.ver++
	}
}

// copyMove moves the caret with the scroll keys (the window follows it) and sets or
// clears the mark.
func (t *Terminal) copyMove(k tea.KeyPressMsg) {
	s, km := t.scroll, t.c.Keys
	c := &s.copy
	caret, moved := s.motion(k, km, c.caret, len(s.lines)-1)
	c.caret = caret
	switch {
	case moved:
	case key.Matches(k, km.Mark) && c.anchor >= 0:
		c.anchor = -1
	case key.Matches(k, km.Mark):
		c.anchor = c.caret
	default:
		return
	}
	c.caret = max(min(c.caret, len(s.lines)-1), 0)
	s.top = min(max(s.top, c.caret-s.rows+1), c.caret)
	s.clamp()
	t.ver++
}

// Selection is the text copy mode would copy: the lines from the mark to the caret,
// without colour, and how many lines that is.
func (t Terminal) Selection() (string, int) {
	if !t.Copying() {
		return "", 0
	}
	a, b := t.scroll.copy.span()
	texts := make([]string, 0, b-a+1)
	for _, l := range t.scroll.lines[a : b+1] {
		texts = append(texts, l.Text)
	}
	return strings.Join(texts, "\n"), b - a + 1
}

// osc52 is the sequence that sets the host's clipboard to text.
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a"
}

// copyKey handles a key in copy mode: yank, back to scrolling, or a caret move.
func (m Model) copyKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	km := m.c.Keys
	switch {
	case key.Matches(k, km.Yank):
		return m.yank()
	case key.Matches(k, km.Live, km.CopyMode):
		m.term.LeaveCopy()
	default:
		m.term, _ = m.term.Update(k)
	}
	return m, nil
}

// yank copies the selection with OSC 52, says what was copied, and leaves copy mode.
func (m Model) yank() (tea.Model, tea.Cmd) {
	text, n := m.term.Selection()
	m.term.LeaveCopy()
	if len(text) > maxCopyBytes {
		return m.note("copy: %s is too much for the clipboard (the limit is %s); save the transcript instead",
			fmtBytes(int64(len(text))), fmtBytes(maxCopyBytes))
	}
	m.flash = fmt.Sprintf("copied %d line(s), %s, to the clipboard (OSC 52): %s", n, fmtBytes(int64(len(text))),
		trunc(clean(strings.ReplaceAll(text, "\n", " ⏎ ")), 40))
	if m.inTmux { // tmux's default (external) drops an application's OSC 52
		m.flash += " · in tmux it needs set -g set-clipboard on"
	}
	return m, tea.Raw(osc52(text))
}
