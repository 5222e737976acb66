package hostterm

import (
	"os"
	"os/signal"

	"golang.org/x/term"
)

// Terminal is Corral's own terminal while a PTY run is in the foreground: raw mode so
// every key reaches the run, and size changes forwarded.
type Terminal struct {
	raw   bool
	state *term.State
}

// New puts stdin in raw mode when wantRaw and stdin is a terminal; otherwise the
// Terminal only reports sizes.
func New(wantRaw bool) *Terminal {
	t := &Terminal{}
	fd := int(os.Stdin.Fd())
	if !wantRaw || !term.IsTerminal(fd) {
		return t
	}
	if st, err := term.MakeRaw(fd); err == nil {
		t.raw, t.state = true, st
	}
	return t
}

// Raw reports whether New put the terminal in raw mode.
func (t *Terminal) Raw() bool { return t.raw }

// Restore puts the terminal back as New found it; a second call does nothing.
func (t *Terminal) Restore() {
	if t.state != nil {
		term.Restore(int(os.Stdin.Fd()), t.state)
		t.state = nil
	}
}

// Size is the terminal's size, or zero (the default) when stdin is not a terminal.
func (t *Terminal) Size() (cols, rows uint16) {
	w, h, err := term.GetSize(int(os.Stdin.Fd()))
	if err != nil || w <= 0 || h <= 0 {
		return 0, 0
	}
	return uint16(w), uint16(h)
}

// FollowSize calls resize with the terminal's size on every SIGWINCH until stop is
// called; it does nothing unless the terminal is raw (a PTY run in the foreground).
func (t *Terminal) FollowSize(resize func(cols, rows uint16)) (stop func()) {
	if !t.raw {
		return func() {}
	}
	ch := make(chan os.Signal, 1)
	NotifyWinch(ch)
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				if c, r := t.Size(); c > 0 {
					resize(c, r)
				}
			case <-quit:
				return
			}
		}
	}()
	return func() { signal.Stop(ch); close(quit) }
}
