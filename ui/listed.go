package ui

import (
	"fmt"
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
	before := m.list.SelectedKey()
	added := m.list.AddListed(msg.Runs)
	m.req.held = slices.DeleteFunc(m.req.held, func(i runs.Info) bool {
		_, listed := m.list.Run(i.ID)
		if listed {
			m.list.Upsert(i) // what a snapshot said of it since the subscription
		}
		return listed
	})
	m.events.SetEscaped(m.list.Runs(), m.list.Unlisted().Escaped)
	m.relayout()
	// The selected run's parity partner may be among the runs listed now: it joins
	// the pane (or, over no run listed before, the first is selected).
	cmds := []tea.Cmd{screensCmd(m.engine, added)}
	if m.list.SelectedKey() != before {
		cmds = append(cmds, m.selectionMoved())
	} else {
		m.syncSelection()
		cmds = append(cmds, m.req.logs(m.engine, m.pair.missingLogs(m.term)), m.req.watch(m.engine, m.pair.watched(m.term)), m.fitShown())
	}
	if msg.Whole {
		cmds = append(cmds, m.everyRunListed())
	}
	return m, tea.Batch(cmds...)
}

// everyRunListed is what waited for every run: WhenListed is called, once, unless
// every run is being ended (the runs it would start would start in a server
// shutting down, or be ended at once).
func (m *Model) everyRunListed() tea.Cmd {
	m.list.SetUnlisted(api.RunSummary{})
	m.req.listing, m.req.held = false, nil
	f := m.whenListed
	m.whenListed = nil
	if f == nil || m.mode == modeQuitting {
		return nil
	}
	m.req.starting = true
	all := slices.Clone(m.list.Runs())
	return func() tea.Msg { return listedMsg{selectID: f(all)} }
}

// detach leaves the server, its runs running. The runs this UI is to start once every
// run is listed (the config's, and corral -- CMD's: Options.WhenListed) are started
// first: the user asked for them, by the command line or the config, and leaving
// before the rest of the list came is no reason to drop them; nor can they start
// before it came (which of the config's runs the server runs already is known from
// every run only). So a detach meanwhile waits for the list (a few frames at a
// thousand runs) and for their spawns, then leaves; pressed again, it leaves at once,
// without them. With the server lost there is nothing to start them in: it leaves.
func (m Model) detach() (tea.Model, tea.Cmd) {
	if (m.req.starting || m.req.listing && m.whenListed != nil) && m.link == "" && !m.req.leaving {
		m.req.leaving = true
		m.flash = fmt.Sprintf("detaching once the runs asked for have started (%s again: leave now, without them)",
			m.c.Keys.Detach.Help().Key)
		return m, nil
	}
	m.detached = true
	return m, tea.Quit
}

// selectListed selects the run WhenListed started for the UI, now if it is listed,
// else when it is; a detach that waited for its runs leaves now.
func (m Model) selectListed(msg listedMsg) (tea.Model, tea.Cmd) {
	m.req.starting = false
	if m.req.leaving {
		m.detached = true
		return m, tea.Quit
	}
	if msg.selectID == "" || m.req.selectNext != "" { // a run the user started meanwhile is selected when it comes
		return m, nil
	}
	m.req.selectNext = msg.selectID
	if _, ok := m.list.Run(msg.selectID); ok && m.req.arrived(msg.selectID) {
		m.list.Select(msg.selectID)
		return m, m.selectionMoved()
	}
	return m, nil
}
