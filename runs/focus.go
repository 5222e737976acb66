package runs

// Who looks at a run: each attached UI (a viewer) says which run it shows while its
// terminal has focus. An app that asked for focus reports (DEC 1004) is told whether
// anyone looks (screen.SetFocus); a run nobody looks at gets its notifications.

// Focus says whether viewer looks at run id now.
func (s *Supervisor) Focus(id, viewer string, focused bool) error {
	r, err := s.get(id)
	if err != nil {
		return err
	}
	r.viewMu.Lock()
	if focused {
		if r.viewers == nil {
			r.viewers = map[string]bool{}
		}
		r.viewers[viewer] = true
	} else {
		delete(r.viewers, viewer)
	}
	looked := len(r.viewers) > 0
	r.viewMu.Unlock()
	if r.screen != nil {
		r.screen.SetFocus(looked)
	}
	if focused {
		s.Active(id, viewer) // the latest window-size policy follows it (winsize.go)
	}
	return nil
}

// Unfocus forgets viewer (an attached UI that went away): it looks at nothing, what
// its snapshots carried is forgotten, and its sizes no longer size any run.
func (s *Supervisor) Unfocus(viewer string) {
	s.forgetViewer(viewer)
	s.forgetWindows(viewer)
	s.mu.Lock()
	var rs []*run
	for _, r := range s.runs {
		rs = append(rs, r)
	}
	s.mu.Unlock()
	for _, r := range rs {
		r.viewMu.Lock()
		had := r.viewers[viewer]
		delete(r.viewers, viewer)
		looked := len(r.viewers) > 0
		r.viewMu.Unlock()
		if had && r.screen != nil {
			r.screen.SetFocus(looked)
		}
	}
}

// looked reports whether any viewer looks at r now.
func (r *run) looked() bool {
	r.viewMu.Lock()
	defer r.viewMu.Unlock()
	return len(r.viewers) > 0
}
