package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// Configured runs not started yet (corral.toml [[run]]s with autostart = false) are a
// UI matter, not a supervisor state: the supervisor has never heard of them. Each is a
// row of the run list after the runs, in config order, with its spec in the details
// pane. The start key (the restart action) spawns its spec the way a restart does; the
// run that spawn makes replaces the row when it appears, and from then on it is a run
// like any other (R restarts it once it has ended).

// pendingPrefix starts a pending row's key. Run ids name files in the state dir, so
// none contains "/" and a key never collides with a run's id.
const pendingPrefix = "pending/"

// pendingRun is one configured run not started yet.
type pendingRun struct {
	key      string // its row's key: pendingPrefix + a number never given twice
	spec     runs.Spec
	starting bool   // its spawn is on its way
	runID    string // the run the spawn made, until that run is listed
}

// notForPending are the actions that need a process; on a pending run they only say so.
var notForPending = []string{"focus", "send_keys", "paste", "submit", "search", "scrollback",
	"cancel", "interrupt", "pause", "remove"}

// pendingNotice says why a key that needs a process does nothing on a pending run;
// false for the other keys.
func (k KeyMap) pendingNotice(msg tea.KeyPressMsg, p pendingRun) (string, bool) {
	for _, a := range k.actions() {
		if key.Matches(msg, *a.b) && slices.Contains(notForPending, a.name) {
			return fmt.Sprintf("%s: %s has not started; %s starts it", strings.ReplaceAll(a.name, "_", "-"),
				p.spec.Name, k.Restart.Help().Key), true
		}
	}
	return "", false
}

// started takes the result of a pending run's spawn. Without a run (the spec was
// refused, the supervisor is shutting down) the row stays; with one, even a run that
// failed to start (it ends with spawn-error), the run replaces the row and is selected.
func (m Model) started(msg SpawnedMsg) (tea.Model, tea.Cmd) {
	p, _ := m.list.Pending(msg.Pending)
	if msg.ID == "" {
		m.list.SetStarting(msg.Pending, false)
		m.syncSelection()
		m.events.AddError(m.now, "start", clean(p.spec.Name), msg.Err)
		return m.note("start %s: %v", p.spec.Name, msg.Err)
	}
	m.events.ReportErr(m.now, "spawn", m.list.Label(msg.ID), msg.Err)
	m.req.selectNext = msg.ID
	before := m.list.SelectedKey()
	m.list.Started(msg.Pending, msg.ID)
	if _, ok := m.list.Run(msg.ID); !ok {
		return m, nil // the row stays until the run's spawn event lists it
	}
	m.req.selectNext = ""
	m.list.Select(msg.ID)
	m.relayout()
	if m.list.SelectedKey() == before {
		return m, nil
	}
	return m, m.selectionMoved()
}
