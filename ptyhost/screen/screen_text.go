package screen

import "unicode/utf8"

// Text, as the scanner hands it to vt10x: plain ASCII with
// no extras on goes as it came (ground's fast path); anything else one
// character at a time, as the cell runes of screen_cells.go.

// Marks for the feeder (screen_wide.go), which a terminal ignores as the
// controls they are (SOH, STX), so the scanner drops them from the run's own
// output and the bytes are free:
//   - vtInsertMark before a cell: insert mode was on when it was written;
//   - vtCombineMark, a cell rune, then a cell: the cell replaces the one
//     written last, already fed, if that still holds the rune (a wide character
//     the feeder dropped at the margin does not), as a combining mark joined it;
//   - vtEraseMark before a sequence that blanks cells (screen_erase.go): the
//     blanks take the background colour alone, as in tmux.
const (
	vtInsertMark  = 0x01
	vtCombineMark = 0x02
	vtEraseMark   = 0x03
)

// vtLastCell is the last cell written, so that a combining mark after it can
// join it: at its bytes in out while out ends with them, or, once fed (fed),
// in vt10x just before the cursor while nothing else has been written.
type vtLastCell struct {
	at, end int
	r       rune // its rune (a key or a plain character)
	w       int
	fed     bool
}

func (c vtLastCell) inOut(outLen int) bool { return c.end > c.at && c.end == outLen }

// drop follows out losing its first n bytes to vt10x, rest left.
func (c *vtLastCell) drop(n, rest int) {
	switch {
	case n == 0:
	case c.at >= n && c.end > c.at:
		c.at, c.end = c.at-n, c.end-n
	case c.end == n && rest == 0 && c.end > c.at:
		c.at, c.end, c.fed = 0, 0, true
	default:
		*c = vtLastCell{}
	}
}

// slowText reports whether even ASCII text must go one character at a time.
func (s *Screen) slowText() bool {
	return s.pen != (vtExtra{}) || s.scan.irm || len(s.scan.part) > 0 || s.scan.gfx
}

// gfxKept reports whether r is a character that line drawing leaves alone but vt10x
// would map: its table starts at 'A' (arrows, a block, a snowman…), the DEC set and
// tmux at '`' (0x60). Such a character is fed as a key, which vt10x does not map.
func (s *Screen) gfxKept(r rune) bool { return s.scan.gfx && r >= 'A' && r <= '_' }

// textSlow appends text (characters and the C0 controls ground passes on) to
// out and returns where out's pending run may start after the last control
// that ends it (screen_lazy.go), or -1. A character cut by the end of the Write
// waits in part; an invalid byte is skipped, as vt10x would.
func (s *Screen) textSlow(b []byte) (runEnd int) {
	runEnd = -1
	if len(s.scan.part) > 0 {
		if b = s.joinPart(b); len(s.scan.part) > 0 {
			return runEnd
		}
	}
	for len(b) > 0 {
		if !s.slowText() {
			if n := s.plainRun(b); n > 0 {
				b = b[n:]
				continue
			}
		}
		if c := b[0]; c < 0x80 {
			if c >= 0x20 && c != 0x7f {
				s.putRune(rune(c))
			} else if s.out, s.scan.last = append(s.out, c), 0; !plainByte[c] {
				runEnd = len(s.out)
			}
			b = b[1:]
			continue
		}
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 && !utf8.FullRune(b) {
			s.scan.part = append(s.scan.part[:0], b...)
			return runEnd
		}
		if r != utf8.RuneError || n > 1 {
			s.putRuneBytes(r, b[:n])
		}
		b = b[n:]
	}
	return runEnd
}

// plainRun appends the characters at the start of b that go to vt10x as
// themselves while no extras or insert mode are on, and returns how many bytes
// it used. They are copied as they came: the feeder adds the pads of wide
// characters (screen_wide.go), so text that the lazy emulation drops unfed
// costs a decode per character and one copy (BenchmarkScreenWriteCJK).
func (s *Screen) plainRun(b []byte) int {
	i, last := 0, -1
	for i < len(b) {
		if c := b[i]; c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				break
			}
			last = i
			i++
			continue
		}
		r, n := decode3(b[i:])
		if (r == utf8.RuneError && n == 1) || isReserved(r) || runeWidth(r) == 0 {
			break
		}
		last = i
		i += n
	}
	if i == 0 {
		return 0
	}
	at := len(s.out)
	s.out = append(s.out, b[:i]...)
	r, _ := utf8.DecodeRune(b[last:i])
	s.scan.cell = vtLastCell{at: at + last, end: len(s.out), r: r, w: runeWidth(r)}
	s.scan.last = 0
	if r < utf8.RuneSelf {
		s.scan.last = r
	}
	return i
}

// decode3 is utf8.DecodeRune with the three-byte sequences of CJK text decoded
// inline, which halves plainRun's cost on them.
func decode3(b []byte) (rune, int) {
	if len(b) >= 3 && b[0]&0xf0 == 0xe0 && b[1]&0xc0 == 0x80 && b[2]&0xc0 == 0x80 {
		r := rune(b[0]&0x0f)<<12 | rune(b[1]&0x3f)<<6 | rune(b[2]&0x3f)
		if r >= 0x800 && (r < 0xd800 || r > 0xdfff) { // not overlong, not a surrogate
			return r, 3
		}
	}
	return utf8.DecodeRune(b)
}

// joinPart completes the character in part with the first bytes of b and
// writes it; it returns the rest of b, with part empty, or b and a longer part
// when b is still too short.
func (s *Screen) joinPart(b []byte) []byte {
	had := len(s.scan.part)
	s.scan.part = append(s.scan.part, b[:min(len(b), utf8.UTFMax-had)]...)
	if !utf8.FullRune(s.scan.part) {
		return b[len(b):]
	}
	r, n := utf8.DecodeRune(s.scan.part)
	s.scan.part = s.scan.part[:0]
	if r == utf8.RuneError && n == 1 {
		return b // the cut sequence was broken: its bytes are skipped, b is read afresh
	}
	s.putRune(r)
	return b[n-had:]
}

// putRune appends the cell runes for one character of text: a wide character
// with its pad, a combining mark merged into the cell before it, a character
// written with extras on (or one of the reserved runes) as a key.
func (s *Screen) putRune(r rune) { s.putRuneBytes(r, nil) }

// putRuneBytes is putRune for r encoded as src (nil: encode it), which a
// character written as itself is copied from.
func (s *Screen) putRuneBytes(r rune, src []byte) {
	w := runeWidth(r)
	if w == 0 {
		s.scan.last = 0
		s.combine(r)
		return
	}
	s.scan.last = 0
	if r < utf8.RuneSelf {
		s.scan.last = r
	}
	if s.scan.irm {
		s.out = append(s.out, vtInsertMark)
	}
	at := len(s.out)
	c := r
	if s.pen != (vtExtra{}) || isReserved(r) || s.gfxKept(r) {
		k, ok := s.key(vtCellKey{base: s.lineDrawing(r), ex: s.pen}, w)
		switch {
		case ok:
			c = k
		case isReserved(r):
			c = utf8.RuneError
		}
	}
	if c != r {
		src = nil
	}
	s.appendCell(at, c, w, src)
}

// appendCell appends cell rune c (encoded as src unless nil), and its pad when
// wide, and notes it as the last cell, starting at at.
func (s *Screen) appendCell(at int, c rune, w int, src []byte) {
	if src != nil {
		s.out = append(s.out, src...)
	} else {
		s.out = utf8.AppendRune(s.out, c)
	}
	if w == 2 {
		s.out = append(s.out, vtPadUTF8...)
	}
	s.scan.cell = vtLastCell{at: at, end: len(s.out), r: c, w: w}
}

// vtMaxMarkBytes bounds the marks kept on one cell; further ones are dropped.
const vtMaxMarkBytes = 32

// combine adds a zero-width character (combining mark, ZWJ, variation
// selector) to the cell written last, as tmux does: in out, or through the
// feeder when the screen was read since and the cell is in vt10x. After a
// control or a sequence, or at the start, the mark is dropped (tmux adds it to
// the cell left of the cursor, wherever that came from).
func (s *Screen) combine(m rune) {
	lc := s.scan.cell
	inOut, fed := lc.inOut(len(s.out)), lc.fed && len(s.out) == 0
	if !inOut && !fed {
		return
	}
	k, w := s.cells.lookup(lc.r)
	if len(k.marks) >= vtMaxMarkBytes {
		return
	}
	if !isReserved(lc.r) {
		k.base = s.lineDrawing(lc.r) // vt10x would have drawn it so
	}
	k.marks += string(m)
	id, ok := s.key(k, w)
	switch {
	case !ok:
	case inOut:
		s.out = s.out[:lc.at]
		s.appendCell(lc.at, id, w, nil)
	default:
		s.out = utf8.AppendRune(append(s.out, vtCombineMark), lc.r)
		s.appendCell(len(s.out), id, w, nil)
	}
}

// key interns k, collecting the table first when it is full; ok is false when
// there is still no room, and the cell is then written without its extras.
func (s *Screen) key(k vtCellKey, w int) (rune, bool) {
	switch {
	case !s.cells.full():
	case s.cells.retry > 0:
		s.cells.retry--
	default:
		if s.collect(); s.cells.full() {
			s.cells.retry = vtCollectEvery
		}
	}
	return s.cells.intern(k, w)
}

// vtCollectEvery is how many cells a full table turns away before it is
// collected again, so that a stream that keeps it full costs one screen walk
// per that many cells, not per cell.
const vtCollectEvery = 4096

// noteASCII notes, for ASCII text appended to out, whether it ends in a
// graphic character, which REP repeats and a combining mark in the next Write
// joins.
func (s *Screen) noteASCII(text []byte) {
	if len(text) == 0 {
		return
	}
	s.scan.last = 0
	if b := text[len(text)-1]; b >= 0x20 && b != 0x7f {
		s.scan.cell = vtLastCell{at: len(s.out) - 1, end: len(s.out), r: rune(b), w: 1}
		s.scan.last = rune(b)
	}
}

// saveCursor and restoreCursor keep the extras and line drawing with the
// cursor vt10x saves (DECSC, DECRC, CSI s and u, ?1048, ?1049), as tmux does.
func (s *Screen) saveCursor() { s.saved, s.scan.savedGfx = s.pen, s.scan.gfx }

func (s *Screen) restoreCursor() { s.pen, s.scan.gfx = s.saved, s.scan.savedGfx }
