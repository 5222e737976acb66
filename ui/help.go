package ui

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The help page is generated from the keymap: titled groups in as many columns as
// the screen holds (each at least helpColW wide), a description too long for its
// column wrapped under itself, never cut (issue 14.7). What does not fit one screen
// goes on further pages: the down and page-down keys turn them, any other key closes.

// helpColW is the narrowest help column: a key and a short description.
const helpColW = 36

// helpLayout is the help's columns on a screen: their width and count, and the
// lines of every column of every page.
type helpLayout struct {
	colW, cols int
	pages      [][][]string // page → column → lines
}

// helpLayout lays the help out in the fewest columns that hold it on one page (with
// blank lines between groups if they fit too), or in as many as fit, on pages.
func (m Model) helpLayout() helpLayout {
	iw, ih := max(m.lay.w-2, 1), max(m.lay.h-2, 1)
	most := max(iw/helpColW, 1)
	var h helpLayout
	for n := 1; n <= most; n++ {
		h.cols, h.colW = n, iw/n
		for _, gaps := range []bool{true, false} { // without the gaps between groups before a column more
			if lines := m.helpLines(h.colW-1, gaps); (len(lines)+ih-1)/ih <= n {
				h.pages = paginate(lines, ih, n)
				return h
			}
		}
	}
	h.pages = paginate(m.helpLines(h.colW-1, true), ih, h.cols)
	return h
}

// paginate cuts lines into columns of h lines, n columns a page.
func paginate(lines []string, h, n int) [][][]string {
	var pages [][][]string
	for len(lines) > 0 {
		var page [][]string
		for range n {
			c := lines[:min(h, len(lines))]
			lines = lines[len(c):]
			page = append(page, c)
		}
		pages = append(pages, page)
	}
	return pages
}

// helpLines are the help's lines, each at most w columns; gaps puts a blank line
// after each group.
func (m Model) helpLines(w int, gaps bool) []string {
	st, groups := m.c.Styles, m.c.Keys.helpGroups()
	keyW := 0
	for _, g := range groups {
		for _, b := range g.keys {
			keyW = max(keyW, widthOf(b.Help().Key))
		}
	}
	var out []string
	for _, g := range groups {
		if !slices.ContainsFunc(g.keys, key.Binding.Enabled) {
			continue // a mode this UI is not in (the replay keys outside corral replay)
		}
		out = append(out, " "+st.Title.Render(g.title))
		for _, b := range g.keys {
			if !b.Enabled() { // keys of another mode (detach, shutdown: attached only)
				continue
			}
			l := " " + st.Key.Render(pad(b.Help().Key, keyW)) + " " + st.Desc.Render(b.Help().Desc)
			out = append(out, wrapHanging(l, w, keyW+2)...)
		}
		if gaps {
			out = append(out, "")
		}
	}
	foot := fmt.Sprintf(" In focus every key, paste and mouse event goes to the run until %s. Press any key to close.",
		m.c.Keys.Leave.Help().Key)
	return append(out, wrapHanging(foot, w, 1)...)
}

// helpPage draws the help page shown.
func (m Model) helpPage() string {
	st := m.c.Styles
	iw, ih := max(m.lay.w-2, 1), max(m.lay.h-2, 1)
	h := m.helpLayout()
	n := max(len(h.pages), 1)
	at := (m.helpAt%n + n) % n
	body := make([]string, ih)
	if len(h.pages) > 0 {
		for _, col := range h.pages[at] {
			for y := range body {
				l := ""
				if y < len(col) {
					l = col[y]
				}
				body[y] += fit(l, h.colW)
			}
		}
	}
	for i := range body {
		body[i] = fit(body[i], iw)
	}
	title := st.TitleFocus.Render("Help")
	if n > 1 {
		k := m.c.Keys
		title += st.Muted.Render(fmt.Sprintf(" page %d/%d · %s/%s: next, %s/%s: back · any other key closes", at+1, n,
			firstKey(k.ScrollDown), firstKey(k.PageDown), firstKey(k.ScrollUp), firstKey(k.PageUp)))
	}
	return joinLines(box(st.BorderFocus, title, body, m.lay.w, m.lay.h))
}

// helpKey turns the help's pages or closes it.
func (m Model) helpKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	km := m.c.Keys
	pages := len(m.helpLayout().pages)
	switch {
	case pages > 1 && key.Matches(k, km.ScrollDown, km.PageDown):
		m.helpAt = (m.helpAt + 1) % pages
	case pages > 1 && key.Matches(k, km.ScrollUp, km.PageUp):
		m.helpAt = (m.helpAt + pages - 1) % pages
	default:
		m.mode, m.helpAt = modeBrowse, 0
	}
	return m, nil
}
