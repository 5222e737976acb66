package ui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"corral/runs/api"
)

// An attached UI over many runs opens on the first rows of its list (Options.Initial,
// the others counted by Options.Unlisted) and draws its first frame from them; the
// others come right after, as one ListedMsg, and are added at once. What depends on
// every run waits for them: the snapshot reads (a snapshot names only the runs
// listed, so one read before them would drop what it says of the others), and
// Options.WhenListed (starting the config's runs the server does not run yet, which
// a partial list would start twice). A reconnect's resync lists every run too.

// listedMsg is what Options.WhenListed did: the run to select when it is listed.
type listedMsg struct{ selectID string }

// listed adds the runs a ListedMsg brings, reads their screens, and once every run is
// listed does what waited for it.
func (m Model) listed(msg ListedMsg) (tea.Model, tea.Cmd) {
	added := m.list.AddListed(msg.Runs)
	m.events.SetEscaped(m.list.Runs())
	m.relayout()
	cmds := []tea.Cmd{screensCmd(m.engine, added), m.fitShown()}
	if msg.Whole {
		cmds = append(cmds, m.everyRunListed())
	}
	return m, tea.Batch(cmds...)
}

// everyRunListed is what waited for every run: the snapshot reads go on, and
// WhenListed is called, once.
func (m *Model) everyRunListed() tea.Cmd {
	m.list.SetUnlisted(api.RunSummary{})
	m.req.listing = false
	var cmds []tea.Cmd
	if f := m.whenListed; f != nil {
		m.whenListed = nil
		all := slices.Clone(m.list.Runs())
		cmds = append(cmds, func() tea.Msg { return listedMsg{selectID: f(all)} })
	}
	return tea.Batch(append(cmds, m.req.refresh(m.engine, m.list.SelectedLive(), m.now))...)
}

// selectListed selects the run WhenListed started for the UI, now if it is listed,
// else when it is.
func (m Model) selectListed(msg listedMsg) (tea.Model, tea.Cmd) {
	if msg.selectID == "" {
		return m, nil
	}
	m.req.selectNext = msg.selectID
	if _, ok := m.list.Run(msg.selectID); ok && m.req.arrived(msg.selectID) {
		m.list.Select(msg.selectID)
		return m, m.selectionMoved()
	}
	return m, nil
}
