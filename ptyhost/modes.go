package ptyhost

import (
	"bytes"
	"strconv"
	"sync"
)

// ModeTracker follows the terminal modes that change how input must be encoded —
// application cursor keys (DECCKM, CSI ? 1 h/l), bracketed paste (CSI ? 2004 h/l) and
// mouse reporting (CSI ? 9/1000/1002/1003 h/l, SGR form 1006) — from a run's output, so keys and pastes sent to a PTY run that has no screen (its
// supervisor keeps none) are still encoded the way the app asked; where a run has a
// screen (package screen), the screen's modes are the one source and this is not fed.
// Sequences split across reads are followed across Feed calls. The zero value is
// ready to use.
type ModeTracker struct {
	mu     sync.Mutex
	state  uint8 // ground, esc or csi
	params []byte
	modes  Modes
}

const (
	trackGround uint8 = iota
	trackEsc
	trackCSI
)

// maxParams bounds the parameter bytes kept for one sequence; longer ones are not modes
// we track, and a hostile stream must not grow the buffer.
const maxParams = 32

// Feed scans output bytes. In the ground state it jumps from ESC to ESC, so plain text
// costs one IndexByte per read.
func (t *ModeTracker) Feed(p []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(p) > 0 {
		if t.state == trackGround {
			i := bytes.IndexByte(p, 0x1b)
			if i < 0 {
				return
			}
			p = p[i:]
		}
		t.step(p[0])
		p = p[1:]
	}
}

func (t *ModeTracker) step(b byte) {
	switch t.state {
	case trackGround:
		if b == 0x1b {
			t.state = trackEsc
		}
	case trackEsc:
		t.state = trackGround
		switch b {
		case '[':
			t.state, t.params = trackCSI, t.params[:0]
		case 0x1b:
			t.state = trackEsc
		case 'c': // RIS: full reset
			t.modes = Modes{}
		}
	case trackCSI:
		switch {
		case b >= 0x40 && b <= 0x7e:
			t.apply(b)
			t.state = trackGround
		case b == 0x1b:
			t.state = trackEsc
		case len(t.params) < maxParams:
			t.params = append(t.params, b)
		}
	}
}

// apply handles a complete CSI ? Pm h / l.
func (t *ModeTracker) apply(final byte) {
	if (final != 'h' && final != 'l') || len(t.params) == 0 || t.params[0] != '?' {
		return
	}
	on := final == 'h'
	for _, f := range bytes.Split(t.params[1:], []byte{';'}) {
		switch string(f) {
		case "1":
			t.modes.AppCursor = on
		case "2004":
			t.modes.BracketedPaste = on
		case "9", "1000", "1002", "1003": // as xterm: the last set wins, any reset ends reporting
			t.modes.Mouse = 0
			if on {
				t.modes.Mouse, _ = strconv.Atoi(string(f))
			}
		case "1006":
			t.modes.MouseSGR = on
		}
	}
}

// Modes returns the modes as of the last Feed.
func (t *ModeTracker) Modes() Modes {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.modes
}
