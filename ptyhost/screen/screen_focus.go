package screen

// Focus reporting (DEC mode 1004): an app that asks for it is told when its pane
// gains and loses focus, ESC [ I and ESC [ O, as xterm tells it of its window. Agents
// act on it: codex sends its notifications only while unfocused. Corral
// says which pane is looked at (SetFocus); a pane nobody looks at is unfocused, and an
// app that turns reporting on is told at once where it stands, so an agent nobody
// watches knows it.

// vtFocus is the app's mode and what it was last told.
type vtFocus struct {
	known   bool // SetFocus was called
	focused bool
}

func focusReport(focused bool) string {
	if focused {
		return "\x1b[I"
	}
	return "\x1b[O"
}

// focusMode follows "CSI ? 1004 h/l" as it is scanned (mu and wmu held, inside Write).
func (s *Screen) focusMode(set bool) {
	if set && !s.track.focus && s.focus.known {
		s.replies = append(s.replies, focusReport(s.focus.focused)...)
	}
	s.track.focus = set
}

// SetFocus says whether the run's pane is looked at. An app that asked for focus
// reports gets one when that changes.
func (s *Screen) SetFocus(focused bool) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.Lock()
	changed := !s.focus.known || s.focus.focused != focused
	s.focus = vtFocus{known: true, focused: focused}
	send, w := changed && s.track.focus, s.reply
	s.mu.Unlock()
	if send && w != nil {
		_, _ = w.Write([]byte(focusReport(focused))) // best effort, like every answer
	}
}
