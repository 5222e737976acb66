package screen

// View is what a renderer reads of a terminal screen: a Screen in this process, or a
// server's screen as its last frame showed it (runs/client). Its methods do no I/O.
type View interface {
	Render() string
	State() ScreenState
	// Attention is State().Attention; a Screen answers it without emulating pending
	// output.
	Attention() uint64
	Version() uint64
	Size() (cols, rows int)
	// Text is the screen's text without attributes (what tests and autoplay look for).
	Text() string
}

var _ View = (*Screen)(nil)
