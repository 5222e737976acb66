package hostterm

import "io"

// Filter passes a hosted program's output to the host terminal without the sequences
// that act on the host rather than draw. What it lets through is its Mode's:
//
//   - Host (corral run --pty, a program in the foreground of Corral's terminal): every
//     sequence that draws — text, SGR, cursor movement, erasing, modes — passes
//     unchanged, so the program looks as it would in a terminal of its own; OSC
//     strings (window titles, the clipboard through OSC 52, colour palette changes,
//     notifications), DCS, APC, PM and SOS strings, and CSI t window operations (resize,
//     report the title back as input) are dropped: the app would read a reply to
//     them as typed input.
//   - Frame (a screen a server rendered, shown in the UI): text, newlines and SGR
//     only, which is all a rendered frame holds; everything else — strings, other CSI
//     and escape sequences, control characters, C1 controls — is dropped, so a hostile
//     server cannot act on the terminal the UI draws on.
//   - Visible (run output printed to be read: corral log, poll and screen at a
//     terminal): text, newlines, tabs, CR before LF and SGR pass; every other control
//     character and sequence is shown as cat -v shows it (ESC as ^[, ENQ as ^E, a lone
//     CR as ^M, C1 as M-^[), so none acts on the terminal and none is hidden either. A
//     run printing a query (ESC[6n, DA, ENQ) would otherwise have the terminal's answer
//     typed into the user's shell.
//
// Sequences split across writes are followed; Flush writes what a Visible filter
// still holds at the end. Writes to the terminal itself are not filtered when
// Corral's output is not a terminal: a file or a pipe gets the bytes as the program
// wrote them (Stdout, Output).
//
// It is not built on x/ansi's parser: that parser hands on parsed fields,
// not the bytes to pass through; its UTF-8 state takes the byte after a lead byte
// whatever it is, so "\xc3\x1b]52;…" would pass the ESC as part of a character and the
// host terminal, which resynchronises on the ESC, would run the clipboard write; and the
// parser alone, doing nothing, took 1.9× as long as this whole filter on
// BenchmarkFilter's input (8.1 ms against 4.4 ms a MiB).
type Filter struct {
	w     io.Writer
	mode  Mode
	state int
	csi   []byte // the CSI sequence being read, held until its final byte
	out   []byte
	cont  int // Frame and Visible: UTF-8 continuation bytes still expected
}

// Mode is what a Filter lets through (see Filter).
type Mode int

const (
	Host Mode = iota
	Frame
	Visible
)

const (
	hfGround = iota
	hfEsc
	hfCSI
	hfString    // inside OSC/DCS/APC/PM/SOS: dropped until BEL (OSC) or ST
	hfStringEsc // ESC inside such a string
	hfCR        // Visible: a CR, shown as ^M unless an LF follows
	hfC2        // Frame, Visible: the lead byte 0xC2, whose next byte may make a C1 control
)

// maxHeldCSI bounds a CSI sequence held for its final byte; a longer one is no real
// sequence and is dropped (Visible: shown).
const maxHeldCSI = 256

// NewFilter returns a Host filter writing to w.
func NewFilter(w io.Writer) *Filter { return &Filter{w: w} }

// NewMode returns a filter of mode writing to w.
func NewMode(w io.Writer, mode Mode) *Filter { return &Filter{w: w, mode: mode} }

// Clean is s through a filter of mode, flushed: a frame's rendering made safe for the
// terminal (Frame), or text made visible (Visible).
func Clean(s string, mode Mode) string {
	if mode == Frame && frameSafe(s) {
		return s
	}
	f := &Filter{mode: mode, out: make([]byte, 0, len(s))}
	for i := 0; i < len(s); i++ {
		f.step(s[i])
	}
	f.end()
	return string(f.out)
}

// frameSafe reports whether s has no byte a Frame filter would look at: no control
// character but newline, nothing outside ASCII.
func frameSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' || c >= 0x7f {
			return false
		}
	}
	return true
}

// Write filters p; it reports all of p written unless w fails.
func (f *Filter) Write(p []byte) (int, error) {
	f.out = f.out[:0]
	for _, c := range p {
		f.step(c)
	}
	if err := f.emit(); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what the filter holds at the end of its input (Visible: a CR, an ESC
// or a sequence not finished, shown; a lead byte passed on). A Host or Frame filter
// drops an unfinished sequence.
func (f *Filter) Flush() error {
	f.out = f.out[:0]
	f.end()
	return f.emit()
}

// end appends to out what the filter holds at the end of its input, and starts
// again from the ground state.
func (f *Filter) end() {
	switch {
	case f.state == hfC2:
		f.out = append(f.out, 0xc2)
	case f.mode != Visible:
	case f.state == hfCR:
		f.out = append(f.out, '^', 'M')
	case f.state == hfEsc:
		f.out = append(f.out, '^', '[')
	case f.state == hfCSI:
		f.visible(f.csi)
	}
	f.state = hfGround
}

func (f *Filter) emit() error {
	if len(f.out) == 0 {
		return nil
	}
	_, err := f.w.Write(f.out)
	return err
}

func (f *Filter) step(c byte) {
	switch f.state {
	case hfGround:
		if f.mode == Host && c != 0x1b { // the common case, inline
			f.out = append(f.out, c)
			return
		}
		f.ground(c)
	case hfCR:
		f.state = hfGround
		if c == '\n' {
			f.out = append(f.out, '\r', '\n')
			return
		}
		f.out = append(f.out, '^', 'M')
		f.ground(c)
	case hfC2:
		f.state = hfGround
		switch {
		case c >= 0x80 && c <= 0x9f: // U+0080–U+009F: a C1 control, as terminals may read it
			if f.mode == Visible {
				f.out = append(f.out, 'M', '-', 'B', 'M', '-', '^', c-0x80+0x40)
			}
		case c >= 0xa0 && c <= 0xbf:
			f.out = append(f.out, 0xc2, c)
		default: // not a character: the lead passes (a terminal shows it as one bad one)
			f.out = append(f.out, 0xc2)
			f.ground(c)
		}
	case hfEsc:
		f.escape(c)
	case hfCSI:
		f.csi = append(f.csi, c)
		switch {
		case c >= 0x40 && c <= 0x7e:
			f.state = hfGround
			f.endCSI(c)
		case len(f.csi) > maxHeldCSI:
			f.state = hfGround
			if f.mode == Visible {
				f.visible(f.csi)
			}
		}
	case hfString:
		switch c {
		case 0x07:
			f.state = hfGround
		case 0x1b:
			f.state = hfStringEsc
		}
	case hfStringEsc:
		f.state = hfString
		if c == '\\' {
			f.state = hfGround
		}
	}
}

// ground is a byte outside any sequence.
func (f *Filter) ground(c byte) {
	if c == 0x1b {
		f.state = hfEsc
		return
	}
	if f.mode == Host {
		f.out = append(f.out, c)
		return
	}
	switch {
	case c == '\n', c >= 0x20 && c < 0x7f:
		f.cont = 0
		f.out = append(f.out, c)
	case c == '\t' && f.mode == Visible:
		f.out = append(f.out, c)
	case c == '\r' && f.mode == Visible:
		f.state = hfCR
	case c < 0x20 || c == 0x7f:
		f.cont = 0
		if f.mode == Visible {
			f.caret(c)
		}
	case c >= 0x80 && c <= 0xbf && f.cont > 0: // a character's continuation
		f.cont--
		f.out = append(f.out, c)
	case c >= 0x80 && c <= 0x9f: // a stray 8-bit C1 byte: CSI (0x9b) to an 8-bit terminal
		if f.mode == Visible {
			f.out = append(f.out, 'M', '-')
			f.caret(c - 0x80)
		}
	case c == 0xc2:
		f.cont = 0
		f.state = hfC2
	default: // a lead byte (its continuations follow), or a byte no terminal acts on
		f.cont = 0
		switch {
		case c >= 0xc3 && c <= 0xdf:
			f.cont = 1
		case c >= 0xe0 && c <= 0xef:
			f.cont = 2
		case c >= 0xf0 && c <= 0xf4:
			f.cont = 3
		}
		f.out = append(f.out, c)
	}
}

// escape is the byte after an ESC.
func (f *Filter) escape(c byte) {
	switch {
	case c == '[':
		f.state, f.csi = hfCSI, append(f.csi[:0], 0x1b, '[')
	case f.mode == Visible: // the ESC shown; what follows is text like any other
		f.state = hfGround
		f.out = append(f.out, '^', '[')
		f.ground(c)
	case c == ']' || c == 'P' || c == '_' || c == '^' || c == 'X':
		f.state = hfString
	case f.mode == Frame: // no two-byte sequence is part of a frame
		f.state = hfGround
		if c == 0x1b {
			f.state = hfEsc
		}
	default:
		f.state = hfGround
		f.out = append(f.out, 0x1b, c)
	}
}

// endCSI passes, drops or shows the CSI sequence held, which final ended.
func (f *Filter) endCSI(final byte) {
	switch {
	case f.mode == Host:
		if final != 't' { // window operations act on the host's window
			f.out = append(f.out, f.csi...)
		}
	case isSGR(f.csi):
		f.out = append(f.out, f.csi...)
	case f.mode == Visible:
		f.visible(f.csi)
	}
}

// isSGR reports whether seq (ESC [ … final) is an SGR sequence and nothing else:
// parameters of digits, ; and : only, final m. It sets colours and attributes; the
// terminal answers nothing to it.
func isSGR(seq []byte) bool {
	if len(seq) < 3 || seq[len(seq)-1] != 'm' {
		return false
	}
	for _, c := range seq[2 : len(seq)-1] {
		if (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

// visible appends seq as cat -v shows it.
func (f *Filter) visible(seq []byte) {
	for _, c := range seq {
		switch {
		case c == '\n' || c == '\t' || c >= 0x20 && c < 0x7f:
			f.out = append(f.out, c)
		case c < 0x20 || c == 0x7f:
			f.caret(c)
		default:
			f.out = append(f.out, 'M', '-')
			f.caret(c - 0x80)
		}
	}
}

// caret appends control character c (below 0x20, or DEL) as ^X; any other byte as it
// is.
func (f *Filter) caret(c byte) {
	switch {
	case c < 0x20:
		f.out = append(f.out, '^', c+0x40)
	case c == 0x7f:
		f.out = append(f.out, '^', '?')
	default:
		f.out = append(f.out, c)
	}
}
