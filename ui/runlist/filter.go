package runlist

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/ui/common"
)

// The run list's filter (fifty runs could only be walked with j): the filter key opens
// a line editor in the list's title, and as it is typed the list shows only the rows
// whose name or id holds every word of it, case-insensitively, or whose kind (pty,
// pipe), agent (codex), agent state (waiting, working, idle, unknown) or state
// (running, paused, exited) starts with it: /waiting, /pty, /codex. Accept keeps it and
// gives the keys back to the list; dismiss, or the clear key afterwards, drops it.
// The title shows it and how many runs it shows of how many ("Runs 3 of 54 /web"), a
// run that arrives meanwhile counted. The selection stays on a row shown: the first
// match when the selected row stops matching (none matching, it stays where it was),
// and the movement keys, the mouse and next waiting/unseen go among the rows shown.

// Filtering reports whether the filter is being typed (keys go to it).
func (l List) Filtering() bool { return l.filtering }

// Filtered reports whether a filter hides rows.
func (l List) Filtered() bool { return len(l.terms()) > 0 }

// terms are the filter's words, lower-cased.
func (l List) terms() []string { return strings.Fields(strings.ToLower(l.filter.Value())) }

// matchTerms reports whether every term is in name or id, or begins one of words
// (a row's kind, agent and states, lower-case). A word matches only from its start,
// so typing "e" does not already match every pipe run and every idle agent.
func matchTerms(terms []string, name, id string, words ...string) bool {
	name, id = strings.ToLower(name), strings.ToLower(id)
	for _, t := range terms {
		if !strings.Contains(name, t) && !strings.Contains(id, t) &&
			!slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, t) }) {
			return false
		}
	}
	return true
}

// rowMatches reports whether row i (runs, then pending runs) holds every term.
func (l List) rowMatches(i int, terms []string) bool {
	if i < len(l.runs) {
		r := l.runs[i]
		return matchTerms(terms, common.Clean(r.Name), r.ID+" "+r.Host, runWords(r)...)
	}
	p := l.pending[i-len(l.runs)]
	return matchTerms(terms, common.Clean(p.Spec.DisplayName()), "", string(p.Spec.Kind()), strings.ToLower(p.Spec.Agent))
}

// runWords are what the filter matches of a run besides its name and id: its kind,
// its agent, and its state as the row shows it: a live agent's state (waiting,
// working, idle, or unknown when no rule decides), paused, or the run's own.
func runWords(i runs.Info) []string {
	w := []string{string(i.Kind), strings.ToLower(i.Agent), i.State.String()}
	if i.Paused && i.State == runs.Running {
		w = append(w, "paused")
	}
	if i.Agent != "" && i.State == runs.Running {
		w = append(w, i.AgentState.String())
	}
	return w
}

// shown is the rows the list shows, by row number, in the order they are drawn (by
// host over several): every row without a filter.
func (l List) shown() []int {
	terms := l.terms()
	out := make([]int, 0, l.Len())
	for i := range l.Len() {
		if len(terms) == 0 || l.rowMatches(i, terms) {
			out = append(out, i)
		}
	}
	return l.grouped(out)
}

// Matches reports whether row key is listed and shown under the filter.
func (l List) Matches(key string) bool {
	i := l.row(key)
	return i >= 0 && (!l.Filtered() || l.rowMatches(i, l.terms()))
}

// matchingRuns counts the runs shown (pending rows aside, as the title's count).
func (l List) matchingRuns() int {
	n, terms := 0, l.terms()
	for i := range l.runs {
		if l.rowMatches(i, terms) {
			n++
		}
	}
	return n
}

// StartFilter opens the filter for typing, its cursor after the text it has.
func (l *List) StartFilter() {
	l.filtering = true
	l.filter.CursorEnd()
	l.ver++
}

// ClearFilter drops the filter and stops its typing: every row is shown again.
func (l *List) ClearFilter() {
	l.filtering = false
	l.dropFilter()
}

// dropFilter empties the filter (its typing goes on, if it was typed).
func (l *List) dropFilter() {
	l.filter.SetValue("")
	l.follow()
	l.ver++
}

// filterUpdate gives a key or a paste to the filter being typed: accept keeps it,
// dismiss drops it, text edits it; a key that types nothing and is not the editor's
// (the arrows) moves the selection among the rows shown.
func (l List) filterUpdate(msg tea.Msg) List {
	switch m := msg.(type) {
	case tea.PasteMsg:
		l.filter.Insert(m.Content)
		l.refilter()
	case tea.KeyPressMsg:
		switch {
		case key.Matches(m, *l.fk.Accept):
			l.filtering = false
			if !l.Filtered() { // spaces alone filter nothing
				l.filter.SetValue("")
			}
			l.ver++
		case key.Matches(m, *l.fk.Dismiss):
			l.ClearFilter()
		case l.filter.Key(m):
			l.refilter()
		case m.Text == "":
			l.moveKey(m)
		}
	}
	return l
}

// refilter keeps the selection on a row shown after the filter changed: the first
// match when the selected row does not match (none matching: it stays).
func (l *List) refilter() {
	if shown := l.shown(); len(shown) > 0 && !l.Matches(l.sel) {
		l.choose(l.keyAt(shown[0]))
	}
	l.follow()
	l.ver++
}

// heading is the title's start: "Runs 54", with a filter "Runs 3 of 54 /web", and the
// filter's cursor column in it while it is typed (-1 otherwise). The filter's text
// scrolls in the room the title has.
func (l List) heading() (string, int) {
	st := l.c.Styles
	total := len(l.runs) + l.unlisted.Runs
	head := fmt.Sprintf("Runs %d", total)
	if !l.filtering && !l.Filtered() {
		if l.link != "" {
			return st.Title.Render(head) + st.Warn.Render(" · "+l.link), -1
		}
		return st.Title.Render(head), -1
	}
	if l.Filtered() {
		head = fmt.Sprintf("Runs %d of %d", l.matchingRuns(), total)
	}
	head += " /"
	text, col := l.filter.View(max(l.w-5-common.WidthOf(head), 1)) // its text holds no control characters
	if col += common.WidthOf(head); !l.filtering {
		col = -1
	}
	return st.Title.Render(head) + st.Warn.Render(text), col
}

// Cursor is the filter's cursor while it is typed, relative to the pane (nil
// otherwise): in the title, after the frame's "┌─".
func (l List) Cursor() *tea.Cursor {
	if _, col := l.heading(); l.filtering && col >= 0 {
		c := tea.NewCursor(2+col, 0)
		c.Shape, c.Blink = tea.CursorBar, true
		return c
	}
	return nil
}
