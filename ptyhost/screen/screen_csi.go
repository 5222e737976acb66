package screen

import "strconv"

// Control sequences, rewritten for vt10x. vt10x parses parameters with
// strings.Split(";") and Atoi and stops at the first it cannot parse, takes only
// '?' as a prefix and ignores intermediates (defect #1), so:
//   - a prefixed CSI other than '?' runs as its final byte: the kitty keyboard
//     "CSI > 7 u" / "CSI < u" as DECRC (the cursor jumps), "CSI > 4;2 m" as SGR 0;
//   - an empty parameter ends the list ("CSI ; 10 H" goes home), a colon one too
//     ("CSI 38:2::255:0:0 m" resets the attributes);
//   - negative and huge counts reach slice operations and loops ("CSI -1 @"
//     panics, "CSI 9223372036854775807 I" spins under the lock);
//   - a zero count where xterm reads 1 erases two cells (ECH) or lines (SU).
//
// So every sequence is parsed here, checked against the ECMA-48 grammar (which
// has no minus sign: "-" is an intermediate byte and such sequences are
// dropped), and forwarded rebuilt with defaults filled in and numbers clamped,
// or answered or tracked here, or dropped.

const (
	vtMaxParams = 32 // parameters of one sequence
	vtMaxSub    = 8  // colon sub-parameters of one parameter
	// vtMaxCSILen keeps a rebuilt SGR well under vt10x's 256-byte cut; a longer
	// one is split into several, which is equivalent.
	vtMaxCSILen = 200
)

// vtParam is one parameter with its colon sub-parameters; -1 means empty.
type vtParam struct {
	v [vtMaxSub]int32
	n int
}

// vtCSI is a parsed control sequence.
type vtCSI struct {
	prefix byte // one of < = > ? or 0
	inter  byte // the intermediate byte or 0
	p      [vtMaxParams]vtParam
	np     int
}

// parse splits seq (everything between "ESC [" and the final byte) and reports
// whether it follows the grammar: prefix, parameters, at most one intermediate.
func (c *vtCSI) parse(seq []byte) bool {
	c.prefix, c.inter, c.np = 0, 0, 0
	if len(seq) > 0 && seq[0] >= '<' && seq[0] <= '?' {
		c.prefix, seq = seq[0], seq[1:]
	}
	end := 0
	for end < len(seq) && seq[end] >= '0' && seq[end] <= ';' {
		end++
	}
	switch inter := seq[end:]; {
	case len(inter) > 1 || (len(inter) == 1 && inter[0] > 0x2f):
		return false
	case len(inter) == 1:
		c.inter = inter[0]
	}
	return end == 0 || c.parseParams(seq[:end])
}

func (c *vtCSI) parseParams(b []byte) bool {
	cur := c.add()
	for _, ch := range b {
		switch {
		case ch == ';':
			if c.np == vtMaxParams {
				return false
			}
			cur = c.add()
		case ch == ':':
			if cur.n == vtMaxSub {
				return false
			}
			cur.v[cur.n] = -1
			cur.n++
		default:
			d := &cur.v[cur.n-1]
			*d = min(max(*d, 0)*10+int32(ch-'0'), vtMaxParam)
		}
	}
	return true
}

func (c *vtCSI) add() *vtParam {
	p := &c.p[c.np]
	c.np++
	p.v[0], p.n = -1, 1
	return p
}

// arg returns parameter i, or -1 when it is empty or missing.
func (c *vtCSI) arg(i int) int {
	if i >= c.np {
		return -1
	}
	return int(c.p[i].v[0])
}

func (c *vtCSI) hasSub() bool {
	for i := range c.np {
		if c.p[i].n > 1 {
			return true
		}
	}
	return false
}

func (c *vtCSI) has(vals ...int) bool {
	for i := range c.np {
		for _, v := range vals {
			if c.arg(i) == v {
				return true
			}
		}
	}
	return false
}

// csiDone handles a complete control sequence.
func (s *Screen) csiDone(final byte) {
	c := &s.csi
	if !c.parse(s.scan.seq) || (final != 'm' && c.hasSub()) {
		return
	}
	switch {
	case c.inter == ' ' && final == 'q' && c.prefix == 0: // DECSCUSR
		if v := max(c.arg(0), 0); v <= 6 {
			s.track.shape = v
		}
	case c.inter != 0:
		// DECSTR, DECRQM, DECSCA, DECCARA…: vt10x would run the final byte as
		// the plain command ("CSI 1;1;2;2;1 $ r" as DECSTBM).
	case c.prefix == '?':
		s.csiPrivate(final)
	case c.prefix == '>':
		if final == 'c' && c.arg(0) <= 0 {
			s.answer(vtDA2Reply)
		}
		// The rest (kitty keyboard push, modifyOtherKeys, XTVERSION) is dropped.
	case c.prefix == 0:
		s.csiPlain(final)
	} // '<' and '=': kitty keyboard pop and set, which vt10x runs as DECRC
}

// csiPlain handles an unprefixed sequence.
func (s *Screen) csiPlain(final byte) {
	c := &s.csi
	switch final {
	case 'm':
		s.lazy.seq = vtSeqSGR // may stay in the pending run (screen_lazy.go)
		s.penSGR()
		if !s.scan.slow && s.sgrVerbatim() {
			s.out = append(append(append(s.out, vtESC, '['), s.scan.seq...), 'm')
		} else {
			s.sgr()
		}
	case 'c':
		if c.arg(0) <= 0 {
			s.answer(vtDA1Reply)
		}
	case 'b':
		s.repeat()
	case 'r':
		s.scrollRegion()
	case 'H', 'f':
		s.emitCSI(final, 2, 1)
	case 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'I', 'Z', 'a', 'd', 'e', '`':
		s.emitCSI(final, 1, 1)
	case '@', 'L', 'M', 'P', 'S', 'T', 'X': // they blank cells: background colour erase
		s.out = append(s.out, vtEraseMark)
		s.emitCSI(final, 1, 1)
	case 'J', 'K':
		if final == 'K' {
			s.lazy.seq = vtSeqEL // may stay in the pending run
		}
		if final == 'J' && c.arg(0) == 3 && c.arg(1) > 0 {
			return // not ED 3, which tmux takes only without a second parameter
		}
		s.out = append(s.out, vtEraseMark)
		s.emitCSI(final, 1, 0)
	case 'g':
		switch c.arg(0) {
		case -1, 0:
			s.tabSet(false)
		case 3:
			s.tabs.clearAll(s.cols)
		}
		s.emitCSI(final, 1, 0)
	case 'n': // DSR 5 and CPR: vt10x answers those itself, into replies
		if v := c.arg(0); v == 5 || v == 6 {
			s.emitCSI(final, 1, 0)
		}
	case 'h', 'l':
		if c.has(4) { // IRM, which vt10x ignores: the feeder inserts (screen_wide.go)
			s.scan.irm = final == 'h'
		}
		s.emitCSI(final, vtMaxParams, 0)
	case 's', 'u':
		// Save and restore the cursor only without parameters; with them they
		// are DECSLRM or kitty keyboard codes, not meant for vt10x.
		if c.np == 0 {
			if final == 's' {
				s.saveCursor()
			} else {
				s.restoreCursor()
			}
			s.emitCSI(final, 0, 0)
		}
	} // anything else is not implemented by vt10x: dropped
}

// csiPrivate handles "CSI ? …". vt10x would run ?s (XTSAVE) as a cursor save
// and ?m as an attribute reset, and ?u is a kitty keyboard query: only modes,
// selective erase (close enough to ED/EL) and DSR go on.
func (s *Screen) csiPrivate(final byte) {
	switch final {
	case 'h', 'l':
		s.privateModes(final)
	case 'J', 'K':
		s.out = append(s.out, vtEraseMark)
		s.emitCSI(final, 1, 0)
	case 'n':
		s.emitCSI(final, 1, 0)
	}
}

// privateModes tracks the DEC modes vt10x ignores and forwards the list.
// "CSI ? 1049 l" on the main screen would switch vt10x *to* the alternate
// screen (defect #9), so leaving an alternate screen that is not there is
// left out.
func (s *Screen) privateModes(final byte) {
	set := final == 'h'
	c := &s.csi
	skipAlt := !set && c.has(47, 1047, 1049) && !s.inAltScreen()
	start := len(s.out)
	s.out = append(s.out, "\x1b[?"...)
	n := 0
	for i := range c.np {
		v := max(c.arg(i), 0)
		switch v {
		case 2004:
			s.track.paste = set
		case 2026:
			s.track.sync = set
		case 1004:
			s.focusMode(set)
		case 47, 1047, 1049:
			if skipAlt {
				continue
			}
		}
		if v == 1048 || v == 1049 { // vt10x saves on set, restores on reset
			if set {
				s.saveCursor()
			} else {
				s.restoreCursor()
			}
		}
		s.out = s.appendParam(s.out, n, v)
		n++
	}
	if n == 0 {
		s.out = s.out[:start]
		return
	}
	s.out = append(s.out, final)
}

// emitCSI forwards the current sequence with its prefix and at most maxN
// parameters. Empty parameters become def; with def 1, so do zeros (xterm reads
// a zero count as one; vt10x erases two cells for "CSI 0 X").
func (s *Screen) emitCSI(final byte, maxN, def int) {
	c := &s.csi
	s.out = append(s.out, vtESC, '[')
	if c.prefix != 0 {
		s.out = append(s.out, c.prefix)
	}
	for i := range min(c.np, maxN) {
		v := c.arg(i)
		if v < 0 || (def == 1 && v == 0) {
			v = def
		}
		s.out = s.appendParam(s.out, i, v)
	}
	s.out = append(s.out, final)
}

func (s *Screen) appendParam(b []byte, i, v int) []byte {
	if i > 0 {
		b = append(b, ';')
	}
	return strconv.AppendInt(b, int64(v), 10)
}

// scrollRegion forwards DECSTBM with an empty or zero top as 1 and an empty or
// zero bottom left out, which vt10x reads as the last line.
func (s *Screen) scrollRegion() {
	c := &s.csi
	top, bottom := 1, s.rows
	// The scroll follower (screen_scroll.go) needs the region as the feeder reaches
	// each byte: what comes before is fed first, what comes after sees the new one.
	s.flush()
	s.out = append(s.out, "\x1b["...)
	if c.np > 0 {
		top = max(c.arg(0), 1)
		s.out = strconv.AppendInt(s.out, int64(top), 10)
	}
	if b := c.arg(1); b > 0 {
		bottom = b
		s.out = s.appendParam(s.out, 1, bottom)
	}
	s.out = append(s.out, 'r')
	// What vt10x's setScroll makes of it (clamped to the screen, swapped when
	// reversed), for the lazy emulation's cut (screen_lazy.go) too.
	t, b := min(top, s.rows)-1, min(bottom, s.rows)-1
	s.region = vtRegion{top: min(t, b), bottom: max(t, b)}
}

// repeat implements REP ("CSI n b"), which vt10x ignores (defect #14;
// ncurses may use it with xterm-256color), as tmux 3.3a does: the ASCII
// graphic character written just before, at most a screenful of times, and
// nothing after anything else (lastSeq, screen_scan.go).
func (s *Screen) repeat() {
	r := s.scan.lastSeq
	if r == 0 {
		return
	}
	for range min(max(s.csi.arg(0), 1), s.cols*s.rows) {
		s.putRune(r)
	}
	s.scan.last = 0
}
