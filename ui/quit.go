package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// requestQuit quits, asking first when runs are live: quitting ends them. Attached to
// a server, quitting detaches instead, and asks only to say that the runs go on.
func (m Model) requestQuit() (tea.Model, tea.Cmd) {
	if m.detachable {
		return m.requestDetach()
	}
	return m.requestShutdown()
}

// requestDetach detaches, asking first when runs are live.
func (m Model) requestDetach() (tea.Model, tea.Cmd) {
	n := len(m.liveRuns())
	if n == 0 {
		return m.detach()
	}
	m.confirm = NewConfirm(m.c, fmt.Sprintf("Detach? %d live run(s) keep running in the server (%s ends them all).",
		n, m.c.Keys.Shutdown.Help().Key))
	m.confirm.SetSize(m.lay.w, 1)
	m.confirmOp = confirmDetach
	m.openDialog(dlgConfirm)
	return m, nil
}

// detach ends the UI and leaves every run to the server.
func (m Model) detach() (tea.Model, tea.Cmd) {
	m.detached = true
	return m, tea.Quit
}

// requestShutdown ends every run (and, attached, the server), asking first when runs
// are live or ended unseen (quitQuestion).
func (m Model) requestShutdown() (tea.Model, tea.Cmd) {
	if q := m.quitQuestion(); q != "" {
		return m.ask(q, confirmQuit, "")
	}
	return m.startQuit()
}

// startQuit shuts the core down; the UI quits when Shutdown returns (ShutdownMsg),
// showing meanwhile which runs are still ending, from their events.
func (m Model) startQuit() (tea.Model, tea.Cmd) {
	if m.mode == modeFocus {
		m.leaveFocus()
	}
	m.mode = modeQuitting
	return m, shutdownCmd(m.core)
}

func (m Model) liveRuns() []runs.Info {
	var live []runs.Info
	for _, i := range m.list.Runs() {
		if !i.Ended() {
			live = append(live, i)
		}
	}
	return live
}

// quitLine is the progress of the shutdown.
func (m Model) quitLine() string {
	st := m.c.Styles
	live := m.liveRuns()
	if len(live) == 0 {
		return st.Warn.Render(" quitting: all runs ended, finishing…")
	}
	names := make([]string, len(live))
	for i, r := range live {
		names[i] = clean(r.Name) + " (" + r.State.String() + ")"
	}
	return st.Warn.Render(fmt.Sprintf(" quitting: ending %d run(s): ", len(live))) + strings.Join(names, ", ")
}
