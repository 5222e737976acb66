package ui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/api"
	"corral/ui/common"
	"corral/ui/dialog"
)

// Restore after a reboot (runs/restore.go), asked once at start: the UI asks its core
// which lost runs a restore would start (a dry run), and when there are some it has
// not asked about yet, asks "Restore N runs …?"; a yes restores them, through the
// restore operation, and the events pane says what became of each. The runs asked
// about are remembered in the state dir's prefs, so the next start does not ask again
// about them, whatever the answer was.

type (
	// restoreOfferMsg is the dry run's answer: the lost runs a restore would start.
	restoreOfferMsg struct {
		runs []runs.Restored
		err  error
	}
	// RestoredMsg reports a restore the user said yes to.
	RestoredMsg struct {
		Reply api.RestoreReply
		Err   error
	}
)

// restoreOfferCmd asks the core which lost runs a restore would start.
func restoreOfferCmd(c Core) tea.Cmd {
	if c == nil {
		return nil
	}
	return func() tea.Msg {
		rep, err := api.Restore.Call(bg, c, api.RestoreArgs{DryRun: true})
		var would []runs.Restored
		for _, r := range rep.Runs {
			if r.Skipped == runs.SkippedDryRun {
				would = append(would, r)
			}
		}
		return restoreOfferMsg{runs: would, err: err}
	}
}

// restoreCmd restores the lost runs ids.
func restoreCmd(c Core, ids []string) tea.Cmd {
	return func() tea.Msg {
		rep, err := api.Restore.Call(bg, c, api.RestoreArgs{IDs: ids})
		return RestoredMsg{Reply: rep, Err: err}
	}
}

// offerRestore asks the restore question, unless it was asked about these runs
// before or another dialog is open (then it is not asked this time).
func (m Model) offerRestore(msg restoreOfferMsg) (tea.Model, tea.Cmd) {
	if msg.err != nil || len(msg.runs) == 0 {
		return m, nil
	}
	ids := make([]string, len(msg.runs))
	names := make([]string, len(msg.runs))
	for i, r := range msg.runs {
		ids[i], names[i] = r.From, common.Clean(r.Name)
	}
	slices.Sort(ids)
	if slices.Equal(ids, m.restoreAsked) || m.mode == modeDialog {
		return m, nil
	}
	m.restoreAsked = ids
	noun := "runs"
	if len(ids) == 1 {
		noun = "run"
	}
	q := fmt.Sprintf("Restore %d %s the reboot ended (%s), resuming their conversations?", len(ids), noun,
		strings.Join(names, ", "))
	m.mode = m.dlg.ask(q, dialog.Question{Op: dialog.Restore, IDs: ids}, m.mode)
	return m, savePrefsCmd(m.prefsPath, m.prefsNow())
}

// restored says what a restore did, one event line per run.
func (m Model) restored(msg RestoredMsg) (tea.Model, tea.Cmd) {
	if msg.Err != nil {
		m.events.AddError(m.now, "restore", "", msg.Err)
		return m.note("restore: %v", msg.Err)
	}
	n := 0
	for _, r := range msg.Reply.Runs {
		switch {
		case r.ID != "" && r.Error == "":
			n++
			m.events.AddNote(m.now, fmt.Sprintf("restored %s as %s (conversation %s)", common.Clean(r.Name), r.ID, r.SessionID))
		case r.Error != "":
			m.events.AddNote(m.now, fmt.Sprintf("restore %s: %s", common.Clean(r.Name), common.Clean(r.Error)))
		default:
			m.events.AddNote(m.now, fmt.Sprintf("not restored %s: %s", common.Clean(r.Name), common.Clean(r.Skipped)))
		}
	}
	for _, e := range msg.Reply.Refused {
		m.events.AddNote(m.now, common.Clean(e))
	}
	return m.note("restored %d run(s), see events", n)
}

// prefsNow are the prefs as the UI stands: its panes and the runs it asked to restore.
func (m Model) prefsNow() Prefs {
	return Prefs{Panes: m.lay.panes.String(), RestoreAsked: m.restoreAsked}
}
