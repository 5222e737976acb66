package runs

import (
	"errors"
	"fmt"
	"sync"

	"corral/config"
)

// A run's window size when several attached UIs (viewers) show it, as tmux's
// window-size option: each viewer asks for its pane's size (ResizeFor), says which
// run its pane shows (Show), and is active on a run when it resizes, shows, focuses
// or types into it. The run takes, by the policy (config.WindowLatest, WindowSmallest,
// WindowLargest), the size of the viewers that show it — of every viewer that asked
// when none shows it — and is sized again whenever that set or their sizes change:
// a viewer that stops showing the run, or goes away (Unfocus), no longer counts.

// WithWindowSize sets the window-size policy ("" is config.WindowLatest).
func WithWindowSize(policy string) Option { return func(s *Supervisor) { s.win.policy = policy } }

// viewerSize is the size a viewer asked for one run, and when it was last active on it.
type viewerSize struct {
	cols, rows uint16
	at         uint64 // windows.clock at its last activity: larger is later
}

// windowSize is the size a run takes from its viewers' sizes under policy; false when
// there is none. Smallest and largest take the columns and the rows each on its own,
// as tmux does; latest is the size of the viewer active last.
func windowSize(policy string, sizes []viewerSize) (cols, rows uint16, ok bool) {
	if len(sizes) == 0 {
		return 0, 0, false
	}
	out := sizes[0]
	for _, v := range sizes[1:] {
		switch policy {
		case config.WindowSmallest:
			out.cols, out.rows = min(out.cols, v.cols), min(out.rows, v.rows)
		case config.WindowLargest:
			out.cols, out.rows = max(out.cols, v.cols), max(out.rows, v.rows)
		default: // latest
			if v.at > out.at {
				out = v
			}
		}
	}
	return out.cols, out.rows, true
}

// windows is what the supervisor knows of its viewers' sizes.
type windows struct {
	// mu is held while a run is sized, so that two changes size it in their order.
	mu     sync.Mutex
	policy string
	clock  uint64
	shows  map[string]string                // viewer → the run its pane shows
	sizes  map[string]map[string]viewerSize // run → viewer → its size for it
}

// ResizeFor is viewer's pane size for run id: the run is sized by the policy over its
// viewers. A viewer "" is no viewer: the run takes the size (Resize).
func (s *Supervisor) ResizeFor(id, viewer string, cols, rows uint16) error {
	if viewer == "" {
		return s.Resize(id, cols, rows)
	}
	if cols == 0 || rows == 0 {
		return fmt.Errorf("resize %s: %dx%d: want at least 1x1", id, cols, rows)
	}
	w := &s.win
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sizes == nil {
		w.sizes = map[string]map[string]viewerSize{}
	}
	if w.sizes[id] == nil {
		w.sizes[id] = map[string]viewerSize{}
	}
	w.clock++
	w.sizes[id][viewer] = viewerSize{cols: cols, rows: rows, at: w.clock}
	return s.fitWindowLocked(id)
}

// Show says which run viewer's pane shows now ("" for none): the run it showed and
// the one it shows are sized again.
func (s *Supervisor) Show(viewer, id string) error {
	if id != "" {
		if _, err := s.get(id); err != nil {
			return err
		}
	}
	w := &s.win
	w.mu.Lock()
	defer w.mu.Unlock()
	old := w.shows[viewer]
	if id == "" {
		delete(w.shows, viewer)
	} else {
		if w.shows == nil {
			w.shows = map[string]string{}
		}
		w.shows[viewer] = id
	}
	w.touchLocked(id, viewer)
	if old != "" && old != id {
		s.fitWindowLocked(old)
	}
	if id != "" {
		s.fitWindowLocked(id) // an ended run is no error: it is only not sized
	}
	return nil
}

// Active notes viewer's activity on run id (keys typed, focus): under the latest
// policy the run takes its size.
func (s *Supervisor) Active(id, viewer string) {
	w := &s.win
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.touchLocked(id, viewer) && w.policy != config.WindowSmallest && w.policy != config.WindowLargest {
		s.fitWindowLocked(id)
	}
}

// touchLocked makes viewer the last active on run id, if it asked for a size for it;
// false when nothing changed.
func (w *windows) touchLocked(id, viewer string) bool {
	v, ok := w.sizes[id][viewer]
	if !ok || v.at == w.clock {
		return false
	}
	w.clock++
	v.at = w.clock
	w.sizes[id][viewer] = v
	return true
}

// forgetWindows drops viewer (gone): the runs it asked sizes for are sized again.
func (s *Supervisor) forgetWindows(viewer string) {
	w := &s.win
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.shows, viewer)
	for id, vs := range w.sizes {
		if _, ok := vs[viewer]; ok {
			delete(vs, viewer)
			s.fitWindowLocked(id)
		}
	}
}

// fitWindowLocked sizes run id by the policy over the viewers that show it, or every
// viewer that asked when none does. A run that is gone or ended is forgotten.
func (s *Supervisor) fitWindowLocked(id string) error {
	w := &s.win
	var shown, all []viewerSize
	for viewer, v := range w.sizes[id] {
		all = append(all, v)
		if w.shows[viewer] == id {
			shown = append(shown, v)
		}
	}
	if len(shown) == 0 {
		shown = all
	}
	cols, rows, ok := windowSize(w.policy, shown)
	if !ok {
		return nil
	}
	info, err := s.Info(id)
	if err == nil && info.Ended() {
		err = fmt.Errorf("%s: %w", id, ErrNotRunning)
	}
	if err != nil {
		delete(w.sizes, id)
		return err
	}
	if info.Kind != KindPTY || info.Spec.FixedSize || info.Cols == cols && info.Rows == rows {
		return nil
	}
	err = s.Resize(id, cols, rows)
	if errors.Is(err, ErrNotRunning) {
		delete(w.sizes, id)
	}
	return err
}
