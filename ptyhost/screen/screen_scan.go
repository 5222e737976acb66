package screen

import (
	"encoding/binary"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// The normaliser: a byte-level ECMA-48 parser in front of vt10x. Text and C0
// controls pass through; an escape or control sequence is buffered whole (across
// Writes) and then forwarded, rewritten or dropped, so vt10x only ever sees
// complete sequences it executes correctly. Strings (OSC, DCS, SOS, PM, APC) never
// reach vt10x: the few OSCs tracked are handled here and the rest dropped, so no
// clipboard write (OSC 52), colour change or title travels anywhere.
//
// Not x/ansi's parser, measured: the parser alone, with no handler, costs
// 4.9× this whole Write on plain text, 1.3× on CJK and 90% of it on colours
// (BenchmarkScreenScanXAnsi against BenchmarkScreenWriteOnly), so the lazy path would
// get slower; and it would not do this job as is. It hands on parsed fields where
// vt10x is fed the sequence's bytes, has no CSI-ignore state (the rest of
// "CSI 1 $ 2 p" becomes text), corrupts the final byte and drops the "?" of a
// sequence with a C0 control inside ("CSI ? 1 CR h" reads as CSI m), takes 8-bit
// C1 bytes for controls, reads "ESC k" (tmux's title) as a two-byte sequence, and
// bounds neither a sequence's length nor a parameter's value (vtMaxSeq, vtMaxParam).

// Scanner states.
const (
	vtGround   uint8 = iota
	vtEsc            // after ESC
	vtEscInter       // ESC and intermediate bytes
	vtCSIState       // ESC [ and parameter/intermediate bytes
	vtOSC            // ESC ] payload
	vtOSCEsc         // ESC inside an OSC: ST or the start of the next sequence
	vtStr            // DCS, SOS, PM, APC or ESC k payload: dropped
	vtStrEsc         // ESC inside such a string
)

// Bounds against hostile streams. vt10x cuts a CSI at 256 bytes and then runs
// whatever byte came last as the command, so nothing forwarded may come near.
const (
	vtMaxSeq   = 64   // parameter and intermediate bytes of one sequence
	vtMaxOSC   = 1024 // OSC payload kept; the rest is read and dropped
	vtMaxParam = 9999 // numeric parameters are clamped here (CSI 99999999 I loops for ages)
)

// Answers to device attribute queries, which vt10x ignores: a VT220
// with ANSI colour, the usual reply of xterm-compatible terminals; DA2 says
// "VT100, firmware 0".
const (
	vtDA1Reply = "\x1b[?62;22c"
	vtDA2Reply = "\x1b[>0;0;0c"
)

// Control bytes the scanner acts on.
const (
	vtBEL = 0x07
	vtCAN = 0x18
	vtSUB = 0x1a
	vtESC = 0x1b
)

type vtScanner struct {
	state uint8
	seq   []byte // parameter and intermediate bytes of the current sequence
	bad   bool   // the current sequence is too long: drop it at its end
	osc   []byte // the current OSC payload, up to vtMaxOSC bytes
	// last is the ASCII graphic character just written, which REP repeats:
	// tmux repeats nothing after anything else (a control, a sequence, a
	// character outside ASCII) or a second time. lastSeq is it as of the ESC
	// that began the current sequence.
	last, lastSeq rune
	// slow turns off the fast paths (csiRun, verbatim SGRs); tests compare both.
	slow bool
	// part is the start of a character cut by the end of a Write (screen_text.go).
	part []byte
	cell vtLastCell // the last cell in out, which a combining mark joins
	// gfx is G0's line drawing ("ESC ( 0"), savedGfx what DECSC saved of it,
	// irm insert mode (IRM, "CSI 4 h"); vt10x keeps the first two in its cursor
	// and ignores the third.
	gfx, savedGfx, irm bool
}

func (sc *vtScanner) reset() {
	*sc = vtScanner{seq: sc.seq[:0], osc: sc.osc[:0], part: sc.part[:0], slow: sc.slow}
}

// scanBytes runs the scanner over p, appending what vt10x should see to s.out.
func (s *Screen) scanBytes(p []byte) {
	for len(p) > 0 {
		if s.scan.state == vtGround {
			p = p[s.ground(p):]
			continue
		}
		if s.scan.state == vtCSIState && !s.scan.slow {
			if n := s.csiRun(p); n > 0 {
				p = p[n:]
				continue
			}
		}
		n0, gen := len(s.out), s.lazy.gen
		if s.step(p[0]) {
			p = p[1:]
		}
		s.afterStep(n0, gen)
	}
}

// csiRun is stepCSI for a whole control sequence at once: when p holds the rest of
// it, parameters and intermediates then a final byte, with nothing stepCSI would
// treat specially in between, it takes them in one go and returns how many bytes it
// used (0: go byte by byte). Byte by byte, scanning was half of a Screen's Write on
// coloured text (BenchmarkScreenWriteSGR).
func (s *Screen) csiRun(p []byte) int {
	sc := &s.scan
	i := 0
	for i < len(p) && p[i] >= 0x20 && p[i] <= 0x3f {
		i++
	}
	if i == len(p) || p[i] < 0x40 || p[i] > 0x7e || len(sc.seq)+i > vtMaxSeq {
		return 0
	}
	sc.seq = append(sc.seq, p[:i]...)
	sc.state = vtGround
	n0, gen := len(s.out), s.lazy.gen
	if !sc.bad {
		s.csiDone(p[i])
	}
	s.afterStep(n0, gen)
	return i + 1
}

// ground passes text and controls on up to the next byte the scanner acts on,
// handles that byte and returns how many bytes it used. The lazy emulation's
// pending run (screen_lazy.go) starts after the last control in the text that is
// not plain.
func (s *Screen) ground(p []byte) int {
	i, ctl := 0, -1
	for ; i < len(p); i++ {
		if b := p[i]; !plainByte[b] {
			if b == vtESC || b == vtBEL || b == vtCAN || b == vtSUB || isMark(b) {
				break
			}
			ctl = i
		}
	}
	if s.slowText() || !asciiOnly(p[:i]) {
		if end := s.textSlow(p[:i]); end >= 0 {
			s.lazy.endAt(end-1, end)
		}
	} else {
		s.out = append(s.out, p[:i]...)
		if ctl >= 0 {
			s.lazy.endAt(len(s.out)-i+ctl, len(s.out)-i+ctl+1)
		}
		s.noteASCII(p[:i])
	}
	if i == len(p) {
		return i
	}
	s.scan.part = s.scan.part[:0] // a character cut by a control or sequence is dropped
	s.scan.lastSeq, s.scan.last = s.scan.last, 0
	switch p[i] {
	case vtESC:
		s.scan.state = vtEsc
	case vtBEL:
		s.bell()
	} // CAN and SUB outside a sequence do nothing; SOH, STX and ETX are the feeder's marks (screen_text.go)
	return i + 1
}

// step handles one byte inside a sequence or string. It returns false when the
// byte ended the sequence without being part of it and must be read again in
// the new state.
func (s *Screen) step(b byte) bool {
	switch s.scan.state {
	case vtEsc:
		return s.stepEsc(b)
	case vtEscInter:
		return s.stepEscInter(b)
	case vtCSIState:
		return s.stepCSI(b)
	case vtOSC, vtStr:
		s.stepString(b)
	case vtOSCEsc, vtStrEsc:
		return s.stepStringEsc(b)
	}
	return true
}

func (s *Screen) stepEsc(b byte) bool {
	sc := &s.scan
	switch {
	case b == '[':
		sc.state, sc.seq, sc.bad = vtCSIState, sc.seq[:0], false
	case b == ']':
		sc.state, sc.osc = vtOSC, sc.osc[:0]
	case b == 'P' || b == 'X' || b == '^' || b == '_' || b == 'k':
		sc.state = vtStr
	case b >= 0x20 && b <= 0x2f:
		sc.state, sc.seq = vtEscInter, append(sc.seq[:0], b)
	case b >= 0x30 && b <= 0x7e:
		sc.state = vtGround
		s.escFinal(b)
	case b < 0x20:
		s.control(b)
	case b == 0x7f: // ignored inside sequences
	default: // not ASCII: the sequence is broken; the byte is text
		sc.state = vtGround
		return false
	}
	return true
}

// escFinal handles ESC and a final byte. Only what vt10x implements the way a
// terminal does is forwarded; anything else it would either ignore or, for
// unknown ones, log and carry on, so dropping loses nothing.
func (s *Screen) escFinal(b byte) {
	switch b {
	case 'c':
		s.fullReset()
	case 'Z': // DECID: the same answer as DA1
		s.answer(vtDA1Reply)
	case '7':
		s.saveCursor()
		s.out = append(s.out, vtESC, b)
	case '8':
		s.restoreCursor()
		s.out = append(s.out, vtESC, b)
	case 'M': // RI: at the top margin it scrolls down, blanking a line
		s.out = append(s.out, vtEraseMark, vtESC, b)
	case 'H': // HTS
		s.tabSet(true)
		s.out = append(s.out, vtESC, b)
	case 'D', 'E', '=', '>':
		s.out = append(s.out, vtESC, b)
	}
}

// stepEscInter reads ESC, intermediates and a final. vt10x implements only
// "ESC ( F" (G0 charset) and "ESC # F"; for "ESC ) F", "ESC % G" and the like
// it leaves the intermediate's state after one byte and prints the final as
// text, so those are dropped.
func (s *Screen) stepEscInter(b byte) bool {
	sc := &s.scan
	switch {
	case b >= 0x20 && b <= 0x2f:
		sc.seq = append(sc.seq, b)
		sc.bad = sc.bad || len(sc.seq) > 2
	case b >= 0x30 && b <= 0x7e:
		sc.state = vtGround
		if len(sc.seq) == 1 && (sc.seq[0] == '(' || sc.seq[0] == '#') {
			s.out = append(s.out, vtESC, sc.seq[0], b)
		}
		if len(sc.seq) == 1 && sc.seq[0] == '(' && (b == '0' || b == 'B') {
			sc.gfx = b == '0' // as vt10x's parseEscAltCharset: other sets leave it
		}
	case b < 0x20:
		s.control(b)
	case b == 0x7f:
	default:
		sc.state = vtGround
		return false
	}
	return true
}

func (s *Screen) stepCSI(b byte) bool {
	sc := &s.scan
	switch {
	case b >= 0x40 && b <= 0x7e:
		sc.state = vtGround
		if !sc.bad {
			s.csiDone(b)
		}
	case b >= 0x20 && b <= 0x3f:
		if len(sc.seq) == vtMaxSeq {
			sc.bad = true
		} else {
			sc.seq = append(sc.seq, b)
		}
	case b < 0x20:
		s.control(b)
	case b == 0x7f:
	default:
		sc.state = vtGround
		return false
	}
	return true
}

// control runs a C0 control met inside an escape or control sequence, as
// xterm does: CAN and SUB abort the sequence (vt10x would finish it:
// defect #17), ESC starts a new one, BEL rings and the rest execute in place
// (vt10x has not seen the sequence yet, so it runs them in the ground state).
func (s *Screen) control(b byte) {
	switch b {
	case vtESC:
		s.scan.state, s.scan.lastSeq = vtEsc, 0
	case vtCAN, vtSUB:
		s.scan.state = vtGround
	case vtBEL:
		s.bell()
	case vtInsertMark, vtCombineMark, vtEraseMark: // ignored by terminals; the bytes are the feeder's marks
	default:
		s.out = append(s.out, b)
	}
}

// stepString reads a string payload. BEL ends an OSC (the xterm convention) but
// not the other strings; CAN and SUB abandon any.
func (s *Screen) stepString(b byte) {
	sc := &s.scan
	switch {
	case b == vtESC:
		sc.state++ // vtOSC → vtOSCEsc, vtStr → vtStrEsc
	case b == vtCAN || b == vtSUB:
		sc.state = vtGround
	case b == vtBEL && sc.state == vtOSC:
		sc.state = vtGround
		s.oscDone()
	case sc.state == vtOSC && len(sc.osc) < vtMaxOSC:
		sc.osc = append(sc.osc, b)
	}
}

// stepStringEsc: ESC \ (ST) ends the string; ESC followed by anything else
// abandons it and starts that sequence.
func (s *Screen) stepStringEsc(b byte) bool {
	sc := &s.scan
	if b != '\\' {
		sc.state, sc.lastSeq = vtEsc, 0
		return false
	}
	if sc.state == vtOSCEsc {
		s.oscDone()
	}
	sc.state = vtGround
	return true
}

// answer queues a reply to the run. What came before is fed first, so vt10x's
// own answers (CPR) keep their order with ours.
func (s *Screen) answer(reply string) {
	s.flush()
	s.replies = append(s.replies, reply...)
}

// inAltScreen reports vt10x's screen as of everything scanned so far.
func (s *Screen) inAltScreen() bool {
	s.flush()
	return s.term.Mode()&vt10x.ModeAltScreen != 0
}

// fullReset handles RIS (ESC c). vt10x's reset clears only a rows×cols square
// of the screen and, on the alternate screen, drops the mode bit without
// switching back (defect #8), so leave the alternate screen first and
// clear the whole screen after. The modes tracked here reset too.
func (s *Screen) fullReset() {
	if s.inAltScreen() {
		s.out = append(s.out, "\x1b[?47l"...)
	} else { // tmux's reset clears the screen into the history (screen_write_reset)
		s.out = append(s.out, vtEraseMark, vtESC, '[', '2', 'J')
	}
	s.out = append(s.out, "\x1bc\x1b[2J"...)
	s.track.paste, s.track.sync, s.track.shape, s.track.focus = false, false, 0, false
	s.region = vtRegion{top: 0, bottom: s.rows - 1} // vt10x's reset; what came before is fed
	s.tabs = nil
	s.scan.last = 0
	s.pen, s.saved = vtExtra{}, vtExtra{}
	s.scan.gfx, s.scan.savedGfx, s.scan.irm = false, false, false
}

// asciiOnly reports whether p has no byte of 0x80 or above, eight bytes at a time.
func asciiOnly(p []byte) bool {
	for len(p) >= 8 {
		if binary.LittleEndian.Uint64(p)&0x8080808080808080 != 0 {
			return false
		}
		p = p[8:]
	}
	for _, b := range p {
		if b >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
