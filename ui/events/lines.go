package events

import (
	"fmt"
	"time"

	"corral/runs"
	"corral/ui/common"
)

// What the pane's lines say: a run's lifecycle event, an event from before the UI
// attached, a failed command, a reconcile's decisions, a note.

// AddError records a failed command.
func (e *Events) AddError(at time.Time, op, name string, err error) {
	text := "error: " + op
	if name != "" {
		text += " " + name
	}
	e.Add(at, text+": "+err.Error(), e.c.Styles.Danger)
}

// ReportErr adds a failed operation's error (none: nothing) on the run named.
func (e *Events) ReportErr(at time.Time, op, name string, err error) {
	if err != nil {
		e.AddError(at, op, name, err)
	}
}

// AddReconciled adds a reconcile's decisions, or its error.
func (e *Events) AddReconciled(at time.Time, ds []runs.Decision, err error) {
	switch {
	case err != nil:
		e.AddError(at, "reconcile", "", err)
		return
	case len(ds) == 0:
		e.AddNote(at, "reconcile: no open records")
	}
	for _, d := range ds {
		e.AddDecision(at, d)
	}
}

// AddHistory adds an event from before the UI attached (the state dir's log), marked
// as history: "earlier · " (with the day when it was not today) and muted. An event the live pane leaves out stays out; one
// the pane has no words for (a reconcile decision, an escalation step, an error)
// reads "type name id: its fields".
func (e *Events) AddHistory(ev runs.Event) {
	text, _, ok := e.describe(ev)
	if !ok && lifecycleEvent(ev.Type) {
		return
	}
	if !ok {
		text = string(ev.Type)
		if ev.Run.ID != "" {
			text += " " + runName(ev.Run)
		}
		if ev.Detail != "" {
			text += ": " + ev.Detail
		}
	}
	// The log's times are UTC; the pane's are local, and the line says the day when
	// it was not today.
	at := ev.Time.Local()
	mark := "earlier · "
	if y, m, d := at.Date(); !sameDay(y, m, d, e.c.Now().Local()) {
		mark = "earlier " + at.Format("Jan 2") + " · "
	}
	e.Add(at, mark+text, e.c.Styles.Muted)
}

// runName names a run in an event line: its name and id, and over several hosts
// (ids are unique per host only) its host.
func runName(i runs.Info) string {
	if i.Host != "" {
		return i.Name + " " + i.ID + "@" + i.Host
	}
	return i.Name + " " + i.ID
}

func sameDay(y int, m time.Month, d int, t time.Time) bool {
	ty, tm, td := t.Date()
	return y == ty && m == tm && d == td
}

// lifecycleEvent reports whether t is one of a run's lifecycle events (describe's,
// and those it leaves out on purpose).
func lifecycleEvent(t runs.EventType) bool {
	switch t {
	case runs.EventSpawn, runs.EventState, runs.EventCancel, runs.EventPause, runs.EventCleanup, runs.EventExit,
		runs.EventOutput, runs.EventWatchdog, runs.EventEscape, runs.EventAgent, runs.EventNotify, runs.EventShared,
		runs.EventSession, runs.EventRemoved, runs.EventWorktree, runs.EventRestart, runs.EventReady,
		runs.EventUnready, runs.EventProbeFailed, runs.EventWaiting:
		return true
	}
	return false
}

// AddOnce adds a line unless it is the newest already (the keys of one burst typed
// while the server is lost fail one write at a time: one line says it).
func (e *Events) AddOnce(at time.Time, text string, style common.Style) {
	if n := len(e.lines); n > 0 && e.lines[n-1].text == common.Clean(text) {
		return
	}
	e.Add(at, text, style)
}

// AddNote records something the UI did or learned.
func (e *Events) AddNote(at time.Time, text string) { e.Add(at, text, common.Style{}) }

// AddDecision records one reconciliation decision.
func (e *Events) AddDecision(at time.Time, d runs.Decision) {
	text := fmt.Sprintf("reconcile %s %s: %s", d.Name, d.ID, d.Decision)
	if d.PID != 0 {
		text += fmt.Sprintf(" pid %d", d.PID)
	}
	if d.Detail != "" {
		text += " · " + d.Detail
	}
	style := common.Style{}
	if d.Decision != runs.VerdictKept && d.Decision != runs.VerdictLeftAlone {
		style = e.c.Styles.Warn
	}
	e.Add(at, text, style)
}

// describe turns a core event into a line; resizes and output are not shown.
func (e Events) describe(ev runs.Event) (string, common.Style, bool) {
	st, i := e.c.Styles, ev.Run
	name := runName(i)
	switch ev.Type {
	case runs.EventSpawn:
		if i.Adopted {
			return fmt.Sprintf("adopted %s pid %d", name, i.PID), st.Warn, true
		}
		return fmt.Sprintf("spawn %s (%s)", name, ev.Detail), common.Style{}, true
	case runs.EventState:
		if ev.Detail == runs.DetailResize || i.State == runs.Exited { // the exit event says more
			return "", common.Style{}, false
		}
		return fmt.Sprintf("%s → %s%s", name, i.State, pidSuffix(i)), common.Style{}, true
	case runs.EventCancel:
		return fmt.Sprintf("%s stop: %s", name, ev.Detail), st.Warn, true
	case runs.EventPause:
		if i.Paused {
			return name + " paused", st.Warn, true
		}
		return name + " resumed", common.Style{}, true
	case runs.EventCleanup:
		return fmt.Sprintf("%s cleanup: %s", name, ev.Detail), common.Style{}, true
	case runs.EventExit:
		how := i.Reason.String() + common.ExitText(i, " · exit ", " · signal ")
		if i.Reason == runs.Exit {
			how = "exit" + common.ExitText(i, " ", " by signal ")
		}
		if i.SpawnErr != "" { // why it could not start: the program not found, …
			how += ": " + common.Clean(i.SpawnErr)
		}
		if i.DependencyErr != "" { // which dependency, and why: "migrate exited 3"
			how += ": " + common.Clean(i.DependencyErr)
		}
		return name + " exited: " + how, common.BadgeStyle(st, i), true
	case runs.EventEscape:
		line := fmt.Sprintf("%s ⚠ escape: %d processes left the session", name, i.Escapees)
		if ev.Detail != "" {
			line += ": " + common.Clean(ev.Detail) // which ones, by pid and command line
		}
		return line, st.Warn, true
	case runs.EventWatchdog:
		return fmt.Sprintf("%s watchdog: %s", name, ev.Detail), st.Warn, true
	case runs.EventAgent:
		return fmt.Sprintf("%s agent: %s", name, common.Clean(ev.Detail)), common.StateStyle(st, i), true
	case runs.EventNotify:
		return fmt.Sprintf("%s notified: %s", name, common.Clean(ev.Detail)), st.Attention, true
	case runs.EventWorktree:
		return fmt.Sprintf("%s finished: %s", name, common.Clean(ev.Detail)), common.Style{}, true
	case runs.EventRestart:
		return fmt.Sprintf("%s restart: %s", name, common.Clean(ev.Detail)), st.Warn, true
	case runs.EventReady:
		return fmt.Sprintf("%s ready: %s", name, common.Clean(ev.Detail)), st.OK, true
	case runs.EventUnready:
		return fmt.Sprintf("%s unready: %s", name, common.Clean(ev.Detail)), st.Warn, true
	case runs.EventProbeFailed:
		return fmt.Sprintf("%s probe failed: %s", name, common.Clean(ev.Detail)), st.Warn, true
	case runs.EventWaiting:
		if ev.Detail == "" {
			return name + " dependencies met: starting", common.Style{}, true
		}
		return fmt.Sprintf("%s waiting for %s", name, common.Clean(ev.Detail)), st.Warn, true
	}
	return "", common.Style{}, false
}

func pidSuffix(i runs.Info) string {
	if i.PID == 0 || i.State != runs.Running {
		return ""
	}
	return fmt.Sprintf(" pid %d", i.PID)
}
