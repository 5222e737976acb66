package diffview

import (
	"bytes"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The search: typed in the bottom line (lineinput), run over the whole text when
// accepted. Smart case: a query without capitals ignores the case of ASCII letters.

// typeKey edits the query; accept searches from the window's top, dismiss keeps the
// search there was.
func (m *Model) typeKey(k tea.KeyPressMsg) {
	switch {
	case key.Matches(k, *m.pk.Accept):
		m.typing, m.query = false, m.input.Value()
		m.find(true)
	case key.Matches(k, *m.pk.Dismiss):
		m.typing = false
	default:
		m.input.Key(k)
	}
}

// find collects the lines that match the query; jump goes to the first match at or
// after the window's top (the first match overall after the last).
func (m *Model) find(jump bool) {
	m.matches, m.cur = m.matches[:0], -1
	if m.query == "" || m.doc == nil {
		return
	}
	m.matches = m.doc.find(m.query, m.matches)
	switch {
	case len(m.matches) == 0:
		m.notice = fmt.Sprintf("no match for %q", m.query)
	case jump:
		i := 0
		for i < len(m.matches) && m.matches[i] < m.top {
			i++
		}
		m.goTo(i % len(m.matches))
	}
}

// find appends to out the lines holding q, each once, in order.
func (d *Doc) find(q string, out []int) []int {
	hay, needle := d.text, []byte(q)
	if fold(q) {
		hay = d.lower
	}
	for off := 0; off < len(hay); {
		i := bytes.Index(hay[off:], needle)
		if i < 0 {
			break
		}
		l := d.lineOf(off + i)
		if l >= d.Len() {
			break
		}
		out = append(out, l)
		off = d.start[l+1] // the next line: a line counts once
	}
	return out
}

// fold says a query ignores case: it has no capital letter.
func fold(q string) bool { return q == strings.ToLower(q) }

// stepMatch goes to the next match (dir 1) or the previous (-1), round the end.
func (m *Model) stepMatch(dir int) {
	n := len(m.matches)
	switch {
	case m.query == "":
		m.notice = "no search: " + m.km.DiffSearch.Help().Key + " to search"
	case n == 0:
		m.notice = fmt.Sprintf("no match for %q", m.query)
	default:
		m.goTo(((m.cur+dir)%n + n) % n)
	}
}

// goTo shows match i a third of the way down the window.
func (m *Model) goTo(i int) {
	m.cur = i
	m.top = m.matches[i] - m.rows()/3
	m.clamp()
}
