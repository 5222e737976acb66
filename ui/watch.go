package ui

import (
	"fmt"
	"time"

	"corral/runs"
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
	return s + exitText(i, " ", " sig")
}

// exitText is the exit code or signal, after sep: "1", or sig+"9".
func exitText(i runs.Info, sep, sig string) string {
	switch {
	case i.ExitCode != nil:
		return fmt.Sprintf("%s%d", sep, *i.ExitCode)
	case i.Signal != 0:
		return fmt.Sprintf("%s%d", sig, i.Signal)
	}
	return ""
}

// cleanExit: ended on its own with status 0.
func cleanExit(i runs.Info) bool {
	return i.Reason == runs.Exit && i.ExitCode != nil && *i.ExitCode == 0
}

func badgeStyle(st common.Styles, i runs.Info) common.Style {
	if cleanExit(i) {
		return st.OK
	}
	return st.Danger
}
