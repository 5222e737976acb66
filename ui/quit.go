package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/ui/common"
	"corral/ui/dialog"
	"corral/ui/runlist"
)

// quit quits, asking first when it must. Attached to a server, the quit key detaches
// and asks only to say that the runs go on (shutdown false); the shutdown key, and
// quitting an in-process UI, end every run, asking first when runs are live or ended
// unseen (quitQuestion).
func (m Model) quit(shutdown bool) (tea.Model, tea.Cmd) {
	if !shutdown && m.detachable {
		// The live runs, with those not listed yet.
		n, _ := m.list.Counts()
		if m.link != "" { // the server is lost: there is nothing to ask it
			n = 0
		}
		if n == 0 {
			return m.detach()
		}
		where := "in the server"
		if m.list.Grouped() {
			where = fmt.Sprintf("on their %d host(s)", m.list.HostCount())
		}
		m.mode = m.dlg.ask(fmt.Sprintf("Detach? %d live run(s) keep running %s (%s ends them all).",
			n, where, m.c.Keys.Shutdown.Help().Key), dialog.Question{Op: dialog.Detach}, m.mode)
		return m, nil
	}
	if q := quitQuestion(m.list); q != "" && m.list.Grouped() {
		m.mode = m.dlg.ask(strings.Replace(q, "will be ended", fmt.Sprintf("on %d host(s) will be ended", m.list.HostCount()), 1),
			dialog.Question{Op: dialog.Quit}, m.mode)
		return m, nil
	} else if q != "" {
		m.mode = m.dlg.ask(q, dialog.Question{Op: dialog.Quit}, m.mode)
		return m, nil
	}
	return m.startQuit()
}

// startQuit shuts the core down; the UI quits when Shutdown returns (ShutdownMsg),
// showing meanwhile which runs are still ending, from their events.
func (m Model) startQuit() (tea.Model, tea.Cmd) {
	if m.mode == modeFocus {
		m.leaveMode()
	}
	m.mode = modeQuitting
	return m, shutdownCmd(m.engine)
}

// quitQuestion is what quitting asks, or "" to quit at once. The live runs counted
// include those not listed yet: while the rest of the list is on its way, the first
// rows (the oldest runs) may all be ended and seen while many a later run is live.
func quitQuestion(l runlist.List) string {
	if n, _ := l.Counts(); n > 0 {
		return fmt.Sprintf("%d live run(s) will be ended (supervisor-shutdown). Quit?", n)
	}
	if n := l.UnseenEnds(); n > 0 {
		return fmt.Sprintf("%d run(s) ended that you have not looked at; their screens go with Corral. Quit?", n)
	}
	return ""
}

// quitLine is the progress of the shutdown: the runs still live.
func quitLine(st common.Styles, live []runs.Info) string {
	if len(live) == 0 {
		return st.Warn.Render(" quitting: all runs ended, finishing…")
	}
	names := make([]string, len(live))
	for i, r := range live {
		names[i] = common.Clean(r.Name) + " (" + r.State.String() + ")"
	}
	return st.Warn.Render(fmt.Sprintf(" quitting: ending %d run(s): ", len(live))) + strings.Join(names, ", ")
}
