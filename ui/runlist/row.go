package runlist

import (
	"corral/runs"
)

// RowKind is what a row of the run list is.
type RowKind int

const (
	RowNone    RowKind = iota // no row: the list is empty
	RowRun                    // a run the core knows
	RowPending                // a configured run not started yet (pending.go)
)

// Row is one row of the run list, the selection the details and terminal panes show:
// a run, or a configured run not started yet. It is a value the list hands out.
type Row struct {
	Kind RowKind
	Run  runs.Info // RowRun
	Pend Pending   // RowPending
}

// SelectedRow is the selected row (RowNone for none).
func (l List) SelectedRow() Row {
	if i := l.index(l.sel); i >= 0 {
		return Row{Kind: RowRun, Run: l.runs[i]}
	}
	if p, ok := l.Pending(l.sel); ok {
		return Row{Kind: RowPending, Pend: p}
	}
	return Row{}
}

// SelectedLive is the selected run's id while it is live ("" otherwise): the run
// whose process tree is read.
func (l List) SelectedLive() string {
	if sel, ok := l.Selected(); ok && !sel.Ended() {
		return sel.ID
	}
	return ""
}

// Label names run id for a message: its name and id, or the id alone if it is not
// listed.
func (l List) Label(id string) string {
	if i, ok := l.Run(id); ok && l.Grouped() {
		return i.Name + " " + id + " on " + i.Host
	} else if ok {
		return i.Name + " " + id
	}
	return id
}

// Live is the runs that have not ended.
func (l List) Live() []runs.Info {
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
func (l List) UnseenEnds() int {
	n := 0
	for _, i := range l.runs {
		if i.Ended() && l.attention[i.ID] {
			n++
		}
	}
	return n
}

// Partner is the other run of info's parity pair, if it is listed.
func (l List) Partner(info runs.Info) (runs.Info, bool) {
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
