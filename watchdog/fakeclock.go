package watchdog

import (
	"sync"
	"time"
)

// FakeClock is a manually advanced Clock. It is exported so other packages'
// tests can drive a Watchdog (or anything else taking a Clock) without sleeps.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	seq    uint64 // breaks ties between timers due at the same instant: first armed runs first
	timers []*fakeTimer
}

type fakeTimer struct {
	c   *FakeClock
	at  time.Time
	seq uint64
	f   func()
}

// NewFakeClock returns a FakeClock reading start.
func NewFakeClock(start time.Time) *FakeClock { return &FakeClock{now: start} }

// Now returns the clock's current time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc arranges for f to run during the Advance that reaches now+d. A
// timer with d <= 0 runs on the next Advance, never inside AfterFunc itself:
// callers typically hold their own lock while arming.
func (c *FakeClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &fakeTimer{c: c, at: c.now.Add(d), seq: c.seq, f: f}
	c.timers = append(c.timers, t)
	return t
}

// Stop reports whether it removed a pending timer, like (*time.Timer).Stop.
func (t *fakeTimer) Stop() bool {
	c := t.c
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, p := range c.timers {
		if p == t {
			c.timers = append(c.timers[:i], c.timers[i+1:]...)
			return true
		}
	}
	return false
}

// Advance moves time forward by d. Timers that fall due run synchronously in
// deadline order, each with Now reading its own deadline, and outside the
// clock's lock so they may call Now, AfterFunc and Stop. Timers armed by those
// callbacks run too if they fall due before the new time.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for t := c.popDue(end); t != nil; t = c.popDue(end) {
		t.f()
	}
}

// popDue removes and returns the earliest timer due by end, moving now to its
// deadline; with none due it moves now to end and returns nil.
func (c *FakeClock) popDue(end time.Time) *fakeTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := c.earliest()
	if i < 0 || c.timers[i].at.After(end) {
		if end.After(c.now) { // a concurrent Advance may already be further
			c.now = end
		}
		return nil
	}
	t := c.timers[i]
	c.timers = append(c.timers[:i], c.timers[i+1:]...)
	if t.at.After(c.now) {
		c.now = t.at
	}
	return t
}

// earliest returns the index of the next timer to run, or -1. A linear scan
// is plenty for the handful of timers a test has pending.
func (c *FakeClock) earliest() int {
	best := -1
	for i, t := range c.timers {
		if best < 0 || t.at.Before(c.timers[best].at) ||
			(t.at.Equal(c.timers[best].at) && t.seq < c.timers[best].seq) {
			best = i
		}
	}
	return best
}

// Timers returns the number of pending timers, so a test can wait until the
// code under test has armed something before advancing.
func (c *FakeClock) Timers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}
