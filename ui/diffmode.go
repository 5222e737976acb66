package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/ui/diffview"
)

// The diff view (package diffview): a worktree run's changes against its base, full
// screen over the panes. The diff key opens it on the selected run and reads the diff
// (api.Diff, diffCmd); its close key returns to browsing and its refresh key reads the
// diff again. The text is indexed off the UI goroutine (diffview.Model.Load).

// DiffMsg is the answer to diffCmd: run ID's diff, read for the view's generation Gen
// (an answer for an older one is dropped).
type DiffMsg struct {
	ID     string
	Gen    int
	Result runs.DiffResult
	Err    error
}

// DiffKeyMap is the diff view's keys (package diffview), embedded in KeyMap under this
// name so that its action names and accesses stay.
type DiffKeyMap = diffview.KeyMap

// openDiff opens the diff view on the selected run and reads its diff; a run without
// a worktree has no diff, which the status line says.
func (m Model) openDiff(sel runs.Info) (tea.Model, tea.Cmd) {
	if sel.Worktree == nil {
		return m.note("diff: %s has no worktree: start a run with --worktree (or the form's worktree row) to diff it", sel.Name)
	}
	gen := m.diff.Open(sel.Name, *sel.Worktree)
	m.mode, m.diffID = modeDiff, sel.ID
	return m, diffCmd(m.engine, sel.ID, gen)
}

// diffKey: close, refresh, or the view's own keys (every key while its search is typed).
func (m Model) diffKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	km := m.c.Keys
	switch {
	case m.diff.Typing():
	case key.Matches(k, km.DiffClose):
		m.diff.Close()
		m.mode, m.diffID = modeBrowse, ""
		return m, nil
	case key.Matches(k, km.DiffRefresh):
		return m, diffCmd(m.engine, m.diffID, m.diff.Refresh())
	}
	m.diff, _ = m.diff.Update(k)
	return m, nil
}

// diffRead takes a read diff to the view, which indexes it off the UI goroutine.
func (m Model) diffRead(msg DiffMsg) (tea.Model, tea.Cmd) {
	if m.mode != modeDiff || msg.ID != m.diffID {
		return m, nil // closed meanwhile
	}
	if msg.Err != nil {
		m.diff.Failed(msg.Gen, msg.Err)
		return m, nil
	}
	r := msg.Result
	return m, m.diff.Load(msg.Gen, r.Text, r.Stat, r.Worktree)
}
