package runs

import (
	"reflect"
	"sync"
	"time"

	"corral/watchdog"
)

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
	s.mu.Lock()
	rs := make([]*run, 0, len(s.order))
	for _, id := range s.order {
		rs = append(rs, s.runs[id])
	}
	s.mu.Unlock()
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
