package ui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/ui/common"
	"corral/ui/dialog"
)

// The finish dialog of a worktree run (package dialog's FinishForm): its answer
// finishes the run through api.Finish, after the question a cancel asks when the run
// is live; the result, or why the finish was refused (nothing changed then), is shown
// in the status line and the events pane.

// finishRefusal says why run sel has no finish ("" if it has).
func finishRefusal(sel runs.Info) string {
	switch {
	case sel.Worktree == nil:
		return fmt.Sprintf("finish: %s has no worktree to finish (runs started with --worktree have one)", sel.Name)
	case sel.Finished != nil && sel.Finished.Removed:
		return fmt.Sprintf("finish: %s's worktree was removed already", sel.Name)
	}
	return ""
}

// finishAnswered finishes the run of an accepted finish dialog: a live run is ended
// by it, so it asks first, as a cancel does.
func (m Model) finishAnswered(a dialog.FinishAnswer) (tea.Model, tea.Cmd) {
	if !a.Live {
		m.flash = "finishing " + common.Clean(a.Name) + "…"
		return m, finishCmd(m.engine, a.ID, a.Options)
	}
	m.finishing = a
	q := dialog.Question{Op: dialog.Finish, ID: a.ID}
	m.mode = m.dlg.ask(fmt.Sprintf("Cancel %s (%s) and finish its worktree?", a.Name, a.ID), q, m.mode)
	return m, nil
}

// finishConfirmed finishes the live run the question was about, once its user said
// yes, with the options of its dialog.
func (m Model) finishConfirmed(id string) (tea.Model, tea.Cmd) {
	a := m.finishing
	m.finishing = dialog.FinishAnswer{}
	if a.ID != id {
		return m, nil
	}
	m.flash = "finishing " + common.Clean(a.Name) + "…"
	return m, finishCmd(m.engine, a.ID, a.Options)
}

// finished shows what a finish did, or its refusal.
func (m Model) finished(msg FinishedMsg) (tea.Model, tea.Cmd) {
	name := m.list.Label(msg.ID)
	if msg.Err != nil {
		reason := strings.TrimPrefix(msg.Err.Error(), "finish "+msg.ID+": ")
		m.events.ReportErr(m.now, "finish", name, errors.New(reason))
		// A refusal says what to do: it is shown whole in the dialog, its choices
		// kept, so the user can change one and try again (when nothing else took the
		// screen meanwhile; else the status line has it). A finish that failed part
		// way (its error says what was done) is not offered again as it was.
		partWay := strings.Contains(reason, "(done: ") || msg.Result.Ended
		if m.mode == modeBrowse && !partWay {
			if mode, ok := m.dlg.finishRefused(msg.ID, reason, m.mode); ok {
				m.mode = mode
				return m.note("finish %s refused: nothing was changed", name)
			}
		}
		return m.note("finish %s: %s", name, reason)
	}
	done := msg.Result.Finished.Done()
	if msg.Result.Ended {
		done = "ended the run, " + done
	}
	return m.note("finished %s: %s", name, done) // the events pane has it from the run's event
}
