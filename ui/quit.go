package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// requestQuit quits, asking first when runs are live: quitting ends them.
func (m Model) requestQuit() (tea.Model, tea.Cmd) {
	if n := len(m.liveRuns()); n > 0 {
		m.confirm = NewConfirm(m.c, fmt.Sprintf("%d live run(s) will be ended (supervisor-shutdown). Quit?", n))
		m.confirm.SetSize(m.lay.w, 1)
		m.confirmOp = confirmQuit
		m.openDialog(dlgConfirm)
		return m, nil
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
