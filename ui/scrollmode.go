package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/ui/dialog"
	"corral/ui/terminal"
)

// Scroll mode: the terminal pane shows the run's transcript (package terminal),
// with search, copy mode (its copymode.go), the pager and the save
// (transcriptfile.go).

// enterScroll puts the pane in scroll mode (open says where: a page up, a search, a
// wheel's lines up) and reads the run's transcript.
func (m Model) enterScroll(sel runs.Info, open func(*terminal.Terminal)) (tea.Model, tea.Cmd) {
	open(&m.term)
	m.mode = modeScroll
	return m, historyCmd(m.engine, sel.ID, sel.Transcript, sel.Kind == runs.KindPipe)
}

// scrollKey: copy mode, the pager or the save; back to live, a new search, zoom, or
// scrolling for the pane.
func (m Model) scrollKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	m.flash = "" // a notice lasts until the next key
	if cmd, notice, ok := m.term.TranscriptKey(k, m.inTmux); ok {
		m.flash = notice
		return m, cmd
	}
	km := m.c.Keys
	switch {
	case key.Matches(k, km.Live):
		m.leaveMode()
	case key.Matches(k, km.Search):
		if sel, ok := m.list.Selected(); ok {
			m.mode = m.dlg.prompt(dialog.Search, "search "+sel.Name, sel.ID, m.mode)
		}
	case key.Matches(k, km.Zoom):
		return m.toggleZoom()
	default:
		m.term, _ = m.term.Update(k)
	}
	return m, nil
}
