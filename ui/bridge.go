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
// read and the last change is always followed by a frame. The first change after a
// quiet frame is sent at once, so a key's echo is not held back a frame. Returns when
// sub.C closes or ctx ends.
func Bridge(ctx context.Context, sub *runs.Subscription, send func(tea.Msg), frame time.Duration) {
	b := bridge{send: send, frame: frame, pending: map[string]struct{}{}}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case e, ok := <-sub.C:
			if !ok {
				b.flush()
				return
			}
			if e.Type != runs.EventOutput {
				send(EventMsg{Event: e})
				continue
			}
			if d, now := b.add(e.Run.ID); now {
				b.flush()
			} else if d > 0 {
				timer.Reset(d)
			}
		case <-timer.C:
			b.armed = false
			b.flush()
		case <-ctx.Done():
			return
		}
	}
}

// bridge is Bridge's coalescing state; it lives on the bridge goroutine only.
type bridge struct {
	send    func(tea.Msg)
	frame   time.Duration
	pending map[string]struct{}
	last    time.Time // when the last OutputMsg went
	armed   bool      // the timer will flush
}

// add notes a changed run. It reports whether to flush now, or else how long to arm
// the timer for (0: it is armed already).
func (b *bridge) add(id string) (time.Duration, bool) {
	b.pending[id] = struct{}{}
	if b.armed {
		return 0, false
	}
	wait := b.frame - time.Since(b.last)
	if wait <= 0 {
		return 0, true
	}
	b.armed = true
	return wait, false
}

func (b *bridge) flush() {
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
