package ui

import (
	"errors"
	"fmt"
	"reflect"

	tea "charm.land/bubbletea/v2"

	"corral/ptyhost/hoptrace"
	"corral/ptyhost/screen"
	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/api"
	"corral/ui/common"
	"corral/ui/terminal"
)

// handleEvent routes a lifecycle event to the list and the events pane, and to the
// panes of the selected run.
func (m Model) handleEvent(msg EventMsg) (tea.Model, tea.Cmd) {
	ev := msg.Event
	info := ev.Run
	switch ev.Type {
	case api.EventServerLost, api.EventServerBack:
		m.req.unpushed()
		return m.linkEvent(ev)
	case api.EventHostState:
		m.req.unpushed()
		return m, hostsCmd(m.engine)
	case api.EventRefresh:
		return m.refreshed(ev)
	}
	if ev.Time.After(m.lastEvent) {
		m.lastEvent = ev.Time
	}
	m.req.metricsDue = true // what the counters count comes with events
	m.req.active()
	if ev.Type == runs.EventRemoved { // by this UI, another one or corral remove
		return m.forget(info.ID)
	}
	before := m.list.SelectedKey()
	prev, known := m.list.Run(info.ID)
	m.list.Upsert(info)
	m.events, _ = m.events.Update(ev)
	m.events.SetEscaped(m.list.Runs(), m.list.Unlisted().Escaped)
	var cmds []tea.Cmd
	if !known {
		m.relayout()
		if info.Kind == runs.KindPTY && !info.Adopted {
			cmds = append(cmds, screenCmd(m.engine, info.ID))
		}
	}
	if m.req.arrived(info.ID) { // started here: selected (follow.go)
		m.list.Select(info.ID)
	} else if !known {
		m.followSpawn(ev)
	}
	sel, _ := m.list.Selected()
	if info.ID != sel.ID && (ev.Type == runs.EventExit || enteredQuiet(ev, prev)) {
		m.list.SetAttention(info.ID, true) // unseen: it ended, or its agent now waits or idles
	}
	if ev.Type == runs.EventNotify {
		cmds = append(cmds, notifyCmd(m.notify, ev.Detail))
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
	cmds = append(cmds, m.fitShown(), m.pair.compare(m.engine, m.list, info), m.req.logs(m.engine, m.pair.missingLogs(m.term)))
	return m, tea.Batch(cmds...)
}

// refreshed takes what the server pushed at its heartbeat (api.EventRefresh): a run as
// a snapshot would bring it, the counters' move, or, naming nothing, that it pushes.
// With every server pushing, the UI stops asking while nothing happens
// (requests.snapPushed). The looked-at run's usage comes with the pushes; when it
// moved, its tree is read (any fork moved it).
func (m Model) refreshed(ev runs.Event) (tea.Model, tea.Cmd) {
	var hosts []string
	for _, h := range m.list.Hosts() {
		hosts = append(hosts, h.Name)
	}
	m.req.pushFrom(ev.Run.Host, hosts)
	m.still = true
	i := ev.Run
	switch {
	case ev.Detail == api.DetailCounters:
		if m.req.metrics {
			m.req.metricsDue = true
			return m, nil
		}
		m.req.metrics, m.req.metricsDue, m.req.metricsAt = true, false, m.now
		return m, metricsCmd(m.engine)
	case i.ID == "":
		return m, nil
	}
	prev, ok := m.list.Run(i.ID) // runs come and go by events: a push must not revive a removed one
	if !ok {
		return m, nil
	}
	m.still = reflect.DeepEqual(i, prev)
	m.list.Upsert(i)
	if !m.still {
		m.events.SetEscaped(m.list.Runs(), m.list.Unlisted().Escaped)
		m.syncSelection()
	}
	return m, m.usageMoved(prev, i)
}

// usageMoved reads the selected run's tree when its usage moved (prev → i), whoever
// brought it (a push, a snapshot read): on cgroups a fork or an exit in the run moves
// its CPU, so the tree, left unread while the servers push (requests.treePushed), is
// read after every change of it. It notes too that run's usage comes with the pushes.
func (m *Model) usageMoved(prev, i runs.Info) tea.Cmd {
	id := m.list.SelectedLive()
	if id != i.ID {
		return nil
	}
	if i.Usage.Known {
		m.req.pushTree = id
	}
	if i.Usage == prev.Usage {
		return nil
	}
	return m.req.tree(m.engine, id)
}

// cmdOr is a, or b when a is nil.
func cmdOr(a, b tea.Cmd) tea.Cmd {
	if a != nil {
		return a
	}
	return b
}

// enteredQuiet reports whether an agent-state event moves the run's agent into
// waiting or idle: a state its user should see.
func enteredQuiet(ev runs.Event, prev runs.Info) bool {
	s := ev.Run.AgentState
	return ev.Type == runs.EventAgent && s != prev.AgentState && (s == agentstate.Waiting || s == agentstate.Idle)
}

// handleOutput notes new output: a moved attention counter (bell, OSC 9/777) marks a
// run that is not selected; the selected run's log is read again. Screens need
// nothing here: the terminal pane renders again when its screen's version moved.
func (m Model) handleOutput(msg OutputMsg) (tea.Model, tea.Cmd) {
	hoptrace.Mark("ui.out", "")
	m.req.active() // the runs' last output moved, and their trees may have
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
			cmd = tea.Batch(cmd, m.req.logs(m.engine, m.pair.shownLogs(m.term, id)))
		}
	}
	return m, cmd
}

// handleData takes what a command read for a pane.
func (m Model) handleData(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case SnapshotMsg:
		if msg.Err != nil {
			m.req.snapshotDone(true, true)
			return m, m.offerOnce(), true // the server's stream says when it is gone; keep what we show
		}
		changed, same := false, true
		var tree tea.Cmd
		for _, i := range msg.Runs {
			if prev, ok := m.list.Run(i.ID); ok { // runs come and go by events; a late snapshot must not revive a removed one
				changed = changed || i.Moved(prev) // the looked-at run comes every time
				same = same && reflect.DeepEqual(i, prev)
				m.list.Upsert(i)
				tree = cmdOr(tree, m.usageMoved(prev, i))
			} else if m.req.listing { // not listed yet: newer than the copy on its way (listed.go)
				m.req.held = append(m.req.held, i)
			}
		}
		m.still = same // the looked-at run as it was: its usage and lease did not move
		m.req.snapshotDone(false, changed)
		m.events.SetEscaped(m.list.Runs(), m.list.Unlisted().Escaped)
		m.syncSelection()
		return m, tea.Batch(m.fitShown(), m.req.logs(m.engine, m.pair.missingLogs(m.term)), m.offerOnce(), tree), true
	case ResyncMsg:
		next, cmd := m.resynced(msg)
		return next.(Model), cmd, true
	case HostsMsg:
		next, cmd := m.hostsChanged(msg)
		return next.(Model), cmd, true
	case MetricsMsg:
		m.req.metricsDone()
		if msg.Err == nil {
			m.still = reflect.DeepEqual(msg.Metrics, m.events.Metrics())
			m.events.SetMetrics(msg.Metrics)
		}
	case TreesMsg:
		m.still = m.req.sameTrees(msg)
		m.details.SetTrees(msg.Trees, msg.Err)
		if m.req.treeDone(msg) {
			return m, m.req.tree(m.engine, m.list.SelectedLive()), true
		}
	case ScreenMsg: // keep a run's screen; bells rung before it arrived do not count
		m.takeScreen(msg)
	case ScreensMsg:
		for _, s := range msg {
			if m.screens[s.ID] == nil { // the selected run's came first (Init)
				m.takeScreen(s)
			}
		}
	case PairDiffMsg:
		if err := m.pair.takeDiff(msg); err != nil {
			m.flash = "parity: " + err.Error()
		}
	case LogMsg:
		m.term, _ = m.term.Update(msg)
		m.pair.other, _ = m.pair.other.Update(msg)
		if m.req.logDone(msg.ID) {
			return m, m.req.logs(m.engine, m.pair.shownLogs(m.term, msg.ID)), true
		}
	case HistoryMsg:
		m.term, _ = m.term.Update(msg)
	case ExportedMsg:
		delete(m.exporting, msg.name)
		m.flash = msg.notice()
		return m, nil, true
	case terminal.FileMsg:
		cmd, notice := terminal.FileResult(msg)
		if notice != "" {
			m.flash = notice
		}
		return m, cmd, true
	default:
		return m, nil, false
	}
	return m, nil, true
}

// safeAttention reads a screen's attention counter; a screen that panics counts 0
// (its pane shows the error).
// takeScreen keeps a run's screen (ScreenMsg), shown at once when it is selected.
func (m *Model) takeScreen(msg ScreenMsg) {
	if msg.Screen == nil {
		return
	}
	m.screens[msg.ID] = msg.Screen
	m.attention[msg.ID] = safeAttention(msg.Screen)
	if sel, ok := m.list.Selected(); ok && sel.ID == msg.ID {
		m.term.ShowRun(sel, msg.Screen)
	}
}

func safeAttention(s screen.View) (n uint64) {
	defer func() { _ = recover() }()
	return s.Attention()
}

// handleResult reports what a command did.
func (m Model) handleResult(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case WrittenMsg:
		if errors.Is(msg.Err, api.ErrServerLost) {
			m.events.AddOnce(m.now, "keys for "+m.list.Label(msg.ID)+" not delivered: the server is lost", m.c.Styles.Danger)
			m.inputs.written(msg.ID, msg.Size)
			return m, nil
		}
		m.events.ReportErr(m.now, "write", m.list.Label(msg.ID), msg.Err)
		m.inputs.written(msg.ID, msg.Size)
		m.still = msg.Err == nil // input answered for: nothing on screen moved
		return m, nil
	case DoneMsg:
		m.events.ReportErr(m.now, msg.Op, m.list.Label(msg.ID), msg.Err)
	case SpawnedMsg:
		return m.spawned(msg)
	case RemovedMsg:
		return m.removed(msg)
	case FinishedMsg:
		return m.finished(msg)
	case PrefsSavedMsg:
		m.events.ReportErr(m.now, "save layout", "", msg.Err)
	case ReconciledMsg:
		if m.flash == "reconciling…" {
			m.flash = fmt.Sprintf("reconciled: %d decision(s), see events", len(msg.Decisions))
		}
		m.events.AddReconciled(m.now, msg.Decisions, msg.Err)
	case ShutdownMsg:
		m.quitErr = msg.Err
		return m, tea.Quit
	}
	return m, nil
}

// spawned takes a spawn's result:
//   - a pending run's start (pending.go) without a run (the spec was refused, the
//     supervisor is shutting down) leaves its row; with one, even a run that failed
//     to start (it ends with spawn-error), the run replaces the row and is selected;
//   - a restart's new run takes the old one's row, and the old one (ended) leaves the
//     core too;
//   - a new run is selected, now if it is listed, else when its event lists it.
func (m Model) spawned(msg SpawnedMsg) (tea.Model, tea.Cmd) {
	if msg.Pending != "" && msg.ID == "" {
		p, _ := m.list.Pending(msg.Pending)
		m.list.SetStarting(msg.Pending, false)
		m.syncSelection()
		m.events.AddError(m.now, "start", common.Clean(p.Spec.Name), msg.Err)
		return m.note("start %s: %v", p.Spec.Name, msg.Err)
	}
	m.events.ReportErr(m.now, "spawn", m.list.Label(msg.ID), msg.Err)
	// The form's run was refused (no run made, e.g. no worktree could be made): the
	// form opens again, its fields kept and the whole error in it, to be corrected.
	if msg.FromForm && msg.ID == "" && msg.Err != nil && m.mode == modeBrowse {
		if mode, ok := m.dlg.formRefused(msg.Err.Error(), m.mode); ok {
			m.mode = mode
			return m.note("the run was not started")
		}
	}
	switch {
	case msg.Replaces != "" && msg.ID != "":
		m.list.Replace(msg.Replaces, msg.ID)
		return m, tea.Batch(m.selectionMoved(), removeCmd(m.engine, msg.Replaces))
	case msg.Pending == "" && msg.Err != nil:
		return m, nil
	}
	before := m.list.SelectedKey()
	if msg.Pending != "" {
		m.list.Started(msg.Pending, msg.ID)
	}
	m.req.selectNext = msg.ID
	if _, ok := m.list.Run(msg.ID); !ok {
		return m, nil // selected when its spawn event lists it
	}
	m.req.selectNext = ""
	m.list.Select(msg.ID)
	if msg.Pending == "" {
		return m, m.selectionMoved()
	}
	m.relayout() // the pending row is gone
	if m.list.SelectedKey() == before {
		return m, nil
	}
	return m, m.selectionMoved()
}

// removed is the answer to this UI's remove; the run's removed event, which may come
// first, is what drops it.
func (m Model) removed(msg RemovedMsg) (tea.Model, tea.Cmd) {
	if msg.Err != nil {
		m.events.ReportErr(m.now, "remove", m.list.Label(msg.ID), msg.Err)
		return m, nil
	}
	return m.forget(msg.ID)
}

// forget drops a removed run from the list and every pane, once.
func (m Model) forget(id string) (tea.Model, tea.Cmd) {
	return m.forgetSaying(id, "removed %s %s")
}

// forgetSaying is forget with the events pane's note (a format of the run's name and
// id).
func (m Model) forgetSaying(id, note string) (tea.Model, tea.Cmd) {
	m.req.forget(id)
	delete(m.screens, id)
	delete(m.attention, id)
	m.inputs.drop(id)
	delete(m.sized, id)
	i, listed := m.list.Run(id)
	if !listed { // said already, or a restart's new run has its row
		return m, nil
	}
	if !m.list.Replacing(id) { // a restart's new run takes the row when it comes
		m.list.Remove(id)
	}
	m.events.AddNote(m.now, fmt.Sprintf(note, i.Name, id))
	m.relayout()
	return m, m.selectionMoved()
}
