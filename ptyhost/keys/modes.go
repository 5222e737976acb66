package keys

import (
	"bytes"
	"sync"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
)

// ModeTracker follows the terminal modes that change how input must be encoded —
// application cursor keys (DECCKM, CSI ? 1 h/l), bracketed paste (CSI ? 2004 h/l) and
// mouse reporting (CSI ? 9/1000/1002/1003 h/l, SGR form 1006) — from a run's output, so
// keys and pastes sent to a PTY run that has no screen (its supervisor keeps none) are
// still encoded the way the app asked; where a run has a screen (package screen), the
// screen's modes are the one source and this is not fed. The sequences are read by
// x/ansi's parser, which keeps its state across Feed calls, so a sequence split across
// reads is followed. The zero value is ready to use.
type ModeTracker struct {
	mu    sync.Mutex
	p     *ansi.Parser // made by the first Feed
	modes Modes
}

// Feed scans output bytes. Whenever nothing before the next ESC can matter (skippable)
// it jumps to that ESC, so plain text and colours cost one IndexByte each and never
// reach the parser: a stray byte of 0x80–0x9F in text (8-bit C1, which a UTF-8
// terminal does not obey) starts no sequence here.
func (t *ModeTracker) Feed(p []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.p == nil {
		t.p = new(ansi.Parser)
		t.p.SetParamsSize(parser.MaxParamsSize)
		t.p.SetDataSize(1) // no string's payload is read; 0 would mean unbounded
		t.p.SetHandler(ansi.Handler{HandleCsi: t.csi, HandleEsc: t.esc})
	}
	for len(p) > 0 {
		if t.skippable() {
			i := bytes.IndexByte(p, 0x1b)
			if i < 0 {
				return
			}
			p = p[i:]
		}
		t.p.Advance(p[0])
		p = p[1:]
	}
}

// skippable reports whether the bytes up to the next ESC can be left unread: in
// text; in a string (an ESC ends an OSC, SOS, PM or APC whatever came before it: BEL,
// CAN, the payload); in a control sequence without the "?" of the modes tracked (an
// ESC starts the next sequence whether or not this one ended). Not in a DCS, which
// takes an ESC right after its introducer as payload (tmux's passthrough).
func (t *ModeTracker) skippable() bool {
	switch t.p.State() {
	case parser.GroundState, parser.OscStringState, parser.SosStringState, parser.PmStringState, parser.ApcStringState:
		return true
	case parser.CsiParamState, parser.CsiIntermediateState:
		return ansi.Cmd(t.p.Command()).Prefix() != '?' // the prefix is in Command once read
	}
	return false
}

// esc handles RIS (ESC c), the full reset.
func (t *ModeTracker) esc(cmd ansi.Cmd) {
	if cmd.Final() == 'c' && cmd.Intermediate() == 0 {
		t.modes = Modes{}
	}
}

// csi handles CSI ? Pm h / l. A parameter with sub-parameters (1:2) names no mode.
// (A C0 control inside the sequence makes x/ansi lose its "?", so such a sequence sets
// nothing, as before x/ansi.)
func (t *ModeTracker) csi(cmd ansi.Cmd, params ansi.Params) {
	final := cmd.Final()
	if (final != 'h' && final != 'l') || cmd.Prefix() != '?' || cmd.Intermediate() != 0 {
		return
	}
	on, sub := final == 'h', false
	for _, p := range params {
		if sub || p.HasMore() {
			sub = p.HasMore()
			continue
		}
		t.set(p.Param(-1), on)
	}
}

func (t *ModeTracker) set(mode int, on bool) {
	switch mode {
	case 1:
		t.modes.AppCursor = on
	case 2004:
		t.modes.BracketedPaste = on
	case 9, 1000, 1002, 1003: // as xterm: the last set wins, any reset ends reporting
		t.modes.Mouse = 0
		if on {
			t.modes.Mouse = mode
		}
	case 1006:
		t.modes.MouseSGR = on
	}
}

// Modes returns the modes as of the last Feed.
func (t *ModeTracker) Modes() Modes {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.modes
}
