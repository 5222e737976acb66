package ui

import (
	"corral/ui/runlist"

	tea "charm.land/bubbletea/v2"
)

// The selected row and what follows it: the panes that show it, the reads they need
// and the sizes of the runs shown.

// syncSelection shows the selected row (a run, a pending entry or none) in the details
// and terminal panes, and its partner if it is a pair's.
func (m *Model) syncSelection() {
	r := m.list.SelectedRow()
	if r.Kind == runlist.RowPending {
		m.details.ShowPending(r.Pend.Spec, r.Pend.Starting)
	} else {
		m.details.ShowRun(r.Run, r.Kind == runlist.RowRun)
	}
	showRow(&m.term, r, m.screens[r.Run.ID])
	if m.pair.sync(r, m.list, m.screens) {
		m.pair.size(&m.term, m.lay)
	}
}

// selectionMoved updates the panes after the selection changed and fetches what the
// new selection shows.
func (m *Model) selectionMoved() tea.Cmd {
	m.syncSelection()
	m.req.pushTree = ""        // until a push or a snapshot brings the new run's usage (usageMoved)
	gen := m.req.restartTick() // the new run's tree now; restart the chain so it is not also due soon
	return tea.Batch(m.tick(gen), m.req.logs(m.engine, m.pair.shownLogs(m.term, m.term.ID(), m.pair.other.ID())),
		m.req.tree(m.engine, m.list.SelectedLive()), m.req.watch(m.engine, m.pair.watched(m.term)),
		m.req.look(m.engine, m.list.SelectedLive()), m.fitShown())
}
