package ui

import (
	"corral/runs"
)

// rowKind is what a row of the run list is.
type rowKind int

const (
	rowNone    rowKind = iota // no row: the list is empty
	rowRun                    // a run the core knows
	rowPending                // a configured run not started yet (pending.go)
)

// row is one row of the run list, the selection the details and terminal panes show:
// a run, or a configured run not started yet.
type row struct {
	kind rowKind
	run  runs.Info  // rowRun
	pend pendingRun // rowPending
}

func rowOfRun(i runs.Info) row      { return row{kind: rowRun, run: i} }
func rowOfPending(p pendingRun) row { return row{kind: rowPending, pend: p} }

// SelectedRow is the selected row (rowNone for none).
func (l RunList) SelectedRow() row {
	if i := l.index(l.sel); i >= 0 {
		return rowOfRun(l.runs[i])
	}
	if p, ok := l.Pending(l.sel); ok {
		return rowOfPending(p)
	}
	return row{}
}

// SelectedLive is the selected run's id while it is live ("" otherwise): the run
// whose process tree is read.
func (l RunList) SelectedLive() string {
	if sel, ok := l.Selected(); ok && !sel.Ended() {
		return sel.ID
	}
	return ""
}

// Label names run id for a message: its name and id, or the id alone if it is not
// listed.
func (l RunList) Label(id string) string {
	if i, ok := l.Run(id); ok && l.Grouped() {
		return i.Name + " " + id + " on " + i.Host
	} else if ok {
		return i.Name + " " + id
	}
	return id
}

// Live is the runs that have not ended.
func (l RunList) Live() []runs.Info {
	var live []runs.Info
	for _, i := range l.runs {
		if !i.Ended() {
			live = append(live, i)
		}
	}
	return live
}

// UnseenEnds counts ended runs carrying the attention marker: their end was never
// looked at.
func (l RunList) UnseenEnds() int {
	n := 0
	for _, i := range l.runs {
		if i.Ended() && l.attention[i.ID] {
			n++
		}
	}
	return n
}

// Partner is the other run of info's parity pair, if it is listed.
func (l RunList) Partner(info runs.Info) (runs.Info, bool) {
	if info.Spec.Pair == "" {
		return runs.Info{}, false
	}
	for _, i := range l.runs {
		if i.ID != info.ID && i.Spec.Pair == info.Spec.Pair {
			return i, true
		}
	}
	return runs.Info{}, false
}
