package castplay

import (
	"fmt"
	"sort"
	"time"
)

// Step is how far the seek keys jump.
const Step = 10 * time.Second

// Speeds bound the playback speed: each faster or slower key doubles or halves it.
const (
	MinSpeed = 1.0 / 16
	MaxSpeed = 64.0
)

// Position is where playback of an Index is: the recording's clock (which runs at
// Speed while not paused) and the first event not yet played. It does no I/O and reads
// no clock: every method takes the wall time, so a test drives it exactly.
type Position struct {
	ix     *Index
	next   int           // first event not yet played
	base   time.Duration // the recording's time at wall time since
	since  time.Time
	Speed  float64
	Paused bool
}

// NewPosition is the start of ix at speed, playing from now.
func NewPosition(ix *Index, speed float64, now time.Time) *Position {
	return &Position{ix: ix, since: now, Speed: min(max(speed, MinSpeed), MaxSpeed)}
}

// At is the recording's time at wall time now, within [0, Total].
func (p *Position) At(now time.Time) time.Duration {
	at := p.base
	if !p.Paused {
		at += time.Duration(float64(now.Sub(p.since)) * p.Speed)
	}
	return min(max(at, 0), p.ix.Total())
}

// Ended reports whether every event was played.
func (p *Position) Ended() bool { return p.next >= len(p.ix.Events) }

// Due is the range of events [from, to) whose time has come at now; the caller plays
// them and nothing else moves. wait is the wall time until the next one (0 when
// paused or ended: nothing is due until a key).
func (p *Position) Due(now time.Time) (from, to int, wait time.Duration) {
	at := p.At(now)
	from, to = p.next, p.after(at)
	p.next = to
	if p.Paused || p.Ended() {
		return from, to, 0
	}
	return from, to, time.Duration(float64(p.ix.Events[p.next].At-at) / p.Speed)
}

// after is the index of the first event later than at (events at at are played).
func (p *Position) after(at time.Duration) int {
	return sort.Search(len(p.ix.Events), func(i int) bool { return p.ix.Events[i].At > at })
}

// Seek moves to the recording's time target (clamped to the recording). Events up to
// it are played at once: from next on, or, when target is before what was played,
// from the start on a reset screen (reset: clear it and restore the header's size).
func (p *Position) Seek(target time.Duration, now time.Time) (from, to int, reset bool) {
	target = min(max(target, 0), p.ix.Total())
	to = p.after(target)
	if to < p.next {
		reset, p.next = true, 0
	}
	from, p.next = p.next, to
	p.rebase(target, now)
	return from, to, reset
}

// Toggle pauses or resumes. Resuming at the end starts again from the beginning, as a
// player does.
func (p *Position) Toggle(now time.Time) (restart bool) {
	p.rebase(p.At(now), now)
	if p.Ended() && p.At(now) >= p.ix.Total() {
		p.Paused = false
		return true
	}
	p.Paused = !p.Paused
	return false
}

// Faster doubles the speed; Slower halves it; the recording's time does not jump.
func (p *Position) Faster(now time.Time) { p.setSpeed(p.Speed*2, now) }
func (p *Position) Slower(now time.Time) { p.setSpeed(p.Speed/2, now) }

func (p *Position) setSpeed(s float64, now time.Time) {
	p.rebase(p.At(now), now)
	p.Speed = min(max(s, MinSpeed), MaxSpeed)
}

func (p *Position) rebase(at time.Duration, now time.Time) { p.base, p.since = at, now }

// Progress is the line the player shows as its terminal's title, which the UI puts in
// the pane's title: "0:12 / 1:30 ×2 paused".
func (p *Position) Progress(now time.Time) string {
	s := clock(p.At(now)) + " / " + clock(p.ix.Total())
	if p.Speed != 1 {
		s += " ×" + speed(p.Speed)
	}
	switch {
	case p.Ended() && p.At(now) >= p.ix.Total():
		s += " · end of recording"
	case p.Paused:
		s += " · paused"
	}
	return s
}

// clock is m:ss (h:mm:ss from an hour), rounded down: the display never runs ahead.
func clock(d time.Duration) string {
	s := int64(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

func speed(s float64) string {
	if s >= 1 {
		return fmt.Sprintf("%g", s)
	}
	return fmt.Sprintf("1/%g", 1/s)
}
