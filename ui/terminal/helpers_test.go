package terminal

import (
	"time"

	"corral/ptyhost/screen"
	"corral/ui/common"
	"corral/ui/internal/uitest"
)

// The pane's tests build it as the root does, with keys of their own: the default
// scroll keys and the root's default leave, new and restart keys.

func newTest(empty string) Terminal {
	keys := DefaultKeyMap()
	leave, start, restart := common.Bind("leave focus", "ctrl+]"), common.Bind("new run", "n"), common.Bind("start/restart run", "R")
	c := common.New(func() time.Time { return uitest.T0 })
	return New(c, &keys, Hints{Leave: &leave, New: &start, Restart: &restart}, empty)
}

func screenWith(cols, rows int, text string) *screen.Screen {
	s := screen.NewScreen(cols, rows)
	s.Write([]byte(text))
	return s
}
