package terminal

import (
	"time"

	"corral/ptyhost/screen"
	"corral/runs"
	"corral/ui/common"
)

// The pane's tests build it as the root does, with keys of their own: the default
// scroll keys and the root's default leave, new and restart keys.

var t0 = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

func newTest(empty string) Terminal {
	keys := DefaultKeyMap()
	leave, start, restart := common.Bind("leave focus", "ctrl+]"), common.Bind("new run", "n"), common.Bind("start/restart run", "R")
	c := common.New(func() time.Time { return t0 })
	return New(c, &keys, Hints{Leave: &leave, New: &start, Restart: &restart}, empty)
}

// liveRun is a running run of the given kind.
func liveRun(id, name string, pty bool) runs.Info {
	spec := runs.Spec{Name: name, Shell: name, PTY: pty, Timeout: 10 * time.Minute}
	return runs.Info{ID: id, Name: name, Kind: spec.Kind(), Spec: spec, State: runs.Running, Cols: 80, Rows: 24}
}

func screenWith(cols, rows int, text string) *screen.Screen {
	s := screen.NewScreen(cols, rows)
	s.Write([]byte(text))
	return s
}
