package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/config"
	"corral/runs"
	"corral/runs/api"
	"corral/ui/common"
	"corral/ui/dialog"
	"corral/ui/runlist"
	"corral/ui/terminal"
)

// routeKey routes a key by the mode the UI is in: to the focused run, the open dialog,
// scroll mode, the diff view, the run list's filter or help; browsing, past the
// stray-key guard, to the UI command or the selected row's command it is bound to.
func (m Model) routeKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch m.mode {
	case modeFocus:
		return m.focusKey(k)
	case modeDialog:
		var answer tea.Cmd
		m.dlg.Host, answer = m.dlg.Update(k)
		if !m.dlg.Open() {
			m.mode = m.dlg.ret
		}
		if answer == nil {
			return m, nil
		}
		return m.Update(answer()) // routed to answered now, before the next key (the guard reads it)
	case modeScroll:
		return m.scrollKey(k)
	case modeDiff:
		return m.diffKey(k)
	case modeFilter:
		return m.listKey(k)
	case modeHelp:
		if m.help, _ = m.help.Update(k); !m.help.Open() {
			m.mode = modeBrowse
		}
		return m, nil
	case modeQuitting:
		return m, nil
	}
	if n, drop := m.guard.drop(m.c.Now()); drop { // guard.go
		m.flash = fmt.Sprintf("ignored %d key(s) that came with others not meant for Corral (a paste? focus the run with %s to paste into it)",
			n, m.c.Keys.Focus.Help().Key)
		return m, nil
	}
	m.flash = ""
	return m.browseKey(k)
}

// browseKey runs the UI command bound to k.
func (m Model) browseKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	km := m.c.Keys
	if sel, ok := m.list.Selected(); ok && m.replay && !sel.Ended() {
		if b, ok := km.replayInput(k); ok { // replay.go
			return m, writeCmd(m.engine, sel.ID, b)
		}
	}
	switch {
	case key.Matches(k, km.Up, km.Down, km.First, km.Last, km.PrevPage, km.NextPage) ||
		key.Matches(k, km.ClearFilter) && m.list.Filtered():
		return m.listKey(k)
	case key.Matches(k, km.Filter) && m.lay.zoomed:
		return m.note("filter: the run list is hidden while zoomed (%s)", km.Zoom.Help().Key)
	case key.Matches(k, km.Filter):
		return m.listKey(k)
	case key.Matches(k, km.NextWaiting, km.NextUnseen):
		return m.jump(key.Matches(k, km.NextWaiting))
	case key.Matches(k, km.Quit, km.Shutdown):
		return m.quit(key.Matches(k, km.Shutdown))
	case key.Matches(k, km.Detach):
		return m.detach()
	case key.Matches(k, km.PairKeys, km.PairDiff):
		m.flash = m.pair.key(key.Matches(k, km.PairDiff), m.term)
	case key.Matches(k, km.Export):
		return m.exportRun()
	case key.Matches(k, km.Help):
		m.help.Show(km.helpGroups())
		m.mode = modeHelp
	case key.Matches(k, km.New):
		sel, _ := m.list.Selected()
		m.mode = m.dlg.form(m.mode, m.hostNames(), sel.Host)
	case key.Matches(k, km.Reconcile):
		m.flash = "reconciling…"
		return m, reconcileCmd(m.engine)
	case key.Matches(k, km.Zoom):
		return m.toggleZoom()
	case key.Matches(k, km.Layout): // the other set of side panes, remembered
		m.lay.panes = m.lay.panes.next()
		m.relayout()
		return m, tea.Batch(m.fitShown(), savePrefsCmd(m.prefsPath, m.prefsNow()))
	case key.Matches(k, km.EventsUp, km.EventsDown):
		m.events, _ = m.events.Update(k)
	case key.Matches(k, km.Mouse):
		m.mouse = !m.mouse
		return m.note("%s", mouseNotice(m.mouse, km.Mouse.Help().Key))
	default:
		return m.rowKey(k)
	}
	return m, nil
}

// rowKey runs a command on the selected row: a pending run's start, or a run's.
func (m Model) rowKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	r := m.list.SelectedRow()
	switch {
	case r.Kind == runlist.RowPending && key.Matches(k, m.c.Keys.Restart) && r.Pend.Starting:
		return m.note("start: %s is starting", r.Pend.Spec.Name)
	case r.Kind == runlist.RowPending && key.Matches(k, m.c.Keys.Restart): // its spec, sized to the pane, once
		m.list.SetStarting(r.Pend.Key, true)
		m.syncSelection()
		spec := r.Pend.Spec
		m.term.FitSpec(&spec)
		return m, startCmd(m.onHost(config.LocalHost), r.Pend.Key, spec)
	case r.Kind == runlist.RowPending:
		if notice, ok := m.c.Keys.pendingNotice(k, r.Pend); ok {
			return m.note("%s", notice)
		}
		return m, nil
	case r.Kind == runlist.RowRun:
		return m.runKey(k, r.Run)
	}
	return m, nil
}

// runKey runs a command on the selected run.
func (m Model) runKey(k tea.KeyPressMsg, sel runs.Info) (tea.Model, tea.Cmd) {
	km, engine := m.c.Keys, m.engine // commands capture the core, never the model
	switch {
	case key.Matches(k, km.Focus):
		return m.enterFocus(sel)
	case key.Matches(k, km.Diff):
		return m.openDiff(sel)
	case key.Matches(k, km.SendKeys, km.Paste, km.Submit):
		if why := noTerminalIO(sel); why != "" {
			return m.note("%s", why)
		}
		kind, verb := promptOf(km, k)
		m.mode = m.dlg.prompt(kind, verb+" to "+sel.Name, sel.ID, m.mode)
	case key.Matches(k, km.CopyMode): // scroll mode with copy mode's caret on the last line
		return m.enterScroll(sel, (*terminal.Terminal).ScrollCopy)
	case key.Matches(k, km.Scrollback):
		return m.enterScroll(sel, (*terminal.Terminal).ScrollPage) // the first press scrolls a page, as a terminal's Shift+PgUp does
	case key.Matches(k, km.Cancel, km.Interrupt, km.Remove):
		text, q, refusal := askAbout(km, k, sel, m.list.Configured(sel)) // guard.go
		if refusal != "" {
			return m.note("%s", refusal)
		}
		m.mode = m.dlg.ask(text, q, m.mode)
	case key.Matches(k, km.Pause) && sel.Ended():
		return m.note("%s: %s has ended", pauseVerb(sel), sel.Name)
	case key.Matches(k, km.Pause) && sel.Paused:
		return m, runCmd(engine, api.Resume, sel.ID)
	case key.Matches(k, km.Pause):
		return m, runCmd(engine, api.Pause, sel.ID)
	case key.Matches(k, km.Finish):
		if why := finishRefusal(sel); why != "" {
			return m.note("%s", why)
		}
		m.mode = m.dlg.finish(sel, m.mode)
	case key.Matches(k, km.Restart) && sel.Waiting():
		// Nothing of it runs yet: as corral restart does, it stays the same run, waiting
		// (ending it and spawning its spec again would only start the wait over).
		return m.note("restart: %s has not started yet (%s)", sel.Name, common.WaitingText(sel))
	case key.Matches(k, km.Restart) && liveService(sel):
		return m, runCmd(engine, api.Restart, sel.ID) // its next attempt now, its budget refilled
	case key.Matches(k, km.Restart):
		if why := restartRefusal(sel); why != "" {
			return m.note("%s", why)
		}
		spec := restartSpec(sel)
		m.term.FitSpec(&spec)
		return m, restartCmd(m.onHost(sel.Host), spec, sel.ID)
	}
	return m, nil
}

// answered acts on a dialog's answer (dialogs.go).
func (m Model) answered(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch a := msg.(type) {
	case dialog.ConfirmAnswer:
		if a.Stray { // keys were coming that were not meant for it
			m.guard.quarantine(m.c.Now())
		}
		switch {
		case !a.Yes:
			return m, nil
		case a.Op == dialog.Quit:
			return m.startQuit()
		case a.Op == dialog.Detach:
			return m.detach()
		case a.Op == dialog.Finish:
			return m.finishConfirmed(a.ID)
		case a.Op == dialog.Restore:
			m.flash = "restoring…"
			return m, restoreCmd(m.engine, a.IDs)
		}
		return m, questionCmd(m.engine, a.Question)
	case dialog.PromptAnswer:
		if a.Kind != dialog.Search {
			return m, promptCmd(m.engine, a)
		}
		if sel, ok := m.list.Run(a.Target); ok {
			return m.enterScroll(sel, func(t *terminal.Terminal) { t.Scroll(a.Text) })
		}
	case dialog.FormAnswer:
		spec := a.Spec
		m.term.FitSpec(&spec)
		if !a.Parity {
			return m, spawnFormCmd(m.onHost(a.Host), spec)
		}
		spec.Cols = uint16(max(m.lay.term.w/2-2, 1)) // the left half of a pair's pane
		return m, spawnPairCmd(m.onHost(a.Host), spec)
	case dialog.FinishAnswer:
		return m.finishAnswered(a)
	}
	return m, nil
}

// note shows a notice in the status line.
func (m Model) note(format string, a ...any) (tea.Model, tea.Cmd) {
	m.flash = common.Clean(fmt.Sprintf(format, a...))
	return m, nil
}

func (m Model) toggleZoom() (tea.Model, tea.Cmd) {
	m.zoom = !m.zoom
	m.relayout()
	return m, m.fitShown()
}

// listKey gives a key to the run list (moving its selection, its filter) and follows
// it: the mode is the filter's while it is typed, and a moved selection is shown.
func (m Model) listKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	before := m.list.SelectedKey()
	m.list, _ = m.list.Update(k)
	return m.listMoved(before)
}

// listMoved follows a change of the run list from the selection before.
func (m Model) listMoved(before string) (tea.Model, tea.Cmd) {
	switch {
	case m.list.Filtering():
		m.mode = modeFilter
	case m.mode == modeFilter:
		m.mode = modeBrowse
	}
	if m.list.SelectedKey() != before {
		return m, m.selectionMoved()
	}
	return m, m.fitShown() // a filter changes the rows shown
}

// jump selects the next run whose agent waits for its user (the one waiting longest
// first), or the next unseen one (list order, from the selection on), among the runs
// the filter shows; the notice says how many it hides.
func (m Model) jump(waiting bool) (tea.Model, tea.Cmd) {
	next, ok, hidden := m.list.NextUnseen()
	what := "unseen"
	if waiting {
		next, ok, hidden = m.list.NextWaiting()
		what = "waiting for you"
	}
	switch {
	case !ok && hidden > 0:
		return m.note("no run the filter shows is %s; %d it hides (%s clears it)", what, hidden,
			m.c.Keys.ClearFilter.Help().Key)
	case !ok && waiting && m.list.Unlisted().Waiting > 0: // the titles count them already
		return m.note("%d run(s) waiting for you are not listed yet: the list is still arriving", m.list.Unlisted().Waiting)
	case !ok:
		return m.note("no run is %s", what)
	}
	m.list.Select(next)
	return m, m.selectionMoved()
}
