package ui

import (
	"time"

	"corral/runs"
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

// reasonShort is a reason as a list badge.
var reasonShort = map[runs.Reason]string{
	runs.Exit: "exit", runs.Signal: "signal", runs.ManualCancel: "cancel",
	runs.OverallTimeout: "timeout", runs.NoOutputTimeout: "no-output", runs.SpawnError: "spawn-err",
	runs.OwnershipEscape: "escape", runs.SupervisorShutdown: "shutdown",
	runs.OrphanReaped: "reaped", runs.Lost: "lost",
}

// badge is an ended run's reason and exit code or signal: "cancel sig15", "exit 0".
func badge(i runs.Info) string {
	s := reasonShort[i.Reason]
	if s == "" {
		s = i.Reason.String()
	}
	return s + common.ExitText(i, " ", " sig")
}
