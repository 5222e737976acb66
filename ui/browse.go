package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// handleKey routes a key by mode.
func (m Model) handleKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.mode == modeBrowse && m.dropStray() { // guard.go
		return m, nil
	}
	switch m.mode {
	case modeFocus:
		return m.focusKey(k)
	case modeDialog:
		return m.dialogKey(k)
	case modeScroll:
		return m.scrollKey(k)
	case modeHelp:
		return m.helpKey(k)
	case modeQuitting:
		return m, nil
	}
	m.flash = ""
	return m.browseKey(k)
}

// browseKey runs the UI command bound to k.
func (m Model) browseKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	km := m.c.Keys
	if cmd, ok := m.replayKey(k); ok {
		return m, cmd
	}
	switch {
	case key.Matches(k, km.Up, km.Down):
		return m.moveSelection(k)
	case key.Matches(k, km.Quit):
		return m.requestQuit()
	case key.Matches(k, km.Detach):
		return m.detach()
	case key.Matches(k, km.Shutdown):
		return m.requestShutdown()
	case key.Matches(k, km.PairKeys, km.PairDiff):
		return m.pairKey(key.Matches(k, km.PairDiff))
	case key.Matches(k, km.Help):
		m.mode = modeHelp
		return m, nil
	case key.Matches(k, km.New):
		m.openForm()
		return m, nil
	case key.Matches(k, km.Reconcile):
		m.flash = "reconciling…"
		return m, reconcileCmd(m.core)
	case key.Matches(k, km.Zoom):
		return m.toggleZoom()
	case key.Matches(k, km.Layout):
		return m.switchPanes()
	case key.Matches(k, km.EventsUp):
		m.events.ScrollBy(m.events.Page())
		return m, nil
	case key.Matches(k, km.EventsDown):
		m.events.ScrollBy(-m.events.Page())
		return m, nil
	case key.Matches(k, km.Mouse):
		return m.toggleMouse()
	}
	if p, ok := m.list.SelectedPending(); ok {
		return m.pendingKey(k, p)
	}
	sel, ok := m.list.Selected()
	if !ok {
		return m, nil
	}
	return m.runKey(k, sel)
}

// runKey runs a command on the selected run.
func (m Model) runKey(k tea.KeyPressMsg, sel runs.Info) (tea.Model, tea.Cmd) {
	km, core := m.c.Keys, m.core // commands capture the core, never the model
	switch {
	case key.Matches(k, km.Focus):
		return m.enterFocus(sel)
	case key.Matches(k, km.SendKeys):
		return m.openPrompt(sel, promptSendKeys, "send-keys to "+sel.Name)
	case key.Matches(k, km.Paste):
		return m.openPrompt(sel, promptPaste, "paste to "+sel.Name)
	case key.Matches(k, km.Submit):
		return m.openPrompt(sel, promptSubmit, "submit to "+sel.Name)
	case key.Matches(k, km.Search):
		m.openSearch(sel)
		return m, nil
	case key.Matches(k, km.CopyMode): // scroll mode with copy mode's caret on the last line
		return m.enterScroll(sel, (*Terminal).ScrollCopy)
	case key.Matches(k, km.Scrollback):
		return m.enterScroll(sel, (*Terminal).ScrollPage) // the first press scrolls a page (issue 14.9)
	case key.Matches(k, km.Cancel):
		return m.askCancel(sel)
	case key.Matches(k, km.Interrupt):
		return m.askInterrupt(sel)
	case key.Matches(k, km.Pause):
		if sel.Paused {
			return m.live(sel, "resume", core.Resume)
		}
		return m.live(sel, "pause", core.Pause)
	case key.Matches(k, km.Restart):
		return m.restart(sel)
	case key.Matches(k, km.Remove):
		return m.askRemove(sel)
	}
	return m, nil
}

// note shows a notice in the status line.
func (m Model) note(format string, a ...any) (tea.Model, tea.Cmd) {
	m.flash = clean(fmt.Sprintf(format, a...))
	return m, nil
}

func (m Model) moveSelection(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	before := m.list.SelectedKey()
	m.list, _ = m.list.Update(k)
	if m.list.SelectedKey() != before {
		cmd := m.selectionMoved()
		return m, cmd
	}
	return m, nil
}

// live runs a core operation on a live run.
func (m Model) live(sel runs.Info, op string, f func(string) error) (tea.Model, tea.Cmd) {
	if sel.Ended() {
		return m.note("%s: %s has ended", op, sel.Name)
	}
	return m, doCmd(op, sel.ID, f)
}

func (m Model) askCancel(sel runs.Info) (tea.Model, tea.Cmd) {
	if sel.Ended() {
		return m.note("cancel: %s has ended", sel.Name)
	}
	m.confirm = NewConfirm(m.c, fmt.Sprintf("Cancel %s (%s)?", sel.Name, sel.ID))
	m.confirm.SetSize(m.lay.w, 1)
	m.confirmOp, m.confirmID = confirmCancel, sel.ID
	m.openDialog(dlgConfirm)
	return m, nil
}

// restart spawns an ended run's spec again, sized to the pane.
func (m Model) restart(sel runs.Info) (tea.Model, tea.Cmd) {
	if !sel.Ended() {
		return m.note("restart: %s is still %s", sel.Name, sel.State)
	}
	if sel.Adopted {
		return m.note("restart: %s was adopted; its spec belongs to another instance", sel.Name)
	}
	spec := sel.Spec
	spec.Stdout, spec.Stderr = nil, nil
	m.sizeSpec(&spec)
	old, core := sel.ID, m.core
	return m, func() tea.Msg {
		id, err := core.Spawn(spec)
		return SpawnedMsg{ID: id, Err: err, Replaces: old}
	}
}

// sizeSpec gives a PTY spec the terminal pane's size, so it starts the right size.
func (m Model) sizeSpec(spec *runs.Spec) {
	if spec.PTY && !spec.FixedSize && m.lay.w > 0 {
		cols, rows := m.term.InnerSize()
		spec.Cols, spec.Rows = uint16(cols), uint16(rows)
	}
}

func (m Model) toggleZoom() (tea.Model, tea.Cmd) {
	m.zoom = !m.zoom
	m.relayout()
	cmd := m.fitRuns()
	return m, cmd
}

// startScroll enters scroll mode on the run's transcript, searching for query.
func (m Model) startScroll(sel runs.Info, query string) (tea.Model, tea.Cmd) {
	return m.enterScroll(sel, func(t *Terminal) { t.Scroll(query) })
}

// enterScroll puts the pane in scroll mode (open says where: a page up, a search, a
// wheel's lines up) and reads the run's transcript.
func (m Model) enterScroll(sel runs.Info, open func(*Terminal)) (tea.Model, tea.Cmd) {
	open(&m.term)
	m.mode = modeScroll
	return m, historyCmd(m.core, sel.ID, sel.Transcript, sel.Kind == runs.KindPipe)
}

// scrollKey: back to live, a new search, zoom, or scrolling for the pane.
func (m Model) scrollKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	m.flash = "" // a notice lasts until the next key
	// Copy mode, the pager and the save first (transcriptfile.go).
	if next, cmd, ok := m.transcriptKey(k); ok {
		return next, cmd
	}
	km := m.c.Keys
	switch {
	case key.Matches(k, km.Live):
		m.term.Live()
		m.mode = modeBrowse
	case key.Matches(k, km.Search):
		if sel, ok := m.list.Selected(); ok {
			m.openSearch(sel)
		}
	case key.Matches(k, km.Zoom):
		return m.toggleZoom()
	default:
		m.term, _ = m.term.Update(k)
	}
	return m, nil
}
