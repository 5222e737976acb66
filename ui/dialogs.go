package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/ptyhost"
	"corral/runs"
)

func (m *Model) openDialog(d dialogKind) {
	if m.mode != modeDialog {
		m.ret = m.mode
	}
	m.mode, m.dialog = modeDialog, d
}

func (m *Model) closeDialog() { m.mode = m.ret }

// openPrompt opens a send-keys, paste or submit prompt for a live run.
func (m Model) openPrompt(sel runs.Info, kind promptKind, label string) (tea.Model, tea.Cmd) {
	switch {
	case sel.Ended():
		return m.note("%s has ended", sel.Name)
	case sel.Adopted:
		return m.note("%s is adopted: no terminal I/O", sel.Name)
	}
	m.prompt = NewPrompt(m.c, kind, clean(label), sel.ID)
	m.prompt.SetSize(m.lay.w, 1)
	m.openDialog(dlgPrompt)
	return m, nil
}

func (m *Model) openSearch(sel runs.Info) {
	m.prompt = NewPrompt(m.c, promptSearch, "search "+clean(sel.Name), sel.ID)
	m.prompt.SetSize(m.lay.w, 1)
	m.openDialog(dlgPrompt)
}

func (m *Model) openForm() {
	m.form = NewForm(m.c)
	m.form.SetSize(m.lay.w, m.lay.h)
	m.openDialog(dlgForm)
}

// dialogKey gives a key to the open dialog and acts when it is done.
func (m Model) dialogKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch m.dialog {
	case dlgConfirm:
		m.confirm, _ = m.confirm.Update(k)
		if yes, done := m.confirm.Done(); done {
			m.closeDialog()
			if m.confirm.Early() || !yes && !key.Matches(k, m.c.Keys.No) {
				m.quarantine() // keys were coming that were not meant for it
			}
			return m.confirmed(yes)
		}
	case dlgForm:
		m.form, _ = m.form.Update(k)
		if spec, ok, done := m.form.Done(); done {
			m.closeDialog()
			if ok && m.form.Parity() {
				m.sizeSpec(&spec)
				spec.Cols = uint16(max(m.lay.term.w/2-2, 1)) // the left half of a pair's pane
				return m, spawnPairCmd(m.core, spec)
			}
			if ok {
				m.sizeSpec(&spec)
				return m, spawnCmd(m.core, spec)
			}
		}
	default:
		m.prompt, _ = m.prompt.Update(k)
		if text, ok, done := m.prompt.Done(); done {
			if !ok {
				m.closeDialog()
				return m, nil
			}
			return m.promptAccepted(text)
		}
	}
	return m, nil
}

// promptAccepted acts on a prompt's text; a send-keys line that does not parse keeps
// the prompt open with the error.
func (m Model) promptAccepted(text string) (tea.Model, tea.Cmd) {
	id := m.prompt.target
	switch m.prompt.kind {
	case promptSendKeys:
		items, err := ptyhost.ParseSendKeys(text)
		if err != nil {
			m.prompt.SetError(err)
			return m, nil
		}
		m.closeDialog()
		if len(items) == 0 {
			return m, nil
		}
		return m, sendKeysCmd(m.core, id, items)
	case promptPaste:
		m.closeDialog()
		return m, pasteCmd(m.core, id, text)
	case promptSubmit:
		m.closeDialog()
		return m, submitCmd(m.core, id, text)
	}
	m.closeDialog()
	sel, ok := m.list.Run(id)
	if !ok {
		return m, nil
	}
	return m.startScroll(sel, text)
}

// confirmed acts on a y/n answer.
func (m Model) confirmed(yes bool) (tea.Model, tea.Cmd) {
	if !yes {
		return m, nil
	}
	switch m.confirmOp {
	case confirmQuit:
		return m.startQuit()
	case confirmDetach:
		return m.detach()
	case confirmInterrupt:
		return m, doCmd("interrupt", m.confirmID, m.core.Interrupt)
	case confirmRemove:
		return m, removeCmd(m.core, m.confirmID)
	}
	return m, doCmd("cancel", m.confirmID, m.core.Cancel)
}

// handlePaste: a paste goes to the focused run or into the open dialog.
func (m Model) handlePaste(p tea.PasteMsg) (tea.Model, tea.Cmd) {
	switch {
	case m.mode == modeFocus:
		cmd := m.sendPaste(p)
		return m, cmd
	case m.mode == modeDialog && m.dialog == dlgPrompt:
		m.prompt, _ = m.prompt.Update(p)
	case m.mode == modeDialog && m.dialog == dlgForm:
		m.form, _ = m.form.Update(p)
	}
	return m, nil
}
