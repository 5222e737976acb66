package ui

import (
	"context"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// Bridge forwards core events to the program: lifecycle events (spawn, state, cancel,
// pause, cleanup, exit, escape, watchdog) are sent as they come (must-deliver: send
// blocks); output events are coalesced: at most one OutputMsg per frame, carrying the
// set of runs that changed since the last one, so a flood never becomes a message per
// read and the last change is always followed by a frame. A change of a run that was
// quiet for a frame is sent at once, so a key's echo is not held back; a run whose
// output keeps coming is drawn every busyFrames frames. Returns when events closes
// or ctx ends. events is a Subscription's C, or a Remote's Events.
func Bridge(ctx context.Context, events <-chan runs.Event, send func(tea.Msg), frame time.Duration) {
	b := newBridge(send, frame)
	defer b.timer.Stop()
	for {
		select {
		case e, ok := <-events:
			if !ok {
				b.flush()
				return
			}
			if e.Type != runs.EventOutput {
				send(EventMsg{Event: e})
				continue
			}
			b.add(e.Run.ID, time.Now())
		case <-b.timer.C:
			b.armed = false
			b.flush()
		case <-ctx.Done():
			return
		}
	}
}

// busyFrames is how many frames apart a busy run is drawn: about 15 frames a second
// at 16 ms. A run is busy when busyEvents output events came within busyWindow (a
// flood, a log stream, an animation: over 60 a second); typing, even key repeat,
// stays below that, so an echo is never held. Profiled with ten runs streaming
// 100 KB/s of coloured logs into the real binary (.ci/bench, issue 6), Bubble Tea's
// renderer, which parses and diffs the whole window every frame (about 6 ms at 186×51
// here), took 61 % of the UI's CPU at 60 frames a second and was still its largest
// cost at 20; scrolling text reads the same at 15. Busy is per run, so an echo in a
// quiet focused run still goes out at once while others stream. (One event within a
// frame was too eager a test: a stream written in 10 ms slices has gaps over 16 ms
// under load, and ten of them kept the UI at 46 frames a second.)
const (
	busyFrames = 4
	busyEvents = 4
	busyWindow = 48 * time.Millisecond
)

// bridge is Bridge's coalescing state; it lives on the bridge goroutine only.
type bridge struct {
	send    func(tea.Msg)
	frame   time.Duration
	pending map[string]struct{}
	seen    map[string]*recent // each run's last output events
	last    time.Time          // when the last OutputMsg went
	timer   *time.Timer
	armed   bool      // the timer will flush
	due     time.Time // when, if armed
}

func newBridge(send func(tea.Msg), frame time.Duration) *bridge {
	b := &bridge{send: send, frame: frame, pending: map[string]struct{}{},
		seen: map[string]*recent{}, timer: time.NewTimer(time.Hour)}
	b.timer.Stop()
	return b
}

// add notes a change of run id at now and flushes at once, or arms the timer for
// the run's next frame unless it is armed sooner.
func (b *bridge) add(id string, now time.Time) {
	r := b.seen[id]
	if r == nil {
		r = &recent{}
		b.seen[id] = r
	}
	b.pending[id] = struct{}{}
	gap := b.frame
	if r.note(now) < busyWindow {
		gap = busyFrames * b.frame
	}
	due := b.last.Add(gap)
	switch {
	case !due.After(now):
		b.flush()
	case !b.armed || due.Before(b.due):
		b.armed, b.due = true, due
		b.timer.Reset(due.Sub(now))
	}
}

// recent is a ring of a run's last busyEvents output events.
type recent struct {
	at [busyEvents]time.Time
	i  int
}

// note records an event at now and returns how long the last busyEvents took (for
// ever until there were that many).
func (r *recent) note(now time.Time) time.Duration {
	r.at[r.i] = now
	r.i = (r.i + 1) % busyEvents
	if oldest := r.at[r.i]; !oldest.IsZero() {
		return now.Sub(oldest)
	}
	return time.Duration(1<<63 - 1)
}

func (b *bridge) flush() {
	if b.armed {
		b.timer.Stop() // since Go 1.23 no stale tick is left in timer.C
		b.armed = false
	}
	if len(b.pending) == 0 {
		return
	}
	ids := make([]string, 0, len(b.pending))
	for id := range b.pending {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	clear(b.pending)
	b.send(OutputMsg{IDs: ids})
	b.last = time.Now()
}
