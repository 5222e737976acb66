package ui

import (
	"time"

	"corral/ui/common"
	"corral/watchdog"
)

// warnFraction: a deadline warns in its last 20% (issue 4, "Details pane").
const warnFraction = 5 // Left <= Span/warnFraction

// countdown is one deadline as the UI shows it at a given time.
type countdown struct {
	left   time.Duration
	warn   bool
	frozen bool
}

// deadlineAt computes a deadline's time left at now: from its absolute time while it
// runs, so countdowns tick between snapshots; the frozen remainder while paused.
func deadlineAt(d watchdog.Deadline, frozen bool, now time.Time) (countdown, bool) {
	if !d.Armed {
		return countdown{}, false
	}
	c := countdown{left: d.Left, frozen: frozen}
	if !frozen && !d.At.IsZero() {
		c.left = max(d.At.Sub(now), 0)
	}
	c.warn = d.Span > 0 && c.left <= d.Span/warnFraction
	return c, true
}

// tighter is the armed deadline with the least time left.
func tighter(w watchdog.State, now time.Time) (countdown, bool) {
	o, okO := deadlineAt(w.Overall, false, now)
	n, okN := deadlineAt(w.NoOutput, w.Frozen, now)
	switch {
	case okO && okN:
		if n.left < o.left {
			return n, true
		}
		return o, true
	case okN:
		return n, true
	}
	return o, okO
}

// An ended run's badge, its exit text and its style live in ui/common, which every
// pane reads (the terminal pane's title too).
var (
	badge      = common.Badge
	exitText   = common.ExitText
	badgeStyle = common.BadgeStyle
)
