package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/ptyhost/keys"
	"corral/runs"
)

// Focus mode: every key, paste and mouse event the app asked for goes to the selected
// run (and its pair's partner, pair.go) through the run's input queue (inputqueue.go),
// except the leave chord.

func (m Model) enterFocus(sel runs.Info) (tea.Model, tea.Cmd) {
	switch {
	case sel.Ended():
		return m.note("focus: %s has ended", sel.Name)
	case sel.Adopted:
		return m.note("focus: %s is adopted: no terminal I/O", sel.Name)
	}
	m.mode = modeFocus
	m.list.SetFocused(false)
	m.term.SetFocused(true)
	if m.term.ReadState().FocusEvents {
		return m, m.sendBytes([]byte("\x1b[I"), sel.ID)
	}
	return m, nil
}

// leaveMode returns keys to the UI from focus (an app that asked for focus events
// hears it) or from scroll mode (the pane goes live).
func (m *Model) leaveMode() tea.Cmd {
	switch m.mode {
	case modeFocus:
		m.mode = modeBrowse
		m.list.SetFocused(true)
		m.term.SetFocused(false)
		if m.term.ReadState().FocusEvents {
			return m.sendBytes([]byte("\x1b[O"), m.term.ID())
		}
	case modeScroll:
		m.term.Live()
		m.mode = modeBrowse
	}
	return nil
}

// focusKey sends every key to the run, except the one that leaves focus. Once the
// focused run has ended, keys go nowhere (guard.go).
func (m Model) focusKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if key.Matches(k, m.c.Keys.Leave) {
		cmd := m.leaveMode()
		return m, cmd
	}
	if m.term.Info().Ended() {
		m.flash = ""
		return m, nil
	}
	it, ok := KeyItem(k)
	if !ok {
		return m, nil
	}
	cmd, sent := m.sendAll([]keys.Item{it}, m.pair.targets(m.term)...)
	// A key on its way to the run changes nothing on screen (its echo will): the
	// frame stands, and no View is composed before the next key or the echo.
	m.still = sent
	return m, cmd
}

// handlePaste: a paste goes to the focused run, into the open dialog or the filter.
func (m Model) handlePaste(p tea.PasteMsg) (tea.Model, tea.Cmd) {
	switch m.mode {
	case modeFocus:
		if it, ok := PasteItem(p); ok {
			return m, m.send([]keys.Item{it}, m.pair.targets(m.term)...)
		}
	case modeDialog:
		m.dlg.Host, _ = m.dlg.Update(p)
	case modeFilter:
		before := m.list.SelectedKey()
		m.list, _ = m.list.Update(p)
		return m.listMoved(before)
	}
	return m, nil
}

// send queues input for runs ids, each write starting unless one is in flight; each
// run encodes it with its own app's modes. A run that does not read its input gets
// an error in the events pane.
func (m *Model) send(items []keys.Item, ids ...string) tea.Cmd {
	cmd, _ := m.sendAll(items, ids...)
	return cmd
}

// sendAll is send, and whether every run took the input (no error reported).
func (m *Model) sendAll(items []keys.Item, ids ...string) (tea.Cmd, bool) {
	var cmds []tea.Cmd
	all := len(ids) > 0
	for _, id := range ids {
		cmd, err := m.inputs.send(m.engine, id, items)
		m.events.ReportErr(m.now, "write", m.list.Label(id), err)
		all = all && err == nil
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...), all
}

// sendBytes queues input encoded here (focus reports) for runs ids.
func (m *Model) sendBytes(b []byte, ids ...string) tea.Cmd {
	return m.send([]keys.Item{dataItem(b)}, ids...)
}
