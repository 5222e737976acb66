package common

import (
	"strings"
	"time"

	"corral/runs"
	"corral/runs/agentstate"
	"corral/watchdog"
)

// A run's state and its deadlines as the panes draw them: the run list's rows, the
// details pane's facts and the events pane's lines agree because they read these
// (an ended run's badge is badge.go).

// StateText is a run's state as the list shows it: a running agent's own state
// (working, waiting, idle) with its glyph, else the run's.
func StateText(i runs.Info) string {
	if i.Waiting() {
		return WaitingText(i)
	}
	if i.Paused && i.State == runs.Running {
		return "paused"
	}
	if g := i.AgentState.Glyph(); g != "" && i.State == runs.Running && i.Agent != "" {
		return g + " " + i.AgentState.String() + agentstate.ModeMark(i.AgentMode)
	}
	return i.State.String()
}

// StateStyle is the style a run's state is drawn in: an agent's state, paused or
// exiting, running, ended.
func StateStyle(st Styles, i runs.Info) Style {
	if i.State == runs.Running && !i.Paused && i.Agent != "" {
		switch i.AgentState {
		case agentstate.Waiting:
			return st.AgentWaiting
		case agentstate.Working:
			return st.AgentWorking
		case agentstate.Idle:
			return st.AgentIdle
		}
	}
	switch {
	case i.Paused || i.State == runs.Exiting || i.State == runs.Restarting || i.Waiting():
		return st.Warn
	case i.State == runs.Running:
		return st.Running
	case i.Ended():
		return st.Muted
	}
	return Style{}
}

// warnFraction: a deadline warns in its last 20%, a visible countdown before it fires.
const warnFraction = 5 // Left <= Span/warnFraction

// Countdown is one deadline as the UI shows it at a given time.
type Countdown struct {
	Left   time.Duration
	Warn   bool
	Frozen bool
	// Running: Left counts down with the clock (not frozen, its time known).
	Running bool
	// WarnIn is how long until a running countdown begins to warn (0: it does, or
	// never will): its colour turns then, which its figure need not.
	WarnIn time.Duration
}

// DeadlineAt computes a deadline's time left at now: from its absolute time while it
// runs, so countdowns tick between snapshots; the frozen remainder while paused.
func DeadlineAt(d watchdog.Deadline, frozen bool, now time.Time) (Countdown, bool) {
	if !d.Armed {
		return Countdown{}, false
	}
	c := Countdown{Left: d.Left, Frozen: frozen}
	if !frozen && !d.At.IsZero() {
		c.Left, c.Running = max(d.At.Sub(now), 0), true
	}
	c.Warn = d.Span > 0 && c.Left <= d.Span/warnFraction
	if c.Running && !c.Warn && d.Span > 0 {
		c.WarnIn = c.Left - d.Span/warnFraction
	}
	return c, true
}

// WaitingText is what a run without a process yet waits for: "waiting for db,
// migrate".
func WaitingText(i runs.Info) string {
	names := make([]string, len(i.WaitingFor))
	for k, d := range i.WaitingFor {
		names[k] = d.Name
	}
	return "waiting for " + strings.Join(names, ", ")
}
