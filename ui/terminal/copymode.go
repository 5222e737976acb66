package terminal

import (
	"encoding/base64"
)

// Copy mode: in scroll mode, a caret line moves with the scroll keys, a
// mark starts a selection, and the yank key copies the selected lines to the host's
// clipboard with an OSC 52 that Corral writes itself — only then, on the user's
// command. A hosted program's own OSC 52 never reaches the host (it could write the user's clipboard): the
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

// osc52 is the sequence that sets the host's clipboard to text.
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a"
}
