package screen

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// The feeder: what of a cell's placement depends on the cursor, which only
// vt10x knows, and so is done as the normalised stream is fed. The rules are tmux's (3.3a, checked against it):
//   - a wide character that would start in the last column wraps to the next
//     line first, leaving that column as it was; without autowrap (DECAWM off)
//     it is dropped. vt10x would put its two halves on two lines;
//   - in insert mode (IRM, which vt10x ignores) a cell first shifts the rest of
//     the line right by its width (ICH), except when the cursor waits to wrap:
//     the cell then goes to the next line without inserting there;
//   - a combining mark that came after its cell was fed rewrites that cell,
//     which is just before the cursor (or under it, when it waits to wrap).
//
// A wide character or a half of one that something else overwrote, erased or
// cut off is not repaired here: Render draws such a half as a blank, which is
// what a terminal shows.

// vtWrapNext is vt10x's cursorWrapNext (state.go): the cursor is in the last
// column with a character written there, and the next one wraps first.
const vtWrapNext = 1 << 1

// feedCells writes p to vt10x, handling the marks in it: each is found once, and
// the text between goes to feedText.
func (s *Screen) feedCells(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexAny(p, "\x01\x02\x03")
		if i < 0 {
			s.feedText(p)
			return
		}
		s.feedText(p[:i])
		used := i + 1
		switch p[i] {
		case vtInsertMark:
			s.insertCell(p[i+1:])
		case vtCombineMark:
			used += s.recombine(p[i+1:])
		default:
			used += s.erase(p[i+1:])
		}
		p = p[used:]
	}
}

// vtCol is the cursor's column as feedText follows it through text, so that vt10x
// is asked for it (which means writing what came before) only after something
// that moves the cursor in a way not followed here, and not before every wide
// character (BenchmarkScreenWriteCJK).
type vtCol struct {
	x, y             int  // y is followed by the scroll follower only (screen_scroll.go)
	next             bool // vt10x's wrap-next state
	known, wrap, lnm bool
}

// column reads the cursor and the modes that move it from vt10x.
func (s *Screen) column() vtCol {
	cur, m := s.term.Cursor(), s.term.Mode()
	return vtCol{x: cur.X, y: cur.Y, next: cur.State&vtWrapNext != 0, known: true,
		wrap: m&vt10x.ModeWrap != 0, lnm: m&vt10x.ModeCRLF != 0}
}

// putRow is put for the scroll follower, which follows the line too: an autowrap
// moves to the next line, or stays on the region's last one (it scrolls), or on the
// screen's last one below the region.
func (c *vtCol) putRow(cols, rows, bottom int) {
	if c.next && c.wrap && c.y != bottom {
		c.y = min(c.y+1, rows-1)
	}
	c.put(cols)
}

// cellsBeforeScroll is how many cells can be written from c before one wraps on the
// region's last line, bottom, and so scrolls; -1 if none ever does (no autowrap, or
// the cursor is below the region).
func (c *vtCol) cellsBeforeScroll(cols, bottom int) int {
	if !c.wrap || c.y > bottom {
		return -1
	}
	first := cols - c.x // the cells of this line; the one after wraps
	if c.next {
		first = 0
	}
	return first + (bottom-c.y)*cols
}

// put follows vt10x writing one cell (parse in its state.go).
func (c *vtCol) put(cols int) {
	if c.next && c.wrap {
		c.x, c.next = 0, false
	}
	if c.x+1 < cols {
		c.x++
	} else {
		c.next = true
	}
}

// skip follows the sequence or control at the start of p and returns its length; 0
// when p starts with text.
func (c *vtCol) skip(p []byte) int {
	switch b := p[0]; {
	case b == vtESC:
		n, still := seqLen(p)
		c.known = c.known && still
		return n
	case b < 0x20 || b == 0x7f:
		c.control(b)
		return 1
	}
	return 0
}

// control follows a C0 control; the ones not followed make the column unknown.
func (c *vtCol) control(b byte) {
	switch b {
	case '\r':
		c.x, c.next = 0, false
	case '\n', '\v', '\f':
		c.next = false
		if c.lnm {
			c.x = 0
		}
	case '\b':
		c.x, c.next = max(c.x-1, 0), false
	default:
		c.known = false
	}
}

// feedText writes p, text and sequences without marks, to vt10x, wrapping each
// wide character (a rune and vtPad) that would start in the last column first, or
// dropping it when autowrap is off.
func (s *Screen) feedText(p []byte) {
	p = s.padWide(p)
	if bytes.IndexByte(p, vtPadUTF8[0]) < 0 { // no pad (nor key): nothing to place
		s.write(p)
		return
	}
	var c vtCol
	start := 0 // p[start:i] is not written yet
	for i := 0; i < len(p); {
		if n := c.skip(p[i:]); n > 0 {
			i += n
			continue
		}
		_, n := utf8.DecodeRune(p[i:])
		if !bytes.HasPrefix(p[i+n:], []byte(vtPadUTF8)) {
			c.put(s.cols)
			i += n
			continue
		}
		if !c.known {
			s.write(p[start:i])
			start, c = i, s.column()
		}
		end := i + n + len(vtPadUTF8)
		switch s.wideFit(&c) {
		case wideDrop:
			s.write(p[start:i])
			start = end
		case wideWrap: // leaving the last column as it is, as vt10x's own wrap does
			s.write(p[start:i])
			s.wrapLine()
			start = i
		}
		i = end
	}
	s.write(p[start:])
}

// padWide returns p with a pad after each wide character that has none (text
// the scanner copied as it came, screen_text.go plainRun), in a buffer reused
// across feeds; p itself when it has no such character.
func (s *Screen) padWide(p []byte) []byte {
	i := 0
	for i < len(p) && p[i] < utf8.RuneSelf {
		i++
	}
	if i == len(p) {
		return p
	}
	out := append(s.padded[:0], p[:i]...)
	for i < len(p) {
		if p[i] < utf8.RuneSelf {
			out = append(out, p[i])
			i++
			continue
		}
		r, n := decode3(p[i:])
		out = append(out, p[i:i+n]...)
		i += n
		if runeWidth(r) == 2 && !bytes.HasPrefix(p[i:], []byte(vtPadUTF8)) {
			out = append(out, vtPadUTF8...)
		}
	}
	s.padded = out
	return out
}

// What to do with a wide character.
const (
	wideFits = iota
	wideWrap // start a new line first
	wideDrop
)

// wideFit decides about a wide character at column c and moves c past it.
func (s *Screen) wideFit(c *vtCol) int {
	how := wideFits
	switch {
	case s.cols < 2 || (!c.wrap && c.x >= s.cols-1):
		return wideDrop
	case c.next || c.x < s.cols-1: // vt10x wraps first by itself, or both halves fit
	default:
		how, c.x = wideWrap, 0
	}
	c.put(s.cols)
	c.put(s.cols)
	return how
}

// seqLen returns the length of the escape sequence at the start of p (as the
// scanner writes them) and whether it leaves the cursor where it was: SGR and EL.
func seqLen(p []byte) (int, bool) {
	if len(p) < 2 {
		return len(p), false
	}
	switch p[1] {
	case '[':
		for i := 2; i < len(p); i++ {
			if f := p[i]; f >= 0x40 && f <= 0x7e {
				return i + 1, f == 'm' || f == 'K'
			}
		}
		return len(p), false
	case '(', '#':
		return min(3, len(p)), false
	}
	return 2, false
}

// insertCell makes room for the cell at the start of p (insert mode).
func (s *Screen) insertCell(p []byte) {
	if len(p) == 0 {
		return
	}
	if s.term.Cursor().State&vtWrapNext != 0 && s.term.Mode()&vt10x.ModeWrap != 0 {
		return
	}
	_, n := utf8.DecodeRune(p)
	w := 1
	if bytes.HasPrefix(p[n:], []byte(vtPadUTF8)) {
		w = 2
	}
	_, _ = s.term.Write(append(strconv.AppendInt([]byte("\x1b["), int64(w), 10), '@'))
}

// recombine writes the cell after the rune at the start of p over the last
// cell written, before the cursor, when that holds the rune; it returns the
// bytes it used: the rune, the cell rune and its pad.
func (s *Screen) recombine(p []byte) int {
	old, n0 := utf8.DecodeRune(p)
	r, n := utf8.DecodeRune(p[n0:])
	_, w := s.cells.lookup(r)
	n += n0
	if bytes.HasPrefix(p[n:], []byte(vtPadUTF8)) {
		n += len(vtPadUTF8)
	}
	cur := s.term.Cursor()
	end := cur.X - 1
	if cur.State&vtWrapNext != 0 {
		end = cur.X
	}
	at := end - (w - 1)
	if at < 0 || !holds(s.term.Cell(at, cur.Y), old) || (w == 2 && s.term.Cell(end, cur.Y).Char != vtPad) {
		return n
	}
	cha := append(strconv.AppendInt([]byte("\x1b["), int64(at+1), 10), 'G')
	_, _ = s.term.Write(append(cha, p[n0:n]...))
	return n
}

// holds reports whether vt10x's cell g is rune r as it was written: drawn from the
// line-drawing set when it was written in that mode.
func holds(g vt10x.Glyph, r rune) bool {
	if g.Mode&glyphGfx != 0 && r >= 0x60 && r <= 0x7e {
		r = decGraphics[r-0x60]
	}
	return g.Char == r
}
