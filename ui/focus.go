package ui

import (
	"errors"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/ptyhost/screen"
	"corral/runs"
)

// maxQueuedInput bounds input waiting for an earlier write to finish; past it the
// run is not reading and keys are dropped with an error.
const maxQueuedInput = 1 << 20

// errInputBacklog: the run has not taken the input already sent.
var errInputBacklog = errors.New("input backlog: the run is not reading its input")

// inputQueue keeps a run's input in order: Bubble Tea runs commands concurrently, so
// only one write per run is in flight and the keys typed meanwhile go in the next.
type inputQueue struct {
	busy bool
	buf  []byte
}

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
	if m.screenState().FocusEvents {
		cmd := m.send(sel.ID, []byte("\x1b[I"))
		return m, cmd
	}
	return m, nil
}

// leaveFocus returns keys to the UI; an app that asked for focus events hears it.
func (m *Model) leaveFocus() tea.Cmd {
	m.mode = modeBrowse
	m.list.SetFocused(true)
	m.term.SetFocused(false)
	if m.screenState().FocusEvents {
		return m.send(m.term.ID(), []byte("\x1b[O"))
	}
	return nil
}

// screenState is the selected run's screen state now (zero without a screen). It is
// read, not rendered, so a panicking screen yields the zero state.
func (m Model) screenState() (st screen.ScreenState) {
	s := m.screens[m.term.ID()]
	if s == nil {
		return st
	}
	defer func() { _ = recover() }()
	return s.State()
}

// focusKey sends every key to the run, except the one that leaves focus.
func (m Model) focusKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if key.Matches(k, m.c.Keys.Leave) {
		cmd := m.leaveFocus()
		return m, cmd
	}
	if m.term.info.Ended() {
		return m.endedFocusKey()
	}
	b, ok := KeyBytes(k, m.screenState().Modes)
	if !ok {
		return m, nil
	}
	cmd := m.sendFocused(b)
	return m, cmd
}

func (m *Model) sendPaste(p tea.PasteMsg) tea.Cmd {
	b := PasteBytes(p, m.screenState().Modes)
	if len(b) == 0 {
		return nil
	}
	return m.sendFocused(b)
}

// send queues input for a run and starts a write unless one is in flight.
func (m *Model) send(id string, b []byte) tea.Cmd {
	if id == "" || len(b) == 0 {
		return nil
	}
	q := m.inputs[id]
	if q == nil {
		q = &inputQueue{}
		m.inputs[id] = q
	}
	if q.busy {
		if len(q.buf)+len(b) > maxQueuedInput {
			m.reportErr("write", id, errInputBacklog)
			return nil
		}
		q.buf = append(q.buf, b...)
		return nil
	}
	q.busy = true
	return writeCmd(m.core, id, append([]byte(nil), b...))
}

// written starts the next write of a run's queued input.
func (m *Model) written(msg WrittenMsg) tea.Cmd {
	m.reportErr("write", msg.ID, msg.Err)
	q := m.inputs[msg.ID]
	if q == nil {
		return nil
	}
	q.busy = false
	if len(q.buf) == 0 {
		return nil
	}
	b := q.buf
	q.buf = nil
	q.busy = true
	return writeCmd(m.core, msg.ID, b)
}
