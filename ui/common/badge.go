package common

import (
	"fmt"

	"corral/runs"
	"corral/runs/workspace"
)

// reasonShort is a reason as a list badge.
var reasonShort = map[runs.Reason]string{
	runs.Exit: "exit", runs.Signal: "signal", runs.ManualCancel: "cancel",
	runs.OverallTimeout: "timeout", runs.NoOutputTimeout: "no-output", runs.SpawnError: "spawn-err",
	runs.OwnershipEscape: "escape", runs.SupervisorShutdown: "shutdown",
	runs.OrphanReaped: "reaped", runs.Lost: "lost", runs.SetupError: "setup-err",
	runs.AliveFailed: "alive", runs.ManualRestart: "restart",
	runs.DependencyFailed: "dep-failed", runs.DependencyLost: "dep-lost",
}

// Badge is an ended run's reason and exit code or signal: "cancel sig15", "exit 0".
func Badge(i runs.Info) string {
	s := reasonShort[i.Reason]
	if s == "" {
		s = i.Reason.String()
	}
	return s + ExitText(i, " ", " sig")
}

// ExitText is the exit code or signal, after sep: "1", or sig+"9".
func ExitText(i runs.Info, sep, sig string) string {
	switch {
	case i.ExitCode != nil:
		return fmt.Sprintf("%s%d", sep, *i.ExitCode)
	case i.Signal != 0:
		return fmt.Sprintf("%s%d", sig, i.Signal)
	}
	return ""
}

// CleanExit: ended on its own with status 0.
func CleanExit(i runs.Info) bool {
	return i.Reason == runs.Exit && i.ExitCode != nil && *i.ExitCode == 0
}

// BadgeStyle is the style of an ended run's badge: OK for a clean exit, else Danger.
func BadgeStyle(st Styles, i runs.Info) Style {
	if CleanExit(i) {
		return st.OK
	}
	return st.Danger
}

// DiffText is a worktree run's changes against its base: "+12 −3", the added in the
// OK colour and the removed in the danger one, joined by a no-break space so that a
// wrapped pane line never puts the two figures on different lines.
func DiffText(st Styles, d workspace.Stat) string {
	return st.OK.Render(fmt.Sprintf("+%d", d.Added)) + "\u00a0" + st.Danger.Render(fmt.Sprintf("−%d", d.Removed))
}
