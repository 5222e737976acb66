package common

import "time"

// Changes is when the first of the figures a pane drew against its clock (an age, a
// countdown) changes: the UI's clock wakes then, and not every second while nothing
// drawn shows seconds. The zero value notes nothing.
type Changes struct{ at time.Time }

// At notes a figure that changes at t. It is taken at the whole second from t on: the
// figures of many runs, each turning at a phase of its own, are drawn together, and
// the clock wakes at most once a second for them.
func (c *Changes) At(t time.Time) {
	if s := t.Truncate(time.Second); s.Before(t) {
		t = s.Add(time.Second)
	}
	if !t.IsZero() && (c.at.IsZero() || t.Before(c.at)) {
		c.at = t
	}
}

// Age notes an age drawn by FmtAge at now: it changes when it reaches its unit's next
// step (a second, a minute, an hour, a day).
func (c *Changes) Age(now time.Time, d time.Duration) {
	u := time.Second
	switch {
	case d >= 48*time.Hour:
		u = 24 * time.Hour
	case d >= time.Hour:
		u = time.Hour
	case d >= time.Minute:
		u = time.Minute
	}
	if d < 0 {
		c.At(now.Add(u - d)) // "0s" until it is a second old
		return
	}
	c.At(now.Add(u - d%u))
}

// Left notes a running countdown drawn by FmtLeft at now: seconds under an hour,
// minutes above; nothing once it is down to zero.
func (c *Changes) Left(now time.Time, d time.Duration) {
	if d <= 0 {
		return
	}
	u := time.Second
	if d > time.Hour {
		u = time.Minute
	}
	wait := d % u
	if wait == 0 {
		wait = time.Millisecond // it turns at once: "0:05" is 0:04 a moment later
	}
	c.At(now.Add(wait))
}

// Countdown notes a deadline's countdown drawn at now: its figure while it runs (see
// Left), and the moment it begins to warn, whose colour turns then (a deadline of
// hours warns at a time its figure in minutes may not turn).
func (c *Changes) Countdown(now time.Time, cd Countdown) {
	if !cd.Running {
		return
	}
	c.Left(now, cd.Left)
	if cd.WarnIn > 0 {
		c.At(now.Add(cd.WarnIn))
	}
}

// Next is when the first figure noted changes, if it is after now (zero if none is):
// a time already past belongs to a rendering no longer shown (a pane drawn again
// when its time comes notes afresh).
func (c Changes) Next(now time.Time) time.Time {
	if c.at.After(now) {
		return c.at
	}
	return time.Time{}
}
