package ptyhost

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// The normaliser: a byte-level ECMA-48 parser in front of vt10x. Text and C0
// controls pass through; an escape or control sequence is buffered whole (across
// Writes) and then forwarded, rewritten or dropped, so vt10x only ever sees
// complete sequences it executes correctly. Strings (OSC, DCS, SOS, PM, APC) never
// reach vt10x: the few OSCs tracked are handled here and the rest dropped, so no
// clipboard write (OSC 52), colour change or title travels anywhere.

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

// Answers to device attribute queries, which vt10x ignores (vt.md §1.9): a VT220
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
	last  rune   // the last graphic character passed on, for REP
	// slow turns off the fast paths (csiRun, verbatim SGRs); tests compare both.
	slow bool
}

func (sc *vtScanner) reset() { *sc = vtScanner{seq: sc.seq[:0], osc: sc.osc[:0], slow: sc.slow} }

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
// coloured text (BenchmarkScreenWriteSGR, issue 6).
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
			if b == vtESC || b == vtBEL || b == vtCAN || b == vtSUB {
				break
			}
			ctl = i
		}
	}
	s.out = append(s.out, p[:i]...)
	if ctl >= 0 {
		s.lazy.endAt(len(s.out) - i + ctl + 1)
	}
	s.noteLast(p[:i])
	if i == len(p) {
		return i
	}
	switch p[i] {
	case vtESC:
		s.scan.state = vtEsc
	case vtBEL:
		s.bell()
	} // CAN and SUB outside a sequence do nothing
	return i + 1
}

// noteLast remembers the last graphic character of text, which REP repeats.
func (s *Screen) noteLast(text []byte) {
	for len(text) > 0 {
		r, n := utf8.DecodeLastRune(text)
		if r >= 0x20 && r != 0x7f && r != utf8.RuneError {
			s.scan.last = r
			return
		}
		text = text[:len(text)-n]
	}
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
	case 'D', 'E', 'H', 'M', '=', '>', '7', '8':
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
// xterm does: CAN and SUB abort the sequence (vt10x would finish it: vt.md
// §1.10 #17), ESC starts a new one, BEL rings and the rest execute in place
// (vt10x has not seen the sequence yet, so it runs them in the ground state).
func (s *Screen) control(b byte) {
	switch b {
	case vtESC:
		s.scan.state = vtEsc
	case vtCAN, vtSUB:
		s.scan.state = vtGround
	case vtBEL:
		s.bell()
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
		sc.state = vtEsc
		return false
	}
	if sc.state == vtOSCEsc {
		s.oscDone()
	}
	sc.state = vtGround
	return true
}

// oscDone handles a complete OSC: the title (0 and 2; 1 is only the icon name)
// and notifications (9, 777). Everything else is dropped: OSC 52 clipboard
// writes, OSC 4/10/11 colour changes (vt10x would apply them to every cell it
// returns) and their queries (vt10x answers black on black), hyperlinks (the
// linked text stays), prompt marks.
func (s *Screen) oscDone() {
	cmd, text, _ := bytes.Cut(s.scan.osc, []byte{';'})
	switch string(cmd) {
	case "0", "2":
		s.track.title = cleanText(text)
		s.track.activity.title(s.track.title)
	case "7501":
		s.track.activity.announce(text)
	case "9":
		if !conEmuCommand(text) {
			s.notify(cleanText(text))
		}
	case "777":
		s.notify777(text)
	}
}

// conEmuCommand reports whether an OSC 9 payload is one of ConEmu's numbered
// commands (OSC 9;4 progress is common) rather than an iTerm2 notification.
func conEmuCommand(text []byte) bool {
	i := 0
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	return i > 0 && (i == len(text) || text[i] == ';')
}

// notify777 handles urxvt's "OSC 777 ; notify ; title ; body".
func (s *Screen) notify777(text []byte) {
	kind, rest, _ := bytes.Cut(text, []byte{';'})
	if string(kind) != "notify" {
		return
	}
	title, body, _ := bytes.Cut(rest, []byte{';'})
	t, b := cleanText(title), cleanText(body)
	switch {
	case t == "":
		s.notify(b)
	case b == "":
		s.notify(t)
	default:
		s.notify(t + ": " + b)
	}
}

func (s *Screen) notify(msg string) {
	s.track.attention++
	s.track.notice = msg
}

func (s *Screen) bell() {
	s.track.attention++
	s.track.notice = ""
}

// cleanText makes text from the run safe to show anywhere: valid UTF-8 without
// C0/C1 controls or format characters (bidi overrides could reorder the UI).
func cleanText(b []byte) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) || r == utf8.RuneError || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, string(b))
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
// switching back (vt.md §1.10 #8), so leave the alternate screen first and
// clear the whole screen after. The modes tracked here reset too.
func (s *Screen) fullReset() {
	if s.inAltScreen() {
		s.out = append(s.out, "\x1b[?47l"...)
	}
	s.out = append(s.out, "\x1bc\x1b[2J"...)
	s.track.paste, s.track.sync, s.track.shape, s.track.region = false, false, 0, false
	s.scan.last = 0
}
