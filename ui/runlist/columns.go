package runlist

import (
	"fmt"
	"slices"
	"time"

	"corral/runs"
	"corral/ui/common"
)

// The run list's columns are sized from what the rows hold and the width there is
// (names were cut to 15 columns at 200, to 3 at 100, and reasons to
// "no-output s…"). A name (its first ten columns), the state, escape markers and the
// short status come first; then the rest of the name, the full status
// ("no-output-timeout sig9" for "no-output sig9"), the kind, the age and the pid, in that
// order, while they fit. A pane too narrow for a state and a status column shows one
// column with the status when there is one.

// listCols are the run list's column widths; 0 is a column not shown.
type listCols struct {
	name, kind, state, status, marks, age, pid int
	diff                                       int  // a worktree run's "+12 −3"
	merged                                     bool // state holds the status when there is one
}

// listNeed is the width each column's longest cell needs.
type listNeed struct {
	name, status, short, marks, pid int
	diff                            int // the longest "+added −removed" of a worktree run
	state                           int // the longest state word
	pend                            int // "not started", when a row says it
}

// stateW fits every state word of a run ("starting", "exiting", "paused"); an agent's
// state with its glyph ("! waiting") widens the column by one when a row shows one.
const stateW = 8

// need measures the rows: names, statuses (full and short), markers, pids.
func (l List) need() listNeed {
	n := listNeed{name: 4, state: stateW}
	measure := l.runs
	if l.unlisted.Runs > 0 && len(l.widest) > 0 {
		measure = append(slices.Clip(l.runs), l.widest...)
	}
	for _, i := range measure {
		full, short := l.statusTexts(i)
		n.state = max(n.state, common.WidthOf(common.StateText(i)))
		n.name = max(n.name, common.WidthOf(common.Clean(i.Name)))
		n.status = max(n.status, common.WidthOf(full))
		n.short = max(n.short, common.WidthOf(short))
		n.marks = max(n.marks, common.WidthOf(markers(i)))
		n.pid = max(n.pid, len(pidText(i)))
		n.diff = max(n.diff, common.WidthOf(diffText(i)))
	}
	for _, p := range l.pending {
		n.name = max(n.name, common.WidthOf(common.Clean(p.Spec.Name)))
		n.short = max(n.short, len("not started")-stateW-1)
		n.pend = len("not started")
	}
	n.status = max(n.status, n.short)
	return n
}

// listColumns sizes the columns of a list w columns wide (the attention marker
// first, one space between columns).
func listColumns(w int, n listNeed) listCols {
	var c listCols
	left := w - 1
	take := func(want int) int {
		if want <= 0 || left < want+1 {
			return 0
		}
		left -= want + 1
		return want
	}
	grow := func(col *int, want int) {
		d := min(max(want-*col, 0), left)
		*col += d
		left -= d
	}
	reserve := n.state + 1 // the first ten columns of a name leave room for a state
	if n.marks > 0 {
		reserve += n.marks + 1 // and the escape markers: a warning never drops
	}
	c.name = take(max(min(n.name, 10, left-reserve-1), 4))
	c.state = take(n.state)
	c.marks = take(n.marks)
	c.status = take(n.short)
	if c.status == 0 && n.short > 0 && c.state > 0 { // one column for both
		c.merged = true
		grow(&c.state, n.short)
	}
	if c.name == 0 { // narrower than a name: whatever there is
		c.name = max(left-1, 1)
		left = 0
	}
	grow(&c.name, n.name)
	switch { // a status grows to its full form only when all of it fits
	case c.merged && left >= max(n.status, n.pend)-c.state:
		grow(&c.state, max(n.status, n.pend))
	case c.status > 0 && left >= n.status-c.status:
		grow(&c.status, n.status)
	}
	c.diff = take(n.diff)
	c.kind = take(4)
	c.age = take(4)
	c.pid = take(n.pid)
	return c
}

// statusTexts are a run's status in full and short: an ended run's reason as the
// closed set names it or as a badge ("no-output-timeout sig9", "no-output sig9"), a
// live run's countdown.
func (l List) statusTexts(i runs.Info) (full, short string) {
	if i.Ended() {
		return i.Reason.String() + common.ExitText(i, " ", " sig"), common.Badge(i)
	}
	s, _ := l.status(i)
	return s, s
}

// statusFor is the status text that fits w columns: the full one, else the short
// one (cut if it must be).
func (l List) statusFor(i runs.Info, w int) string {
	full, short := l.statusTexts(i)
	if common.WidthOf(full) <= w {
		return full
	}
	return short
}

// rowFields are a run's cells in the list's columns.
func (l List) rowFields(i runs.Info, c listCols) []common.Field {
	st := l.c.Styles
	_, statusStyle := l.status(i)
	f := []common.Field{{Text: " ", Style: st.Attention, W: 1}, {Text: common.Clean(i.Name), Style: st.Title, W: c.name}}
	if l.attention[i.ID] {
		f[0].Text = "●"
	}
	add := func(text string, style common.Style, w int) {
		if w != 0 {
			f = append(f, common.Field{Text: text, Style: style, W: w})
		}
	}
	add(string(i.Kind), st.Muted, c.kind)
	state, style := common.StateText(i), common.StateStyle(st, i)
	if s := l.statusFor(i, c.state); c.merged && s != "" {
		state, style = s, statusStyle
	}
	add(state, style, c.state)
	add(pidText(i), st.Muted, -c.pid)
	add(l.ageText(i), st.Muted, -c.age)
	add(l.statusFor(i, c.status), statusStyle, c.status)
	add(markers(i), st.Warn, c.marks)
	add(diffText(i), st.OK, -c.diff)
	return f
}

// diffText is a worktree run's changes against its base when last counted, "+12 −3";
// "" for a run without a worktree or not counted yet.
func diffText(i runs.Info) string {
	if i.Worktree == nil || i.Diff == nil {
		return ""
	}
	return fmt.Sprintf("+%d −%d", i.Diff.Added, i.Diff.Removed)
}

// pendingFields are a pending row's cells: its state spans the state, pid, age and
// status columns.
func (l List) pendingFields(p Pending, c listCols) []common.Field {
	st := l.c.Styles
	span := c.state
	for _, w := range []int{c.pid, c.age, c.status} {
		if w > 0 {
			span += w + 1
		}
	}
	state := "not started"
	if p.Starting {
		state = "starting…"
	}
	f := []common.Field{{Text: " ", Style: st.Muted, W: 1}, {Text: common.Clean(p.Spec.Name), Style: st.Muted, W: c.name}}
	if c.kind > 0 {
		f = append(f, common.Field{Text: string(p.Spec.Kind()), Style: st.Muted, W: c.kind})
	}
	f = append(f, common.Field{Text: state, Style: st.Muted, W: span})
	if c.marks > 0 {
		f = append(f, common.Field{Text: "", Style: st.Muted, W: c.marks})
	}
	if c.diff > 0 {
		f = append(f, common.Field{Text: "", Style: st.Muted, W: c.diff})
	}
	return f
}

// ageText is run i's age as drawn, noted for the clock while it grows.
func (l List) ageText(i runs.Info) string {
	d := l.age(i)
	if i.StartedAt.IsZero() || i.EndedAt.IsZero() {
		l.cache.Changes.Age(l.now, d)
	}
	return common.FmtAge(d)
}

func (l List) age(i runs.Info) time.Duration {
	switch {
	case i.StartedAt.IsZero():
		return l.now.Sub(i.CreatedAt)
	case !i.EndedAt.IsZero():
		return i.EndedAt.Sub(i.StartedAt)
	}
	return l.now.Sub(i.StartedAt)
}
