package screen

// View is what a renderer reads of a terminal screen (the UI's terminal pane, the
// web page, an export): a Screen in this process, or a server's screen as its last
// frame showed it (runs/client). Its methods take the screen's own lock and do no
// I/O, so a Bubble Tea View may call them.
type View interface {
	Render() string
	State() ScreenState
	// Attention is State().Attention, read for every run with new output; unlike
	// State, a Screen answers it leaving the pending output of an unseen run
	// unemulated.
	Attention() uint64
	Version() uint64
	Size() (cols, rows int)
	// Text is the screen's text without attributes (what tests and autoplay look for).
	Text() string
}

var _ View = (*Screen)(nil)
