package ui

import (
	"corral/ptyhost/screen"
	"corral/runs"
	"corral/ui/runlist"
	"corral/ui/terminal"
)

// The terminal pane (package terminal) as the root builds it and shows a row in it.

// newTerminal builds a terminal pane with the root's keys: its own scroll-mode keys
// and the bindings its text names, pointers into c.Keys so overrides reach them.
func newTerminal(c *Common, empty string) terminal.Terminal {
	k := &c.Keys
	return terminal.New(c.Common, &k.ScrollKeyMap,
		terminal.Hints{Leave: &k.Leave, New: &k.New, Restart: &k.Restart}, empty)
}

// showRow shows a row in a terminal pane: a run with its screen (nil for none), a
// pending run, or nothing.
func showRow(t *terminal.Terminal, r runlist.Row, s screen.View) {
	switch r.Kind {
	case runlist.RowPending:
		t.ShowPending(r.Pend.Spec.Name, r.Pend.Spec.Kind())
	case runlist.RowRun:
		t.ShowRun(r.Run, s)
	default:
		t.ShowRun(runs.Info{}, nil)
	}
}
