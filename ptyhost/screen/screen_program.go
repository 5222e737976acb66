package screen

// NewProgram makes the screen what a program started anew in it finds, as in a new
// terminal: a full reset (RIS: modes, margins and pen back to their defaults, the
// alternate screen left, the main screen's rows kept in the history), and nothing
// left of what the previous program said about itself (its title, its announcements
// and progress, its last notification). The count of bells and notifications goes
// on: it only grows, and a reader compares it with what it saw before.
func (s *Screen) NewProgram() {
	s.Write([]byte("\x1bc"))
	s.mu.Lock()
	t := &s.track
	t.title, t.notice = "", ""
	t.activity = activity{seq: t.activity.seq}
	s.mu.Unlock()
	s.version.Add(1)
}
