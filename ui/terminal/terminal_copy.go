package terminal

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/ui/common"
)

// The terminal pane in copy mode (copymode.go): the caret and mark, the selection,
// the yank; and the transcript as the pager and the save read it.

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
	s, km := t.scroll, *t.keys
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

// History is scroll mode's lines once loaded (they are not changed afterwards, so a
// command may read them).
func (t Terminal) History() ([]HistLine, bool) {
	if t.scroll == nil || t.scroll.loading || len(t.scroll.lines) == 0 {
		return nil, false
	}
	return t.scroll.lines, true
}

// copyKey handles a key in copy mode: yank, back to scrolling, or a caret move; it
// returns what to send the host terminal and a notice.
func (t *Terminal) copyKey(k tea.KeyPressMsg, inTmux bool) (tea.Cmd, string) {
	km := *t.keys
	switch {
	case key.Matches(k, km.Yank):
		return t.yank(inTmux)
	case key.Matches(k, km.Live, km.CopyMode):
		t.LeaveCopy()
	default:
		*t, _ = t.Update(k)
	}
	return nil, ""
}

// yank copies the selection with OSC 52, says what was copied, and leaves copy mode.
func (t *Terminal) yank(inTmux bool) (tea.Cmd, string) {
	text, n := t.Selection()
	t.LeaveCopy()
	if len(text) > maxCopyBytes {
		return nil, common.Clean(fmt.Sprintf("copy: %s is too much for the clipboard (the limit is %s); save the transcript instead",
			common.FmtBytes(int64(len(text))), common.FmtBytes(maxCopyBytes)))

	}
	notice := fmt.Sprintf("copied %d line(s), %s, to the clipboard (OSC 52): %s", n, common.FmtBytes(int64(len(text))),
		common.Trunc(common.Clean(strings.ReplaceAll(text, "\n", " ⏎ ")), 40))
	if inTmux { // tmux's default (external) drops an application's OSC 52
		notice += " · in tmux it needs set -g set-clipboard on"
	}
	return tea.Raw(osc52(text)), notice
}

// Caret is copy mode's caret line (-1 outside copy mode).
func (t Terminal) Caret() int {
	if !t.Copying() {
		return -1
	}
	return t.scroll.copy.caret
}
