package ui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/api"
)

// An attached UI over many runs opens on the first rows of its list (Options.Initial,
// the others counted by Options.Unlisted) and draws its first frame from them; the
// others come right after, as one ListedMsg, and are added at once. A snapshot read
// meanwhile may say something newer of a run not listed yet (it changed since the
// subscription): that is held, and taken once the run is listed. What depends on
// every run waits for them: Options.WhenListed (starting the config's runs the
// server does not run yet, which a partial list would start twice). A reconnect's
// resync lists every run too.

// listedMsg is what Options.WhenListed did: the run to select when it is listed.
type listedMsg struct{ selectID string }

// listed adds the runs a ListedMsg brings, reads their screens, and once every run is
// listed does what waited for it. Once the list is whole (a resync made it so after
// the link was lost) a late one is no news: it would bring back runs the new server
// does not have.
func (m Model) listed(msg ListedMsg) (tea.Model, tea.Cmd) {
	if !m.req.listing {
		return m, nil
	}
	added := m.list.AddListed(msg.Runs)
	m.req.held = slices.DeleteFunc(m.req.held, func(i runs.Info) bool {
		_, listed := m.list.Run(i.ID)
		if listed {
			m.list.Upsert(i) // what a snapshot said of it since the subscription
		}
		return listed
	})
	m.events.SetEscaped(m.list.Runs())
	m.relayout()
	cmds := []tea.Cmd{screensCmd(m.engine, added), m.fitShown()}
	if msg.Whole {
		cmds = append(cmds, m.everyRunListed())
	}
	return m, tea.Batch(cmds...)
}

// everyRunListed is what waited for every run: WhenListed is called, once.
func (m *Model) everyRunListed() tea.Cmd {
	m.list.SetUnlisted(api.RunSummary{})
	m.req.listing, m.req.held = false, nil
	f := m.whenListed
	if f == nil {
		return nil
	}
	m.whenListed = nil
	all := slices.Clone(m.list.Runs())
	return func() tea.Msg { return listedMsg{selectID: f(all)} }
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
