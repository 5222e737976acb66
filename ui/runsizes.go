package ui

import (
	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// runSizes is the PTY size last asked for per run, so a run is resized once per
// change of its pane, not on every event.
type runSizes map[string][2]uint16

// fit asks for the pane size in layout l (runSize) of every live PTY run of rs, once
// per run and change: the core sizes the run by its window-size policy over every UI
// that asked (runs/viewers.go), so a run already that size is asked for too (another
// UI may have sized it).
func (s runSizes) fit(engine Engine, rs []runs.Info, l layout) tea.Cmd {
	if l.w == 0 {
		return nil
	}
	var out []resize
	for _, i := range rs {
		if i.Kind != runs.KindPTY || i.Adopted || i.State != runs.Running || i.Spec.FixedSize {
			continue
		}
		want := runSize(l, i)
		if s[i.ID] == want {
			continue
		}
		s[i.ID] = want
		out = append(out, resize{id: i.ID, cols: want[0], rows: want[1]})
	}
	if len(out) == 0 {
		return nil
	}
	return resizeCmd(engine, out)
}

// fitShown sizes the runs the list shows (its visible rows and the selection) and a
// shown partner, not every run: a run scrolled into view, or selected, is sized then.
// At a thousand runs, a UI that sized every run as it attached sent a thousand
// resizes, and each was a change of a run sent to every UI and read again by the next
// snapshot, while the first frame waited for the cores.
func (m *Model) fitShown() tea.Cmd {
	rs := m.list.Visible()
	if m.pair.on {
		if i, ok := m.list.Run(m.pair.other.ID()); ok {
			rs = append(rs, i)
		}
	}
	return m.sized.fit(m.engine, rs, m.lay)
}
