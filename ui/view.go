package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs/agentstate"
	"corral/ui/common"
)

// rootCache holds the last frame and each pane's lines, so a frame in which nothing
// moved costs string comparisons (of the same backing memory, so O(1)).
type rootCache struct {
	parts   [5]string
	lines   [4][]string
	content string
	ok      bool
}

// split returns a pane's lines, splitting its string only when it changed.
func (c *rootCache) split(i int, s string) []string {
	if c.ok && c.parts[i] == s && c.lines[i] != nil {
		return c.lines[i]
	}
	c.lines[i] = strings.Split(s, "\n")
	return c.lines[i]
}

// View draws the screen: panes joined line by line, the status line, an open form on
// top, and the real cursor where the focused app or the open prompt has it.
func (m Model) View() tea.View {
	live, attention := m.list.Counts()
	v := tea.View{AltScreen: true, ReportFocus: true, WindowTitle: windowTitle(live, attention, m.list.AgentCounts()[agentstate.Waiting])}
	if m.lay.w <= 0 || m.lay.h <= 0 {
		return v
	}
	if m.mode == modeHelp {
		v.Content = m.help.View()
		return v
	}
	if m.mode == modeDiff {
		v.Content, v.MouseMode = m.diff.View(), mouseMode(false, 0, m.mouse)
		return v
	}
	v.Content = m.dlg.Overlay(m.compose())
	if m.state != nil && m.clock != nil {
		// Wake when a figure just drawn changes (an age, a countdown) or a held frame
		// is due: the clock does not tick while nothing on screen moves with it.
		m.clock.figuresAt(m.list.NextChange(), m.details.NextChange(), m.term.NextChange())
	}
	switch v.Cursor = m.dlg.Cursor(); m.mode {
	case modeFocus:
		if v.Cursor = m.term.Cursor(); v.Cursor != nil {
			v.Cursor.X += m.lay.term.x
			v.Cursor.Y += m.lay.term.y
		}
	case modeFilter:
		if v.Cursor = m.list.Cursor(); v.Cursor != nil {
			v.Cursor.X += m.lay.list.x
			v.Cursor.Y += m.lay.list.y
		}
	}
	v.MouseMode = mouseMode(m.mode == modeFocus, m.term.ScreenState().MouseMode, m.mouse)
	return v
}

// windowTitle is the terminal's window or tab title: Corral, its live runs and how many
// want the operator (a bell, a desktop notification, an end while not selected), so an
// agent waiting for input shows in the tab bar while its Corral is in another tab. It
// changes only with those counts: nothing to redraw while idle.
func windowTitle(live, attention, waiting int) string {
	t := fmt.Sprintf("corral · %d live", live)
	if waiting > 0 {
		t += fmt.Sprintf(" · %d waiting", waiting)
	}
	if attention > 0 {
		t += fmt.Sprintf(" · attention %d", attention)
	}
	return t
}

// compose joins the panes and the status line: the left column's panes beside the
// right column's, line by line (a pane not shown has an empty string).
func (m Model) compose() string {
	c, l := m.view, m.lay
	var parts [5]string
	parts[2] = m.pair.view(m.c, m.term, l)
	if !l.zoomed {
		parts[0] = m.list.View()
	}
	if l.details.w > 0 {
		parts[1] = m.details.View()
	}
	if l.events.w > 0 {
		parts[3] = m.events.View()
	}
	parts[4] = m.statusLine()
	if c.ok && parts == c.parts {
		return c.content
	}
	lines := make([]string, 0, l.h)
	left, right := c.column(parts, 0, 1), c.column(parts, 2, 3)
	if l.zoomed {
		lines = append(lines, right...)
	} else {
		for y := range min(len(left), len(right)) {
			lines = append(lines, left[y]+right[y])
		}
	}
	lines = append(lines, parts[4])
	c.parts, c.ok, c.content = parts, true, common.JoinLines(lines)
	return c.content
}

// column is two stacked panes' lines; an empty part is a pane not shown.
func (c *rootCache) column(parts [5]string, top, bottom int) []string {
	out := c.split(top, parts[top])
	if parts[bottom] == "" {
		return out
	}
	return append(out[:len(out):len(out)], c.split(bottom, parts[bottom])...)
}

// statusLine is the bottom line: the open prompt or question, the focus indicator,
// the quit progress, a notice, or short help.
func (m Model) statusLine() string {
	st, w := m.c.Styles, m.lay.w
	dialogLine, inLine := m.dlg.StatusLine()
	switch {
	case m.mode == modeQuitting:
		return common.Fit(quitLine(st, m.list.Live()), w)
	case m.mode == modeDialog && inLine:
		return dialogLine
	case m.link != "":
		return common.Fit(st.Warn.Render(" "+m.link+" — keys are not delivered; "+m.c.Keys.Quit.Help().Key+" detaches"), w)
	case m.mode == modeFocus && m.term.Info().Ended():
		return common.Fit(st.Focus.Render(" FOCUS — "+m.c.Keys.Leave.Help().Key+" to leave ")+
			st.Warn.Render(" "+common.Clean(m.term.Info().Name)+" has ended: its last screen; keys are not sent"), w)

	case m.mode == modeFocus:
		return common.Fit(st.Focus.Render(" FOCUS — "+m.c.Keys.Leave.Help().Key+" to leave ")+
			st.Muted.Render(" every key goes to "+common.Clean(m.term.Info().Name)), w)

	case m.mode == modeFilter:
		return common.Fit(filterHelp(st, m.c.Keys), w)
	case m.flash != "":
		return common.Fit(st.Warn.Render(" "+m.flash), w)
	case m.mode == modeScroll:
		k := m.c.Keys
		return common.Fit(shortHelp(st, []key.Binding{k.ScrollUp, k.ScrollDown, k.PageUp, k.PageDown,
			k.NextMatch, k.PrevMatch, k.Search, k.Live}), w)

	}
	k := m.c.Keys.forRow(m.list.SelectedRow(), m.replay)
	if m.replay {
		return common.Fit(shortHelp(st, k.ReplayHelp()), w)
	}
	return common.Fit(shortHelp(st, k.ShortHelp()), w)
}

// filterHelp is the status line while the run list's filter is typed.
func filterHelp(st common.Styles, k KeyMap) string {
	pair := func(keys, desc string) string { return " " + st.Key.Render(keys) + " " + st.Desc.Render(desc) + " " }
	return st.Dialog.Render(" filter runs by name, id, kind, agent or state ") + pair(common.HelpKeys([]string{common.FirstKey(k.Up), common.FirstKey(k.Down)}), "select") +
		pair(common.FirstKey(k.Accept), "keep the filter") + pair(common.FirstKey(k.Dismiss), "clear it")
}

// shortHelp is "key desc" pairs of enabled bindings.
func shortHelp(st common.Styles, bs []key.Binding) string {
	var b strings.Builder
	for _, k := range bs {
		if !k.Enabled() {
			continue
		}
		b.WriteString(" " + st.Key.Render(k.Help().Key) + " " + st.Desc.Render(k.Help().Desc) + " ")
	}
	return b.String()
}

// Still reports whether the last Update changed nothing on screen: a periodic read
// that brought nothing new (the snapshot, the process tree, the counters), or a tick
// that woke only for those reads. The frame package then leaves the last frame as it
// is without asking for a View: an idle attach composed the whole UI for every reply
// of its reads, seconds apart, to find it unchanged.
func (m Model) Still() bool { return m.still }
