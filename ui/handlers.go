package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// handleEvent routes a lifecycle event to the list and the events pane, and to the
// panes of the selected run.
func (m Model) handleEvent(msg EventMsg) (tea.Model, tea.Cmd) {
	ev := msg.Event
	info := ev.Run
	before := m.list.SelectedKey()
	_, known := m.list.Run(info.ID)
	m.list.Upsert(info)
	m.events, _ = m.events.Update(msg)
	m.events.SetEscaped(escapedProcs(m.list.Runs()))
	var cmds []tea.Cmd
	if !known {
		m.relayout()
		if info.Kind == runs.KindPTY && !info.Adopted {
			cmds = append(cmds, screenCmd(m.core, info.ID))
		}
	}
	if info.ID == m.selectNext {
		m.selectNext = ""
		m.list.Select(info.ID)
	}
	sel, _ := m.list.Selected()
	if ev.Type == runs.EventExit && info.ID != sel.ID {
		m.list.SetAttention(info.ID, true)
	}
	// The focused run ended: focus stays on its last screen, and keys go nowhere until
	// the leave chord (guard.go), so the second Ctrl-C of "press Ctrl-C again to exit"
	// is not Corral's quit.
	if sel, _ = m.list.Selected(); m.list.SelectedKey() != before {
		cmds = append(cmds, m.selectionMoved())
	} else if sel.ID == info.ID || m.pair.on && info.ID == m.pair.other.ID() ||
		!known && info.Spec.Pair != "" && info.Spec.Pair == sel.Spec.Pair { // its partner came
		m.syncSelection()
	}
	cmds = append(cmds, m.fitRuns(), m.comparePair(info), m.requestMissingLogs())
	return m, tea.Batch(cmds...)
}

// handleOutput notes new output: a moved attention counter (bell, OSC 9/777) marks a
// run that is not selected; the selected run's log is read again. Screens need
// nothing here: the terminal pane renders again when its screen's version moved.
func (m Model) handleOutput(msg OutputMsg) (tea.Model, tea.Cmd) {
	sel, _ := m.list.Selected()
	var cmd tea.Cmd
	for _, id := range msg.IDs {
		if s := m.screens[id]; s != nil {
			if n := safeAttention(s); n != m.attention[id] {
				m.attention[id] = n
				m.list.SetAttention(id, id != sel.ID)
			}
		}
		if id == sel.ID || m.pair.on && id == m.pair.other.ID() {
			cmd = tea.Batch(cmd, m.requestLog(id))
		}
	}
	return m, cmd
}

// handleData takes what a command read for a pane.
func (m Model) handleData(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case SnapshotMsg:
		m.snapBusy = false
		for _, i := range msg.Runs {
			if _, ok := m.list.Run(i.ID); ok { // runs come and go by events; a late snapshot must not revive a removed one
				m.list.Upsert(i)
			}
		}
		m.events.SetEscaped(escapedProcs(m.list.Runs()))
		m.syncSelection()
		return m, tea.Batch(m.fitRuns(), m.requestMissingLogs()), true
	case MetricsMsg:
		m.metricsBusy = false
		m.events.SetMetrics(msg.Metrics)
		return m, nil, true
	case TreesMsg:
		m.treesBusy = false
		m.details, _ = m.details.Update(msg)
		if m.treesDirty {
			m.treesDirty = false
			return m, m.requestTree(), true
		}
		return m, nil, true
	case ScreenMsg:
		return m.handleScreen(msg), nil, true
	case PairDiffMsg:
		return m.handlePairDiff(msg), nil, true
	case LogMsg:
		m.logBusy[msg.ID] = false
		m.term, _ = m.term.Update(msg)
		m.pair.other, _ = m.pair.other.Update(msg)
		if m.logDirty[msg.ID] {
			m.logDirty[msg.ID] = false
			cmd := m.requestLog(msg.ID)
			return m, cmd, true
		}
		return m, nil, true
	case HistoryMsg:
		m.term, _ = m.term.Update(msg)
		return m, nil, true
	case pagerFileMsg, pagerDoneMsg, savedMsg:
		next, cmd := m.handleTranscriptFile(msg)
		return next, cmd, true
	}
	return m, nil, false
}

// handleScreen keeps a run's screen; bells rung before it arrived do not count.
func (m Model) handleScreen(msg ScreenMsg) Model {
	if msg.Screen == nil {
		return m
	}
	m.screens[msg.ID] = msg.Screen
	m.attention[msg.ID] = safeAttention(msg.Screen)
	if sel, ok := m.list.Selected(); ok && sel.ID == msg.ID {
		m.term.SetRun(sel, msg.Screen)
	}
	return m
}

// safeAttention reads a screen's attention counter; a screen that panics counts 0
// (its pane shows the error).
func safeAttention(s Screen) (n uint64) {
	defer func() { _ = recover() }()
	return s.Attention()
}

// handleResult reports what a command did.
func (m Model) handleResult(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case WrittenMsg:
		cmd := m.written(msg)
		return m, cmd
	case DoneMsg:
		m.reportErr(msg.Op, msg.ID, msg.Err)
	case SpawnedMsg:
		if msg.Pending != "" {
			return m.started(msg)
		}
		m.reportErr("spawn", msg.ID, msg.Err)
		if msg.Replaces != "" && msg.ID != "" {
			// Restarted in place: the new run takes the old one's row, and the old
			// one (ended) leaves the core too.
			m.list.Replace(msg.Replaces, msg.ID)
			old := msg.Replaces
			return m, tea.Batch(m.selectionMoved(), removeCmd(m.core, old))
		}
		if msg.Err == nil {
			m.selectNext = msg.ID
			if _, ok := m.list.Run(msg.ID); ok {
				m.selectNext = ""
				m.list.Select(msg.ID)
				cmd := m.selectionMoved()
				return m, cmd
			}
		}
	case RemovedMsg:
		return m.removed(msg)
	case PrefsSavedMsg:
		m.reportErr("save layout", "", msg.Err)
	case ReconciledMsg:
		m.reconciled(msg)
	case ShutdownMsg:
		m.quitErr = msg.Err
		return m, tea.Quit
	}
	return m, nil
}

func (m *Model) reportErr(op, id string, err error) {
	if err == nil {
		return
	}
	name := id
	if i, ok := m.list.Run(id); ok {
		name = i.Name + " " + id
	}
	m.events.AddError(m.now, op, name, err)
}

func (m Model) removed(msg RemovedMsg) (tea.Model, tea.Cmd) {
	if msg.Err != nil {
		m.reportErr("remove", msg.ID, msg.Err)
		return m, nil
	}
	i, _ := m.list.Run(msg.ID)
	if !m.list.Replacing(msg.ID) { // a restart's new run takes the row when it comes
		m.list.Remove(msg.ID)
	}
	for _, mp := range []map[string]bool{m.logBusy, m.logDirty} {
		delete(mp, msg.ID)
	}
	delete(m.screens, msg.ID)
	delete(m.attention, msg.ID)
	delete(m.inputs, msg.ID)
	delete(m.sized, msg.ID)
	m.events.AddNote(m.now, fmt.Sprintf("removed %s %s", i.Name, msg.ID))
	m.relayout()
	cmd := m.selectionMoved()
	return m, cmd
}

func (m *Model) reconciled(msg ReconciledMsg) {
	if m.flash == "reconciling…" {
		m.flash = fmt.Sprintf("reconciled: %d decision(s), see events", len(msg.Decisions))
	}
	if msg.Err != nil {
		m.reportErr("reconcile", "", msg.Err)
		return
	}
	if len(msg.Decisions) == 0 {
		m.events.AddNote(m.now, "reconcile: no open records")
	}
	for _, d := range msg.Decisions {
		m.events.AddDecision(m.now, d)
	}
}
