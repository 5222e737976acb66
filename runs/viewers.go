package runs

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	"corral/config"
	"corral/watchdog"
)

// The viewers of runs: each attached UI (a viewer) is sent each run's changes only
// (what it was last sent), says which run it looks at (focus), and asks for its pane's
// size (the window size of a run several viewers show). A viewer that goes away is
// forgotten by all three.

// What each viewer (an attached UI) was last sent of each run, so that its
// once-a-second snapshot carries only what changed. An attached UI decoding 50 runs
// every second, and the server encoding them, was most of an idle attached Corral's
// CPU; the UI keeps its rows and computes countdowns and ages from their absolute
// times between snapshots, so an unchanged run need not be sent again.

// sentRuns is, per viewer, what it was sent of each run.
type sentRuns struct {
	mu     sync.Mutex
	viewer map[string]map[string]sentRun
}

// sentRun is what a snapshot of a run said that a viewer cannot work out by itself:
// its every change (Seq) and its watchdog (which output and input move without one).
type sentRun struct {
	seq uint64
	wd  watchdog.State
}

func sentOf(i Info) sentRun { return sentRun{seq: i.Seq, wd: absolute(i.Watchdog)} }

// absolute is a watchdog state without what is computed at the snapshot from its
// absolute times (a viewer computes that itself), and without monotonic readings.
func absolute(w watchdog.State) watchdog.State {
	left := w.NoOutput.Left
	w.Overall.Left, w.NoOutput.Left, w.LastOutputAge = 0, 0, 0
	if w.Frozen { // a frozen remainder is not computed from anything: keep it
		w.NoOutput.Left = left
	}
	w.LastOutput = w.LastOutput.Round(0)
	w.Overall.At, w.NoOutput.At = w.Overall.At.Round(0), w.NoOutput.At.Round(0)
	return w
}

// Moved reports whether a fresh snapshot of a run says anything a viewer holding prev
// does not know: a viewer reads less often while nothing moves (the UI's refresh).
// What is computed at the snapshot from absolute times and the lease's renewal (a
// heartbeat, always well before it runs out) do not count.
func (i Info) Moved(prev Info) bool {
	still := func(x Info) Info {
		x.Watchdog = absolute(x.Watchdog)
		x.LastOutputAt, x.LeaseExpiresAt = x.LastOutputAt.Round(0), time.Time{}
		return x
	}
	return !reflect.DeepEqual(still(i), still(prev))
}

func (a sentRun) same(b sentRun) bool {
	return a.seq == b.seq && a.wd.Overall == b.wd.Overall && a.wd.NoOutput == b.wd.NoOutput &&
		a.wd.LastOutput.Equal(b.wd.LastOutput) && a.wd.Frozen == b.wd.Frozen &&
		a.wd.Awaiting == b.wd.Awaiting && a.wd.Fired == b.wd.Fired && a.wd.Stopped == b.wd.Stopped
}

// SnapshotFor is Snapshot for a viewer that keeps what it was sent: the runs that
// changed since its last call and the runs it looks at (whose usage, lease and agent
// rule move without an event), oldest first. all sends every run (a viewer that lost
// a reply, or its first call). What it was sent is forgotten with it (Unfocus).
func (s *Supervisor) SnapshotFor(viewer string, all bool) []Info {
	rs := s.ordered()
	s.sent.mu.Lock()
	defer s.sent.mu.Unlock()
	if s.sent.viewer == nil {
		s.sent.viewer = map[string]map[string]sentRun{}
	}
	last := s.sent.viewer[viewer]
	if last == nil || all {
		last = map[string]sentRun{}
	}
	next := make(map[string]sentRun, len(rs))
	var out []Info
	for _, r := range rs {
		i := r.snapshot()
		k := sentOf(i)
		next[i.ID] = k
		looked := r.looked()
		if prev, ok := last[i.ID]; ok && prev.same(k) && !looked {
			continue
		}
		if looked {
			r.usage(&i)
		}
		out = append(out, i)
	}
	s.sent.viewer[viewer] = next
	return out
}

// SentTo notes that viewer was sent rs another way (its subscription's first reply):
// its next SnapshotFor carries only what changed since. An attached UI's first
// snapshot was every run again, a second decode of the whole list right after its
// first frame (a second of CPU at a thousand runs on a loaded machine).
func (s *Supervisor) SentTo(viewer string, rs []Info) {
	next := make(map[string]sentRun, len(rs))
	for _, i := range rs {
		next[i.ID] = sentOf(i)
	}
	s.sent.mu.Lock()
	defer s.sent.mu.Unlock()
	if s.sent.viewer == nil {
		s.sent.viewer = map[string]map[string]sentRun{}
	}
	s.sent.viewer[viewer] = next
}

// forgetViewer drops what viewer was sent.
func (s *Supervisor) forgetViewer(viewer string) {
	s.sent.mu.Lock()
	delete(s.sent.viewer, viewer)
	s.sent.mu.Unlock()
}

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
		s.Active(id, viewer) // the latest window-size policy follows it (Active)
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
