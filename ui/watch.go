package ui

import (
	"time"

	"corral/ui/common"
	"corral/watchdog"
)

// tighter is the armed deadline with the least time left.
func tighter(w watchdog.State, now time.Time) (common.Countdown, bool) {
	o, okO := common.DeadlineAt(w.Overall, false, now)
	n, okN := common.DeadlineAt(w.NoOutput, w.Frozen, now)
	switch {
	case okO && okN:
		if n.Left < o.Left {
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
