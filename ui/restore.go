package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

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
		wait time.Duration // some runs are known lost only in this long: ask again then
		err  error
	}
	// restoreAgainMsg asks the core again, once a dead server's leases have run out.
	restoreAgainMsg struct{}
	// RestoredMsg reports a restore the user said yes to.
	RestoredMsg struct {
		Reply api.RestoreReply
		Err   error
	}
)

// restoreOfferCmd asks the core which lost runs a restore would start.
func restoreOfferCmd(c Engine) tea.Cmd {
	if c == nil {
		return nil
	}
	return func() tea.Msg {
		// NoWait: a dry run that waited out a dead server's leases would hold the UI's
		// other calls (they share its connection) for as long; it answers at once, and
		// says how long until the runs those leases hold are known.
		rep, err := api.Restore.Call(bg, c, api.RestoreArgs{DryRun: true, NoWait: true})
		var would []runs.Restored
		for _, r := range rep.Runs {
			// Those it would start, and agents that recorded no conversation id,
			// which start fresh (said so in the question).
			if r.Skipped == runs.SkippedDryRun || r.Fresh && r.Error == "" {
				would = append(would, r)
			}
		}
		return restoreOfferMsg{runs: would, wait: time.Duration(rep.WaitMS) * time.Millisecond, err: err}
	}
}

// offerOnce asks for the restore's dry run the first time (after the first snapshot
// came back, so the first frame's reads do not wait behind its reconcile).
func (m *Model) offerOnce() tea.Cmd {
	if m.offered {
		return nil
	}
	m.offered = true
	return restoreOfferCmd(m.engine)
}

// restoreCmd restores the lost runs ids.
func restoreCmd(c Engine, ids []string) tea.Cmd {
	return func() tea.Msg {
		// Fresh: an agent run that recorded no id starts a new conversation, as the
		// question said; the others resume theirs.
		rep, err := api.Restore.Call(bg, c, api.RestoreArgs{IDs: ids, Fresh: true})
		return RestoredMsg{Reply: rep, Err: err}
	}
}

// restoreAgainAfter is the margin past a dead server's lease before the core is asked
// again.
const restoreAgainAfter = 500 * time.Millisecond

// offerRestore asks the restore question about the runs it was not asked about
// before, unless another dialog is open (then it is not asked this time). Runs a dead
// server's lease still holds are asked about once it has run out.
func (m Model) offerRestore(msg restoreOfferMsg) (tea.Model, tea.Cmd) {
	if msg.err != nil {
		return m, nil
	}
	if msg.wait > 0 {
		return m, tea.Tick(msg.wait+restoreAgainAfter, func(time.Time) tea.Msg { return restoreAgainMsg{} })
	}
	var ids, all, names []string
	for _, r := range msg.runs {
		all = append(all, r.From)
		if !slices.Contains(m.restoreAsked, r.From) {
			name := common.Clean(r.Name)
			if r.Fresh {
				name += ": fresh, no conversation id was recorded"
			}
			ids, names = append(ids, r.From), append(names, name)
		}
	}
	if len(ids) == 0 || m.mode == modeDialog {
		return m, nil
	}
	slices.Sort(ids)
	// The runs offered now (those asked about before among them): one restored or
	// gone since is no longer kept.
	slices.Sort(all)
	m.restoreAsked = all
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
			what := "conversation " + r.SessionID
			if r.SessionID == "" {
				what = "fresh: a new conversation"
			}
			m.events.AddNote(m.now, fmt.Sprintf("restored %s as %s (%s)", common.Clean(r.Name), r.ID, what))
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
