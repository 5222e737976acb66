package ui

import (
	"corral/runs"
)

// SizedForTerminal gives a PTY spec that has no size the size its pane will have in a
// UI on a w×h terminal. The runs a UI opens with (corral -- CMD, a config's runs) are
// started before the UI has drawn: without this they start at the default 120×40 and
// are resized a moment later, so the app draws twice and the recording's header says
// a size the user never saw. A pane's size does not depend on how many
// runs there are, only on the terminal's and on the side panes kept (Prefs).
func SizedForTerminal(spec runs.Spec, w, h int, p Prefs) runs.Spec {
	if !spec.PTY || spec.FixedSize || spec.Cols != 0 || spec.Rows != 0 || w <= 0 || h <= 0 {
		return spec
	}
	size := runSize(computeLayout(w, h, 0, false, parsePanes(p.Panes)), runs.Info{Spec: spec})
	spec.Cols, spec.Rows = size[0], size[1]
	return spec
}
