package ui

import (
	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// The selected row and what follows it: the panes that show it, the reads they need
// and the sizes of the runs shown.

// syncSelection shows the selected row (a run, a pending entry or none) in the details
// and terminal panes, and its partner if it is a pair's.
func (m *Model) syncSelection() {
	r := m.list.SelectedRow()
	m.details.Show(r)
	m.term.Show(r, m.screens[r.run.ID])
	if m.pair.sync(r, m.list, m.screens) {
		m.pair.size(&m.term, m.lay)
	}
}

// selectionMoved updates the panes after the selection changed and fetches what the
// new selection shows.
func (m *Model) selectionMoved() tea.Cmd {
	m.syncSelection()
	gen := m.req.restartTick() // the new run's tree now; restart the chain so it is not also due soon
	return tea.Batch(m.tick(gen), m.logs(m.term.ID(), m.pair.other.ID()),
		m.req.tree(m.core, m.list.SelectedLive()), m.req.watch(m.core, m.pair.watched(m.term)))
}

// logs reads the logs of the runs ids a pane shows as a log, one read at a time per
// run (requests.log).
func (m *Model) logs(ids ...string) tea.Cmd {
	var cmds []tea.Cmd
	for _, id := range ids {
		if id != "" && m.pair.showsLog(m.term, id) {
			cmds = append(cmds, m.req.log(m.core, id))
		}
	}
	return tea.Batch(cmds...)
}

// fitRuns resizes every live PTY run whose size is not the terminal pane's.
func (m *Model) fitRuns() tea.Cmd {
	if m.lay.w == 0 {
		return nil
	}
	var rs []resize
	for _, i := range m.list.Runs() {
		if i.Kind != runs.KindPTY || i.Adopted || i.State != runs.Running || i.Spec.FixedSize {
			continue
		}
		want := runSize(m.lay, i)
		if [2]uint16{i.Cols, i.Rows} == want || m.sized[i.ID] == want {
			continue
		}
		m.sized[i.ID] = want
		rs = append(rs, resize{id: i.ID, cols: want[0], rows: want[1]})
	}
	if len(rs) == 0 {
		return nil
	}
	return resizeCmd(m.core, rs)
}
