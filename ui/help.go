package ui

import (
	"corral/ui/common"
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

// helpView is the help page: which of its pages is shown.
type helpView struct{ at int }

// layout lays the help out in the fewest columns that hold it on one page (with
// blank lines between groups if they fit too), or in as many as fit, on pages.
func (hv helpView) layout(c *Common, w, h int) helpLayout {
	iw, ih := max(w-2, 1), max(h-2, 1)
	most := max(iw/helpColW, 1)
	var l helpLayout
	for n := 1; n <= most; n++ {
		l.cols, l.colW = n, iw/n
		for _, gaps := range []bool{true, false} { // without the gaps between groups before a column more
			if lines := helpLines(c, l.colW-1, gaps); (len(lines)+ih-1)/ih <= n {
				l.pages = paginate(lines, ih, n)
				return l
			}
		}
	}
	l.pages = paginate(helpLines(c, l.colW-1, true), ih, l.cols)
	return l
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
func helpLines(c *Common, w int, gaps bool) []string {
	st, groups := c.Styles, c.Keys.helpGroups()
	keyW := 0
	for _, g := range groups {
		for _, b := range g.keys {
			keyW = max(keyW, common.WidthOf(b.Help().Key))
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
			l := " " + st.Key.Render(common.Pad(b.Help().Key, keyW)) + " " + st.Desc.Render(b.Help().Desc)
			out = append(out, common.WrapHanging(l, w, keyW+2)...)
		}
		if gaps {
			out = append(out, "")
		}
	}
	foot := fmt.Sprintf(" In focus every key, paste and mouse event goes to the run until %s. Press any key to close.",
		c.Keys.Leave.Help().Key)
	return append(out, common.WrapHanging(foot, w, 1)...)
}

// View draws the help page shown on a w×h screen.
func (hv helpView) View(c *Common, w, h int) string {
	st := c.Styles
	iw, ih := max(w-2, 1), max(h-2, 1)
	hl := hv.layout(c, w, h)
	n := max(len(hl.pages), 1)
	at := (hv.at%n + n) % n
	body := make([]string, ih)
	if len(hl.pages) > 0 {
		for _, col := range hl.pages[at] {
			for y := range body {
				l := ""
				if y < len(col) {
					l = col[y]
				}
				body[y] += common.Fit(l, hl.colW)
			}
		}
	}
	for i := range body {
		body[i] = common.Fit(body[i], iw)
	}
	title := st.TitleFocus.Render("Help")
	if n > 1 {
		k := c.Keys
		title += st.Muted.Render(fmt.Sprintf(" page %d/%d · %s/%s: next, %s/%s: back · any other key closes", at+1, n,
			firstKey(k.ScrollDown), firstKey(k.PageDown), firstKey(k.ScrollUp), firstKey(k.PageUp)))
	}
	return common.JoinLines(common.Box(st.BorderFocus, title, body, w, h))
}

// Key turns the help's pages; any other key closes it (true).
func (hv *helpView) Key(c *Common, k tea.KeyPressMsg, w, h int) (closed bool) {
	km := c.Keys
	pages := len(hv.layout(c, w, h).pages)
	switch {
	case pages > 1 && key.Matches(k, km.ScrollDown, km.PageDown):
		hv.at = (hv.at + 1) % pages
	case pages > 1 && key.Matches(k, km.ScrollUp, km.PageUp):
		hv.at = (hv.at + pages - 1) % pages
	default:
		hv.at = 0
		return true
	}
	return false
}
