// Package help is the help page, generated from the keymap: titled groups in as many
// columns as the screen holds (each at least helpColW wide), a description too long
// for its column wrapped under itself, never cut. What does not fit one
// screen goes on further pages: the down and page-down keys turn them, any other key
// closes.
package help

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/ui/common"
)

// helpColW is the narrowest help column: a key and a short description.
const helpColW = 36

// helpLayout is the help's columns on a screen: their width and count, and the
// lines of every column of every page.
type helpLayout struct {
	colW, cols int
	pages      [][][]string // page → column → lines
}

// Group is a titled group of keys on the help page.
type Group struct {
	Title string
	Keys  []key.Binding
}

// Keys is the keys the help page reads, pointers into the root's KeyMap so that
// overrides reach it: the ones that turn its pages (the transcript's scroll keys) and
// the one that leaves focus (its last line tells it).
type Keys struct {
	Down, PageDown, Up, PageUp, Leave *key.Binding
}

// Model is the help page: the groups it shows, whether it is open and which of its
// pages is shown.
type Model struct {
	c      *common.Common
	keys   Keys
	groups []Group
	open   bool
	at     int
	w, h   int
}

// New returns a closed help page.
func New(c *common.Common, keys Keys) Model { return Model{c: c, keys: keys} }

// Show opens the help on its first page, with groups (the keys as they are now).
func (hv *Model) Show(groups []Group) { hv.groups, hv.open, hv.at = groups, true, 0 }

// Open reports whether the help is shown.
func (hv Model) Open() bool { return hv.open }

// SetSize sets the screen size the help fills.
func (hv *Model) SetSize(w, h int) { hv.w, hv.h = w, h }

// layout lays the help out in the fewest columns that hold it on one page (with
// blank lines between groups if they fit too), or in as many as fit, on pages.
func (hv Model) layout(w, h int) helpLayout {
	iw, ih := max(w-2, 1), max(h-2, 1)
	most := max(iw/helpColW, 1)
	var l helpLayout
	for n := 1; n <= most; n++ {
		l.cols, l.colW = n, iw/n
		for _, gaps := range []bool{true, false} { // without the gaps between groups before a column more
			if lines := hv.lines(l.colW-1, gaps); (len(lines)+ih-1)/ih <= n {
				l.pages = paginate(lines, ih, n)
				return l
			}
		}
	}
	l.pages = paginate(hv.lines(l.colW-1, true), ih, l.cols)
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

// lines are the help's lines, each at most w columns; gaps puts a blank line after
// each group.
func (hv Model) lines(w int, gaps bool) []string {
	st, groups := hv.c.Styles, hv.groups
	keyW := 0
	for _, g := range groups {
		for _, b := range g.Keys {
			keyW = max(keyW, common.WidthOf(b.Help().Key))
		}
	}
	var out []string
	for _, g := range groups {
		if !slices.ContainsFunc(g.Keys, key.Binding.Enabled) {
			continue // a mode this UI is not in (the replay keys outside corral replay)
		}
		out = append(out, " "+st.Title.Render(g.Title))
		for _, b := range g.Keys {
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
		hv.keys.Leave.Help().Key)
	return append(out, common.WrapHanging(foot, w, 1)...)
}

// View draws the help page, the whole screen.
func (hv Model) View() string {
	st, w, h := hv.c.Styles, hv.w, hv.h
	iw, ih := max(w-2, 1), max(h-2, 1)
	hl := hv.layout(w, h)
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
		k := hv.keys
		title += st.Muted.Render(fmt.Sprintf(" page %d/%d · %s/%s: next, %s/%s: back · any other key closes", at+1, n,
			common.FirstKey(*k.Down), common.FirstKey(*k.PageDown), common.FirstKey(*k.Up), common.FirstKey(*k.PageUp)))
	}
	return common.JoinLines(common.Box(st.BorderFocus, title, body, w, h))
}

// Update turns the help's pages on a key; any other key closes it.
func (hv Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || !hv.open {
		return hv, nil
	}
	km := hv.keys
	pages := len(hv.layout(hv.w, hv.h).pages)
	switch {
	case pages > 1 && key.Matches(k, *km.Down, *km.PageDown):
		hv.at = (hv.at + 1) % pages
	case pages > 1 && key.Matches(k, *km.Up, *km.PageUp):
		hv.at = (hv.at + pages - 1) % pages
	default:
		hv.at, hv.open = 0, false
	}
	return hv, nil
}
