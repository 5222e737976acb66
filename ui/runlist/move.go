package runlist

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/agentstate"
)

// The run list's selection moved among the rows shown (all, or the filter's): a row,
// a page, to either end, to the row under the mouse, to the next run that waits for
// its user or is unseen; the view scrolled to keep it drawn.

// moveKey moves the selection on a movement key; false for any other key.
func (l *List) moveKey(k tea.KeyPressMsg) bool {
	km := l.keys
	switch {
	case key.Matches(k, km.Up):
		l.move(-1)
	case key.Matches(k, km.Down):
		l.move(1)
	case key.Matches(k, km.First):
		l.move(-l.Len())
	case key.Matches(k, km.Last):
		l.move(l.Len())
	case key.Matches(k, km.PrevPage):
		l.page(-1)
	case key.Matches(k, km.NextPage):
		l.page(1)
	default:
		return false
	}
	return true
}

// move moves the selection d rows among the rows shown, stopping at either end.
func (l *List) move(d int) {
	shown := l.shown()
	if len(shown) == 0 {
		return
	}
	i := slices.Index(shown, l.row(l.sel))
	if i < 0 && d < 0 { // the selection is not shown: down from the top, up from the bottom
		i = len(shown)
	}
	l.choose(l.keyAt(shown[min(max(i+d, 0), len(shown)-1)]))
}

// page moves the view and the selection a page (the rows the pane holds), as a
// pager does: the row at the selection's place on the next page is selected; at the
// end, the last row.
func (l *List) page(d int) {
	rows, shown := l.rows(), l.shown()
	if len(shown) == 0 {
		return
	}
	i := max(slices.Index(shown, l.row(l.sel)), 0)
	l.offset = max(min(l.offset+d*rows, len(l.display())-rows), 0)
	l.choose(l.keyAt(shown[min(max(i+d*rows, 0), len(shown)-1)]))
}

// rows is how many rows the pane holds.
func (l List) rows() int { return max(l.h-2, 1) }

// follow scrolls so the selection is visible, with its host's header when it is its
// group's first row.
func (l *List) follow() {
	rows, lines := l.rows(), l.display()
	i := max(lineOf(lines, l.row(l.sel)), 0)
	top := i
	if i > 0 && lines[i-1].header > 0 {
		top = i - 1
	}
	l.offset = min(max(l.offset, i-rows+1), top)
	l.offset = max(min(l.offset, len(lines)-rows), 0)
}

// RowAt is the key of the list row drawn y lines below the pane's top edge (none on
// a host's header).
func (l List) RowAt(y int) (string, bool) {
	lines := l.display()
	i := l.offset + y - 1 // the top edge is the frame
	if y < 1 || y > l.h-2 || i >= len(lines) || lines[i].header > 0 {
		return "", false
	}
	return l.keyAt(lines[i].row), true
}

// NextWaiting is the run to go to for "who needs me": the live runs shown whose agent
// waits, the longest waiting first; the one after the selection when it is one of
// them. hidden counts the waiting runs the filter hides.
func (l List) NextWaiting() (next string, ok bool, hidden int) {
	var ws []runs.Info
	for _, i := range l.runs {
		switch {
		case i.State != runs.Running || i.Agent == "" || i.AgentState != agentstate.Waiting:
		case l.Matches(i.ID):
			ws = append(ws, i)
		default:
			hidden++
		}
	}
	if len(ws) == 0 {
		return "", false, hidden
	}
	slices.SortStableFunc(ws, func(a, b runs.Info) int { return a.AgentStateSince.Compare(b.AgentStateSince) })
	at := slices.IndexFunc(ws, func(i runs.Info) bool { return i.ID == l.sel })
	return ws[(at+1)%len(ws)].ID, true, hidden // at is -1 when the selection is not waiting: the oldest
}

// NextUnseen is the next run shown, after the selection in list order and round, that
// has the attention marker; hidden counts the marked runs the filter hides.
func (l List) NextUnseen() (next string, ok bool, hidden int) {
	n, at := len(l.runs), max(l.index(l.sel), 0)
	for k := 1; k <= n; k++ {
		id := l.runs[(at+k)%n].ID
		switch {
		case !l.attention[id]:
		case !l.Matches(id):
			hidden++
		case !ok:
			next, ok = id, true
		}
	}
	return next, ok, hidden
}
