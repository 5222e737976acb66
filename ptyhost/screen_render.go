package ptyhost

import (
	"strconv"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// Glyph attribute bits of vt10x; its constants are unexported (state.go).
// Dim is not among them: vt10x drops SGR 2, so dim text renders at full
// intensity.
const (
	glyphReverse   = 1 << 0
	glyphUnderline = 1 << 1
	glyphBold      = 1 << 2
	glyphItalic    = 1 << 4
	glyphBlink     = 1 << 5
	// glyphShown are the bits that change how a cell is drawn (not gfx, which
	// vt10x has already applied to the character, nor the wrap mark).
	glyphShown = glyphReverse | glyphUnderline | glyphBold | glyphItalic | glyphBlink
)

// Render returns the screen as exactly rows lines joined with "\n", each exactly
// cols display columns wide, with hand-built SGR sequences: one per run of equal
// cells, reset at the end of a line that needs it. A line is laid out as a
// terminal shows it (see vtLayout). Bold does not brighten: foreground palette
// 0–7 reaches vt10x as colour 256+n (screen_sgr.go) and is drawn as n.
func (s *Screen) Render() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp()
	s.buf = s.buf[:0]
	for y := range s.rows {
		if y > 0 {
			s.buf = append(s.buf, '\n')
		}
		s.renderRow(y)
	}
	return string(s.buf)
}

func (s *Screen) renderRow(y int) {
	lay := vtLayout{cols: s.cols}
	cur := vtStyle{fg: vt10x.DefaultFG, bg: vt10x.DefaultBG}
	start := cur
	for x := 0; x < s.cols && !lay.full; x++ {
		g := s.term.Cell(x, y)
		r, w := lay.place(g)
		if w < 0 {
			continue
		}
		// A combining mark goes on in the style of its base character.
		if st := styleOf(g); w > 0 && st != cur {
			s.buf = st.appendSGR(s.buf)
			cur = st
		}
		s.buf = utf8.AppendRune(s.buf, r)
	}
	for ; lay.col < s.cols; lay.col++ { // padding continues the last style (a coloured bar stays whole)
		s.buf = append(s.buf, ' ')
	}
	if cur != start {
		s.buf = append(s.buf, "\x1b[0m"...)
	}
}

// Text returns the screen as plain text, rows lines joined with "\n", laid out
// like Render and trimmed of trailing spaces.
func (s *Screen) Text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp()
	s.buf = s.buf[:0]
	for y := range s.rows {
		if y > 0 {
			s.buf = append(s.buf, '\n')
		}
		start := len(s.buf)
		lay := vtLayout{cols: s.cols}
		for x := 0; x < s.cols && !lay.full; x++ {
			if r, w := lay.place(s.term.Cell(x, y)); w >= 0 {
				s.buf = utf8.AppendRune(s.buf, r)
			}
		}
		for len(s.buf) > start && s.buf[len(s.buf)-1] == ' ' {
			s.buf = s.buf[:len(s.buf)-1]
		}
	}
	return string(s.buf)
}

// displayCol maps vt10x's cursor cell to the display column Render puts it at.
func (s *Screen) displayCol(x, y int) int {
	lay := vtLayout{cols: s.cols}
	for i := 0; i < x && i < s.cols && !lay.full; i++ {
		lay.place(s.term.Cell(i, y))
	}
	return min(lay.col, s.cols-1)
}

// vtLayout places one line of vt10x cells on a real terminal. vt10x gives every
// rune one cell (vt.md §1.6); a terminal gives a wide one two, and the app,
// knowing that, leaves or later writes past the cell it expects to be covered.
// So each wide rune runs up a debt of one column, paid by dropping the next
// plain blank cells (a reverse or underlined blank is kept: it is someone's
// cursor). This turns "hello 你好   😀  world", as Claude Code's prompt lands in
// vt10x after it re-syncs with CHA, back into "hello 你好 😀 world". A debt
// left unpaid pushes the line past cols, and it is cut there. Zero-width format
// characters (ZWJ, variation selectors) are dropped, as their effect differs
// between terminals, and combining marks stay with the character before them.
// Control characters, which vt10x stores in line-drawing mode, draw as spaces.
type vtLayout struct {
	cols, col, debt int
	full            bool
}

// place returns the rune to draw for cell g and its width, or width -1 when
// the cell is not drawn.
func (l *vtLayout) place(g vt10x.Glyph) (rune, int) {
	r := g.Char
	if r < 0x20 || (r >= 0x7f && r < 0xa0) {
		r = ' '
	}
	if r == ' ' && l.debt > 0 && g.Mode&(glyphReverse|glyphUnderline) == 0 {
		l.debt--
		return 0, -1
	}
	w := runeWidth(r)
	switch {
	case w == 0 && (l.col == 0 || !isCombining(r)):
		return 0, -1
	case l.col+w > l.cols:
		l.full = true
		return 0, -1
	}
	l.col += w
	l.debt += max(w-1, 0)
	return r, w
}

// vtStyle is how a cell is drawn.
type vtStyle struct {
	fg, bg vt10x.Color
	attr   int16
}

// styleOf undoes vt10x's reverse video. setChar stores a reverse cell with its
// colours already swapped and the reverse bit kept, so a renderer that applied
// reverse again would undo it; swapping back and emitting SGR 7 also keeps
// "default colour" meaning the terminal's own. Cells blanked by ED/EL/ECH while
// SGR 7 is on get the bit but unswapped colours; those are recognisable when a
// default colour sits in its own slot (a swapped one would sit in the other),
// and are drawn like xterm draws them: background only, no reverse.
func styleOf(g vt10x.Glyph) vtStyle {
	st := vtStyle{fg: g.FG, bg: g.BG, attr: g.Mode & glyphShown}
	if st.attr&glyphReverse == 0 {
		return st
	}
	if g.FG == vt10x.DefaultFG || g.BG == vt10x.DefaultBG {
		st.attr &^= glyphReverse
		return st
	}
	st.fg, st.bg = g.BG, g.FG
	return st
}

// appendSGR appends one absolute SGR sequence for st.
func (st vtStyle) appendSGR(b []byte) []byte {
	b = append(b, "\x1b[0"...)
	for _, a := range [...]struct {
		bit  int16
		code byte
	}{{glyphBold, '1'}, {glyphItalic, '3'}, {glyphUnderline, '4'}, {glyphBlink, '5'}, {glyphReverse, '7'}} {
		if st.attr&a.bit != 0 {
			b = append(b, ';', a.code)
		}
	}
	b = appendColor(b, st.fg, 30)
	b = appendColor(b, st.bg, 40)
	return append(b, 'm')
}

// appendColor appends ";…" for colour c, base 30 (foreground) or 40
// (background). vt10x's encoding (color.go, state.go setAttr): 0–7 ANSI, 8–15
// bright, 16–255 the xterm palette, 256 and up r<<16|g<<8|b, 1<<24 and up the
// defaults, which an absolute SGR leaves out.
func appendColor(b []byte, c vt10x.Color, base int) []byte {
	if base == 30 {
		c = shownFG(c)
	}
	switch {
	case c >= vt10x.DefaultFG:
		return b
	case c < 8:
		return strconv.AppendInt(append(b, ';'), int64(base)+int64(c), 10)
	case c < 16:
		return strconv.AppendInt(append(b, ';'), int64(base+60)+int64(c-8), 10)
	case c < 256:
		b = strconv.AppendInt(append(b, ';'), int64(base+8), 10)
		return strconv.AppendInt(append(b, ";5;"...), int64(c), 10)
	}
	b = strconv.AppendInt(append(b, ';'), int64(base+8), 10)
	b = strconv.AppendInt(append(b, ";2;"...), int64(c>>16&0xff), 10)
	b = strconv.AppendInt(append(b, ';'), int64(c>>8&0xff), 10)
	return strconv.AppendInt(append(b, ';'), int64(c&0xff), 10)
}

// shownFG undoes the encoding of screen_sgr.go that keeps a bold foreground of
// palette 0–7 from being brightened: vt10x colour 256+n is palette n.
func shownFG(c vt10x.Color) vt10x.Color {
	if c >= 256 && c < 264 {
		return c - 256
	}
	return c
}
