package runlist

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"corral/runs"
	"corral/runs/agentstate"
	"corral/ui/common"
	"corral/watchdog"
)

// The run list's rendering: its frame and one row per run or pending entry
// (columns.go sizes the columns).

// View renders the pane; it is cached until something shown changes.
func (l List) View() string {
	k := listKey{ver: l.ver, sec: l.now.Unix(), w: l.w, h: l.h}
	return l.cache.GetAt(k, l.now, func() string { return common.JoinLines(l.lines()) })
}

func (l List) lines() []string {
	st := l.c.Styles
	title, _ := l.heading()
	title += l.agentCounts()
	if n := len(l.pending); n > 0 {
		title += st.Muted.Render(fmt.Sprintf(" · %d not started", n))
	}
	if n := len(l.attention); n > 0 {
		title += " " + st.Attention.Render(fmt.Sprintf("● %d", n))
	}
	iw, ih := max(l.w-2, 0), max(l.h-2, 0)
	body := make([]string, 0, ih)
	lines := l.display()
	switch {
	case l.Len() == 0 && !l.Grouped():
		body = append(body, common.Fit(st.Muted.Render(common.Trunc(" no runs", iw)), iw))
	case len(l.shown()) == 0 && l.Filtered():
		body = append(body, common.Fit(st.Muted.Render(common.Trunc(" no run matches", iw)), iw))
	}
	cols := listColumns(iw, l.need())
	for _, ln := range lines[min(l.offset, len(lines)):] {
		if len(body) == ih {
			break
		}
		i := ln.row
		switch {
		case ln.header > 0:
			body = append(body, l.hostLine(l.hosts[ln.header-1], iw))
		case i < len(l.runs):
			body = append(body, l.runRow(l.runs[i], cols, iw))
		default:
			body = append(body, l.drawRow(l.pendingFields(l.pending[i-len(l.runs)], cols), l.pending[i-len(l.runs)].Key, iw))
		}
	}
	return common.Box(l.border(), title, body, l.w, l.h)
}

func (l List) border() common.Style {
	if l.focused {
		return l.c.Styles.BorderFocus
	}
	return l.c.Styles.Border
}

// runRow is one run, exactly w columns.
func (l List) runRow(i runs.Info, c listCols, w int) string {
	if l.hostDown(i) && i.ID != l.sel { // what its host said last: muted
		return l.c.Styles.Muted.Render(common.Fit(common.PlainFields(l.rowFields(i, c)), w))
	}
	return l.drawRow(l.rowFields(i, c), i.ID, w)
}

// drawRow joins a row's fields into exactly w columns, reversed when selected.
func (l List) drawRow(f []common.Field, key string, w int) string {
	if key == l.sel {
		return l.c.Styles.Selected.Render(common.Fit(common.PlainFields(f), w))
	}
	if n := common.FieldsWidth(f); n <= w { // fields are exact: no need to measure the row
		return common.StyledFields(f) + strings.Repeat(" ", w-n)
	}
	return common.Fit(common.StyledFields(f), w)
}

// status is the countdown of a live run or the badge of an ended one.
func (l List) status(i runs.Info) (string, common.Style) {
	st := l.c.Styles
	switch {
	case i.Ended():
		return common.Badge(i), common.BadgeStyle(st, i)
	case i.Paused:
		return "frozen", st.Warn
	}
	if s, ok := common.ServiceText(i, l.now, &l.cache.Changes); ok {
		// The state column says restarting already: "restarting  2/5 in 4s".
		return strings.TrimPrefix(s, "restarting "), common.ServiceStyle(st, i)
	}
	cd, ok := tighter(i.Watchdog, l.now, &l.cache.Changes)
	if !ok {
		return "", st.Muted
	}
	l.cache.Changes.Countdown(l.now, cd)
	if cd.Warn {
		return "⏱ " + common.FmtLeft(cd.Left), st.Warn
	}
	return "⏱ " + common.FmtLeft(cd.Left), common.Style{}
}

// tighter is the armed deadline with the least time left. While one of the two runs
// and the other is frozen, the running one becomes the tighter when it has run down to
// the other's time left: that moment is noted in ch.
func tighter(w watchdog.State, now time.Time, ch *common.Changes) (common.Countdown, bool) {
	o, okO := common.DeadlineAt(w.Overall, false, now)
	n, okN := common.DeadlineAt(w.NoOutput, w.Frozen, now)
	switch {
	case okO && okN:
		if o.Running != n.Running {
			run, still := o, n
			if n.Running {
				run, still = n, o
			}
			if gap := run.Left - still.Left; gap > 0 {
				ch.At(now.Add(gap))
			}
		}
		if n.Left < o.Left {
			return n, true
		}
		return o, true
	case okN:
		return n, true
	}
	return o, okO
}

func pidText(i runs.Info) string {
	if i.PID == 0 {
		return "-"
	}
	return strconv.Itoa(i.PID)
}

// markers are the escape count and the adopted mark.
func markers(i runs.Info) string {
	s := ""
	if i.Escapees > 0 {
		s = "⚠" + strconv.Itoa(i.Escapees)
	}
	if i.Adopted {
		s += "A"
	}
	return s
}

// agentCounts are the title's agent counts: " · 2 waiting · 1 working · 3 idle",
// waiting first and loudest; nothing when no run is an agent.
func (l List) agentCounts() string {
	n := l.AgentCounts()
	st := l.c.Styles
	s := ""
	for _, c := range []struct {
		state agentstate.State
		style common.Style
	}{{agentstate.Waiting, st.AgentWaiting}, {agentstate.Working, st.AgentWorking}, {agentstate.Idle, st.AgentIdle}} {
		if k := n[c.state]; k > 0 {
			s += " · " + c.style.Render(fmt.Sprintf("%d %s", k, c.state))
		}
	}
	return s
}

// AgentCounts counts the live agent runs in each state, those not listed yet among
// them (api.RunSummary's states).
func (l List) AgentCounts() map[agentstate.State]int {
	n := map[agentstate.State]int{}
	for _, i := range l.runs {
		if i.Agent != "" && i.State == runs.Running {
			n[i.AgentState]++
		}
	}
	if u := l.unlisted; u.Runs > 0 {
		for s, k := range [...]int{agentstate.Waiting: u.Waiting, agentstate.Working: u.Working, agentstate.Idle: u.Idle} {
			if k > 0 {
				n[agentstate.State(s)] += k
			}
		}
	}
	return n
}
