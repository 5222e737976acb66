package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/ptyhost/hoptrace"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/pacer"
)

// Bridge forwards core events to the program: lifecycle events (spawn, state, cancel,
// pause, cleanup, exit, escape, watchdog) are sent as they come (must-deliver: send
// blocks); output events are coalesced into OutputMsgs, each carrying the set of runs
// that changed since the last, paced by a pacer.Pacer of frame interval frame (a lone
// change goes out at once, a busy run every few frames, the last change is always
// followed by a message), so a flood never becomes a message per read. Frame 0 passes
// every change on at once: an attached UI's events are a server's frames, paced there
// (pacer's package comment); the events already queued behind one still go in one
// message. The runs an attached UI's subscription lists after its first reply
// (api.EventListed) go as one ListedMsg, not a message each. Returns when events
// closes or ctx ends. events is a Subscription's C, or a Remote's Events.
func Bridge(ctx context.Context, events <-chan runs.Event, send func(tea.Msg), frame time.Duration) {
	b := &bridge{send: send, pace: pacer.New(frame), now: time.Now}
	defer b.pace.Stop()
	for {
		select {
		case e, ok := <-events:
			due, open := b.receive(e, ok)
			for n := len(events); open && n > 0; n-- { // what came with it: one message
				var more bool
				e, ok = <-events
				more, open = b.receive(e, ok)
				due = due || more
			}
			if due || !open {
				b.flush()
			}
			if !open {
				return
			}
		case <-b.pace.C():
			b.flush()
		case <-ctx.Done():
			return
		}
	}
}

// bridge is Bridge's state; it lives on the bridge goroutine only.
type bridge struct {
	send func(tea.Msg)
	pace *pacer.Pacer
	now  func() time.Time // time.Now; a test's own clock
	echo bool             // an echo is among the changes pending (runs.DetailEcho)
	// listed are the api.EventListed runs held until the last of them (or any other
	// event, or the end) comes, to go as one ListedMsg.
	listed []runs.Info
}

// receive handles one event (ok false: events closed): a lifecycle event is sent, an
// output event noted. It reports whether an OutputMsg is due now, and whether events
// is still open.
func (b *bridge) receive(e runs.Event, ok bool) (due, open bool) {
	if e.Type == api.EventListed && ok {
		b.list(e)
		return false, true
	}
	b.listedSoFar(false)
	switch {
	case !ok:
		return false, false
	case e.Type != runs.EventOutput:
		b.send(EventMsg{Event: e})
		return false, true
	default:
		change := b.pace.Change
		if e.Detail == runs.DetailEcho {
			change = b.pace.Echo
			b.echo = true
		}
		due := change(e.Run.ID, b.now())
		if !due && hoptrace.On() {
			at, _ := b.pace.Due()
			hoptrace.Mark("br.held", time.Until(at).String())
		}
		return due, true
	}
}

// list holds a listed run, or, for the event naming none, sends every run held: the
// list is whole.
func (b *bridge) list(e runs.Event) {
	if e.Run.ID != "" {
		b.listed = append(b.listed, e.Run)
		return
	}
	b.listedSoFar(true)
}

// listedSoFar sends the listed runs held, if any (whole: every run is listed, even if
// none is held).
func (b *bridge) listedSoFar(whole bool) {
	if len(b.listed) > 0 || whole {
		b.send(ListedMsg{Runs: b.listed, Whole: whole})
		b.listed = nil
	}
}

// flush sends the runs changed since the last OutputMsg, if any.
func (b *bridge) flush() {
	if ids := b.pace.Take(b.now()); len(ids) > 0 {
		hoptrace.Mark("br.msg", "")
		b.send(OutputMsg{IDs: ids, Echo: b.echo})
		b.echo = false
	}
}
