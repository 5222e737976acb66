package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"corral/ptyhost/keys"
	"corral/ui/terminal"
)

// The mouse. A focused app that asked for mouse reporting gets the events
// inside the terminal pane as items (MouseItem), which the run reports as xterm would,
// with its app's mouse modes when they arrive. Otherwise the mouse
// is Corral's only when the user turned it on ([ui] mouse, or the mouse key): a click
// selects a run or focuses the terminal pane, the wheel scrolls the transcript, the
// events pane or the list. Off, Corral asks the terminal for no mouse events, so the
// terminal's own selection keeps working.

// wheelLines is how far one wheel notch scrolls the transcript.
const wheelLines = 3

// pane is a region of the screen a mouse event lands in.
type pane int

const (
	paneNone pane = iota
	paneList
	paneTerm
	paneEvents
)

// mouseMode asks the terminal for mouse events while a focused app wants them (as the
// app asked: appMode, its screen's mouse mode), and for clicks and the wheel while the
// mouse is on.
func mouseMode(focused bool, appMode int, on bool) tea.MouseMode {
	switch {
	case focused && appMode == 1003:
		return tea.MouseModeAllMotion
	case focused && appMode != 0, on:
		return tea.MouseModeCellMotion
	}
	return tea.MouseModeNone
}

// mouseNotice says what turning the mouse on or off means (key toggles it).
func mouseNotice(on bool, key string) string {
	if on {
		return fmt.Sprintf("mouse on: click selects/focuses, wheel scrolls; %s: off (terminal selection)", key)
	}
	return fmt.Sprintf("mouse off: the terminal's own selection works (%s: on)", key)
}

// handleMouse forwards events inside the terminal pane to a focused run whose app
// asked for the mouse; with the mouse on, the rest are Corral's: a click selects the
// run clicked in the list or focuses the terminal pane, the wheel scrolls.
func (m Model) handleMouse(msg tea.MouseMsg) (tea.Model, tea.Cmd) {
	ev := msg.Mouse()
	if m.mode == modeFocus {
		if x, y, in := m.lay.inTerm(ev.X, ev.Y); in {
			if st := m.term.ReadState(); st.MouseMode != 0 {
				if it, ok := MouseItem(msg, x, y); ok {
					return m, m.send([]keys.Item{it}, m.term.ID())
				}
				return m, nil
			}
		}
	}
	if _, wheel := msg.(tea.MouseWheelMsg); wheel && m.mouse && m.mode == modeDiff {
		m.diff, _ = m.diff.Update(msg)
		return m, nil
	}
	if !m.mouse || m.mode != modeFocus && m.mode != modeBrowse && m.mode != modeScroll {
		return m, nil
	}
	_, wheel := msg.(tea.MouseWheelMsg)
	_, click := msg.(tea.MouseClickMsg)
	up := ev.Button == tea.MouseWheelUp
	switch p := m.lay.hit(ev.X, ev.Y); {
	case click && ev.Button == tea.MouseLeft && p == paneList:
		if id, ok := m.list.RowAt(ev.Y); ok {
			return m.pick(id)
		}
	case click && ev.Button == tea.MouseLeft && p == paneTerm && m.mode == modeBrowse:
		if sel, ok := m.list.Selected(); ok {
			return m.enterFocus(sel)
		}
	case !wheel || !up && ev.Button != tea.MouseWheelDown:
	case p == paneTerm:
		return m.wheelTerm(up)
	case p == paneEvents:
		m.events, _ = m.events.Update(msg)
	case p == paneList && m.mode == modeBrowse:
		before := m.list.SelectedKey()
		if m.list, _ = m.list.Update(msg); m.list.SelectedKey() != before {
			return m, m.selectionMoved()
		}
	}
	return m, nil
}

// pick selects the run clicked in the list, leaving focus or scroll mode.
func (m Model) pick(id string) (tea.Model, tea.Cmd) {
	leave := m.leaveMode()
	if id == m.list.SelectedKey() {
		return m, leave
	}
	m.list.Select(id)
	return m, tea.Batch(leave, m.selectionMoved())
}

// notch is n for a notch up, -n for one down.
func notch(up bool, n int) int {
	if up {
		return n
	}
	return -n
}

// wheelTerm scrolls the terminal pane's transcript. The first notch up enters scroll
// mode and already scrolls, as the scrollback key's first press does; in focus (an app
// that did not ask for the mouse: one that did gets the wheel itself) it leaves focus
// first, as tmux enters copy mode.
func (m Model) wheelTerm(up bool) (tea.Model, tea.Cmd) {
	switch {
	case m.mode == modeScroll:
		m.term.ScrollBy(notch(up, -wheelLines))
	case (m.mode == modeBrowse || m.mode == modeFocus) && up:
		sel, ok := m.list.Selected()
		if !ok {
			return m, nil
		}
		leave := m.leaveMode() // nothing to leave in browse mode
		next, cmd := m.enterScroll(sel, func(t *terminal.Terminal) { t.ScrollUp(wheelLines) })
		return next, tea.Batch(leave, cmd)
	}
	return m, nil
}
