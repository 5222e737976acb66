package ui

import (
	tea "charm.land/bubbletea/v2"
)

// The mouse (issue 12.7). A focused app that asked for mouse reporting gets the events
// inside the terminal pane, as xterm would send them (MouseBytes). Otherwise the mouse
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

// hit is the pane at screen cell (x, y), from the layout's rectangles, so it follows
// whatever layout computeLayout makes.
func (l layout) hit(x, y int) pane {
	switch {
	case l.term.contains(x, y):
		return paneTerm
	case l.list.contains(x, y):
		return paneList
	case l.events.contains(x, y):
		return paneEvents
	}
	return paneNone // a pane not shown has an empty rectangle
}

// rowAt is the key of the list row drawn y lines below the pane's top edge.
func (l RunList) rowAt(y int) (string, bool) {
	i := l.offset + y - 1 // the top edge is the frame
	if y < 1 || y > l.h-2 || i >= l.Len() {
		return "", false
	}
	return l.keyAt(i), true
}

// mouseMode asks the terminal for mouse events while a focused app wants them (as the
// app asked), and for clicks and the wheel while the mouse is on.
func (m Model) mouseMode() tea.MouseMode {
	if m.mode == modeFocus {
		switch m.term.ScreenState().MouseMode {
		case 0:
		case 1003:
			return tea.MouseModeAllMotion
		default:
			return tea.MouseModeCellMotion
		}
	}
	if m.mouse {
		return tea.MouseModeCellMotion
	}
	return tea.MouseModeNone
}

// toggleMouse turns the mouse on or off, saying what that means.
func (m Model) toggleMouse() (tea.Model, tea.Cmd) {
	m.mouse = !m.mouse
	k := m.c.Keys.Mouse.Help().Key
	if m.mouse {
		return m.note("mouse on: click selects/focuses, wheel scrolls; %s: off (terminal selection)", k)
	}
	return m.note("mouse off: the terminal's own selection works (%s: on)", k)
}

// handleMouse forwards events inside the terminal pane to a focused run whose app
// asked for the mouse; with the mouse on, the rest are Corral's.
func (m Model) handleMouse(msg tea.MouseMsg) (tea.Model, tea.Cmd) {
	ev := msg.Mouse()
	if m.mode == modeFocus {
		if x, y, in := m.lay.inTerm(ev.X, ev.Y); in {
			if st := m.screenState(); st.MouseMode != 0 {
				b, ok := MouseBytes(msg, x, y, st)
				if !ok {
					return m, nil
				}
				cmd := m.send(m.term.ID(), b)
				return m, cmd
			}
		}
	}
	if !m.mouse || m.mode != modeFocus && m.mode != modeBrowse && m.mode != modeScroll {
		return m, nil
	}
	switch msg.(type) {
	case tea.MouseClickMsg:
		if ev.Button == tea.MouseLeft {
			return m.click(ev)
		}
	case tea.MouseWheelMsg:
		return m.wheel(ev)
	}
	return m, nil
}

// click selects the run clicked in the list, or focuses the terminal pane.
func (m Model) click(ev tea.Mouse) (tea.Model, tea.Cmd) {
	switch m.lay.hit(ev.X, ev.Y) {
	case paneList:
		id, ok := m.list.rowAt(ev.Y)
		if !ok {
			return m, nil
		}
		leave := m.leaveForMouse()
		if id == m.list.SelectedKey() {
			return m, leave
		}
		m.list.Select(id)
		return m, tea.Batch(leave, m.selectionMoved())
	case paneTerm:
		if m.mode != modeBrowse {
			return m, nil
		}
		if sel, ok := m.list.Selected(); ok {
			return m.enterFocus(sel)
		}
	}
	return m, nil
}

// leaveForMouse leaves focus or scroll mode for a click elsewhere.
func (m *Model) leaveForMouse() tea.Cmd {
	switch m.mode {
	case modeFocus:
		return m.leaveFocus()
	case modeScroll:
		m.term.Live()
		m.mode = modeBrowse
	}
	return nil
}

// wheel scrolls what is under the pointer: the transcript (entering scroll mode on the
// first notch up), the events pane, or the list's selection.
func (m Model) wheel(ev tea.Mouse) (tea.Model, tea.Cmd) {
	up := ev.Button == tea.MouseWheelUp
	if !up && ev.Button != tea.MouseWheelDown {
		return m, nil
	}
	switch m.lay.hit(ev.X, ev.Y) {
	case paneTerm:
		return m.wheelTerm(up)
	case paneEvents:
		m.events.ScrollBy(notch(up, 1))
	case paneList:
		if m.mode != modeBrowse {
			return m, nil
		}
		before := m.list.SelectedKey()
		m.list.move(notch(up, -1))
		if m.list.SelectedKey() != before {
			cmd := m.selectionMoved()
			return m, cmd
		}
	}
	return m, nil
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
		var leave tea.Cmd
		if m.mode == modeFocus {
			leave = m.leaveFocus()
		}
		next, cmd := m.enterScroll(sel, func(t *Terminal) { t.ScrollUp(wheelLines) })
		return next, tea.Batch(leave, cmd)
	}
	return m, nil
}
