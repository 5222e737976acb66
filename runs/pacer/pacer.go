// Package pacer decides when changes go out as frames. Two places draw what runs print
// and pace it with one Pacer each: the in-process UI's bridge (ui.Bridge: a
// supervisor's output events become Bubble Tea messages) and a server's stream to an
// attached UI (runs/server: frames of the screens the UI watches). An attached UI's
// output is paced once, by its server, where a frame costs the most (the screen is
// emulated and rendered, encoded and sent); its bridge then passes each frame on at
// once (the two in a row held an echo back up to two frames).
//
// The rule, for the changes of many keys (runs), one frame carrying every key changed
// since the last:
//
//   - a change after a quiet spell goes out at once, and so do the next few: a key's
//     echo often comes in two or three writes a millisecond apart (the first key of
//     a typed burst alone, the rest queued behind it; a shell that echoes, then
//     redraws), and holding the second for a frame was most of what an attached echo
//     waited (BENCHMARKS.md, typed echo);
//   - under load, at most one frame per frame interval: each frame spends an
//     interval of a budget that holds Burst of them (a token bucket);
//   - an echo (a change its caller knows answers input: Echo) goes out at once,
//     whatever the frames' budget, and does not make its key busy: the line before's
//     echo and answer, then this token's echo in three reads, spent the budget or made
//     the key busy at typing speed, and held the echo up to a frame (BusyFrames frames
//     when busy) — the typed echo's slowest tenth. Echoes have a budget of their own
//     (EchoRate, EchoBurst): past it (input written in a loop) they are paced, and
//     counted toward busy, as any change;
//   - a key whose output keeps coming (a flood, a log, an animation) is drawn every
//     BusyFrames frames (see BusyFrames), from its first frame as a busy key on: the
//     change that makes it busy still goes by the budget, so an app that echoes each
//     key in two writes at key repeat (four changes within 48 ms at every second
//     write) is not held (the bridge's rule before this held such a write up to
//     BusyFrames frames, in practice until the next key's echo);
//   - the last change is always followed by a frame: every pending change has a due
//     time, and C fires at the earliest.
//
// A Pacer belongs to one goroutine and reads no clock: its callers pass the time, so a
// test drives it with a clock of its own.
package pacer

import (
	"slices"
	"time"
)

// Burst is how many frames may go out at once after a quiet spell: over a span T at
// most T/interval + Burst frames go. A typed token's echo through `corral -- cat`
// came as one to three output events within 2 ms; with three the typed echo measured
// p50 20.5 ms and p90 30.7 against two's 22.0 and 38.7 (160 samples each, interleaved).
const Burst = 3

// Echoes (Echo) have a budget of their own: EchoRate times the frames' pace, with
// EchoBurst of them back to back. Typing, even a benchmark's tokens typed at once a
// line every 25 ms with every read an echo, stays within it; a program writing input in
// a loop to a run that answers each write is paced as output is past it, so over a
// span T at most EchoRate·T/interval + EchoBurst echoes go at once.
const (
	EchoRate  = 4
	EchoBurst = 10
)

// BusyFrames is how many frames apart a busy key is drawn: about 15 frames a second at
// 16 ms. A key is busy when busyEvents changes came within busyWindow (a flood, a log
// stream, an animation: over 60 a second); typing, even key repeat, stays below that,
// so an echo is never held. Profiled with ten runs streaming 100 KB/s of coloured logs
// into the real binary (.ci/bench), Bubble Tea's renderer, which parses and diffs the
// whole window every frame (about 6 ms at 186×51 here), took 61 % of the UI's CPU at 60
// frames a second and was still its largest cost at 20; scrolling text reads the same
// at 15. Busy is per key, so an echo in a quiet run still goes out at once while others
// stream. (One event within a frame was too eager a test: a stream written in 10 ms
// slices has gaps over 16 ms under load, and ten of them kept the UI at 46 frames a
// second.)
const (
	BusyFrames = 4
	busyEvents = 4
	busyWindow = 48 * time.Millisecond
)

// Pacer paces the frames of one consumer (a UI, a stream).
type Pacer struct {
	frame   time.Duration
	pending map[string]struct{}
	keys    map[string]*history
	last    time.Time // when the last frame went
	// spent is when the frames sent so far would have paid for themselves at one
	// interval each (a token bucket kept as one time): a frame may go at once while
	// spent is less than Burst intervals ahead of now.
	spent time.Time
	due   time.Time // when the pending changes go; zero while none waits
	// echoSpent is spent for echoes: their own budget (EchoRate, EchoBurst).
	echoSpent time.Time
	timer     *time.Timer
}

// New returns a Pacer of frame interval frame. Frame 0 paces nothing: every change
// goes at once (for changes that come paced already, an attached UI's frames).
func New(frame time.Duration) *Pacer {
	p := &Pacer{frame: frame, pending: map[string]struct{}{}, keys: map[string]*history{},
		timer: time.NewTimer(time.Hour)}
	p.timer.Stop()
	return p
}

// Change notes a change of key at now. It reports whether a frame is due now: the
// caller then calls Take. Otherwise C fires when it is due.
func (p *Pacer) Change(key string, now time.Time) bool {
	h := p.keys[key]
	if h == nil {
		h = &history{}
		p.keys[key] = h
	}
	h.note(now)
	p.pending[key] = struct{}{}
	due := p.spent.Add(-(Burst - 1) * p.frame)
	if h.busy && h.paced {
		due = p.last.Add(BusyFrames * p.frame)
	}
	if !due.After(now) {
		return true
	}
	if p.due.IsZero() || due.Before(p.due) {
		p.due = due
		p.timer.Reset(due.Sub(now))
	}
	return false
}

// Echo notes a change of key at now that answers input (what was typed coming back,
// runs.DetailEcho): a frame is due now, whatever the budget, and the change does not
// count toward the key being busy. Its frame still spends an interval of the budget,
// so output that keeps coming after it is paced as any. Echoes are bounded by the
// input, not by the pace: a few reads per write to the run (runs: echoReads), and
// writes come as fast as someone types; past their own budget (EchoRate, EchoBurst)
// they are paced as any change. Without it an echo in a few reads, after the echo and the
// answer of the line before (the Enter's), waited out the budget, or, four changes
// within busyWindow, was paced as busy: BusyFrames frames.
func (p *Pacer) Echo(key string, now time.Time) bool {
	step := p.frame / EchoRate
	if p.echoSpent.Add(-(EchoBurst - 1) * step).After(now) {
		return p.Change(key, now) // input in a loop: paced as output is
	}
	p.echoSpent = later(p.echoSpent, now).Add(step)
	if p.keys[key] == nil {
		p.keys[key] = &history{}
	}
	p.pending[key] = struct{}{}
	return true
}

// C fires when the pending changes are due: the caller then calls Take.
func (p *Pacer) C() <-chan time.Time { return p.timer.C }

// Due is when the pending changes go, if any waits for C.
func (p *Pacer) Due() (time.Time, bool) { return p.due, !p.due.IsZero() }

// Take starts a frame at now: it returns the keys changed since the last one, sorted
// (none when nothing changed: then no frame is counted).
func (p *Pacer) Take(now time.Time) []string {
	if !p.due.IsZero() {
		p.timer.Stop() // since Go 1.23 no stale tick is left in C
		p.due = time.Time{}
	}
	if len(p.pending) == 0 {
		return nil
	}
	ids := make([]string, 0, len(p.pending))
	for id := range p.pending {
		ids = append(ids, id)
		p.keys[id].paced = p.keys[id].busy
	}
	clear(p.pending)
	slices.Sort(ids)
	p.last = now
	p.spent = later(p.spent, now).Add(p.frame)
	p.forget(now)
	return ids
}

// Stop releases the timer; the Pacer is not used after it.
func (p *Pacer) Stop() { p.timer.Stop() }

// forget drops the history of keys quiet for busyWindow: their next changes are
// judged afresh (not busy until busyEvents within busyWindow, as the old history
// would have judged them), and a server that runs for weeks does not keep one for
// every run it ever had.
func (p *Pacer) forget(now time.Time) {
	for id, h := range p.keys {
		if now.Sub(h.newest()) >= busyWindow {
			delete(p.keys, id)
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// history is a key's last busyEvents changes and whether they make it busy.
type history struct {
	at    [busyEvents]time.Time
	i     int  // where the next change goes: at[i] is the oldest
	busy  bool // the last busyEvents changes came within busyWindow
	paced bool // it was busy when its last frame went: its frames go BusyFrames apart
}

func (h *history) note(now time.Time) {
	h.at[h.i] = now
	h.i = (h.i + 1) % busyEvents
	oldest := h.at[h.i]
	h.busy = !oldest.IsZero() && now.Sub(oldest) < busyWindow
}

func (h *history) newest() time.Time { return h.at[(h.i+busyEvents-1)%busyEvents] }
