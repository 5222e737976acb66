package ui

import (
	"corral/runs"
	"corral/ui/common"
)

// The terminal pane showing a configured run not started yet (pending.go).

// showPending shows a pending run: its name and how to start it.
func (t *Terminal) showPending(p pendingRun) {
	t.scroll, t.log, t.hasLog = nil, runs.Output{}, false
	t.id, t.screen = "", nil
	t.info = runs.Info{Name: p.spec.Name, Kind: p.spec.Kind()}
	t.pending = true
	t.ver++
}

func (t Terminal) pendingTitle() string {
	st := t.c.Styles
	return st.Title.Render(common.Clean(t.info.Name)) + st.Muted.Render(" "+string(t.info.Kind)+" · not started")
}

func (t Terminal) pendingBody(iw, ih int) []string {
	k := t.c.Keys.Restart.Help().Key
	return messageBody(common.Clean(t.info.Name)+" has not started. Press "+k+" to start it.", iw, ih)
}
