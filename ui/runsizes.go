package ui

import (
	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// runSizes is the PTY size last asked for per run, so a run is resized once per
// change of its pane, not on every event.
type runSizes map[string][2]uint16

// fit resizes every live PTY run whose size is not its pane's in layout l (runSize).
func (s runSizes) fit(core Core, rs []runs.Info, l layout) tea.Cmd {
	if l.w == 0 {
		return nil
	}
	var out []resize
	for _, i := range rs {
		if i.Kind != runs.KindPTY || i.Adopted || i.State != runs.Running || i.Spec.FixedSize {
			continue
		}
		want := runSize(l, i)
		if [2]uint16{i.Cols, i.Rows} == want || s[i.ID] == want {
			continue
		}
		s[i.ID] = want
		out = append(out, resize{id: i.ID, cols: want[0], rows: want[1]})
	}
	if len(out) == 0 {
		return nil
	}
	return resizeCmd(core, out)
}
