package terminal

import (
	"corral/runs"
	"corral/ui/common"
)

// The terminal pane showing a configured run not started yet (the root's pending.go).

// ShowPending shows a configured run not started yet: its name and how to start it.
func (t *Terminal) ShowPending(name string, kind runs.Kind) {
	t.scroll, t.log, t.hasLog = nil, runs.Output{}, false
	t.id, t.screen = "", nil
	t.info = runs.Info{Name: name, Kind: kind}
	t.pending = true
	t.ver++
}

func (t Terminal) pendingTitle() string {
	st := t.c.Styles
	return st.Title.Render(common.Clean(t.info.Name)) + st.Muted.Render(" "+string(t.info.Kind)+" · not started")
}

func (t Terminal) pendingBody(iw, ih int) []string {
	k := t.hints.Restart.Help().Key
	return messageBody(common.Clean(t.info.Name)+" has not started. Press "+k+" to start it.", iw, ih)
}
