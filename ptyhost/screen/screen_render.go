package screen

import (
	"strconv"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// Glyph attribute bits of vt10x; its constants are unexported (state.go).
// Dim, hidden, strikethrough and the underline's style and colour are not among
// them: those come with the cell's key (screen_cells.go).
const (
	glyphReverse   = 1 << 0
	glyphUnderline = 1 << 1
	glyphBold      = 1 << 2
	glyphGfx       = 1 << 3 // line drawing (ESC ( 0), a bit of the pen
	glyphItalic    = 1 << 4
	glyphBlink     = 1 << 5
	// glyphShown are the bits that change how a cell is drawn (not gfx, which
	// vt10x has already applied to the character, nor the wrap mark).
	glyphShown = glyphReverse | glyphUnderline | glyphBold | glyphItalic | glyphBlink
)

// Render returns the screen as exactly rows lines joined with "\n", each exactly
// cols display columns wide, with hand-built SGR sequences: one per run of equal
// cells, reset at the end of a line that needs it. Bold does not brighten:
// foreground palette 0–7 reaches vt10x as colour 256+n (screen_sgr.go) and is
// drawn as n.
//
// Only the rows written since the last Render are drawn again; the others are that
// Render's lines (screen_dirty.go).
func (s *Screen) Render() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp()
	keep := s.drawn.ok && len(s.drawn.ends) == s.rows
	prev, prevEnds := s.buf, s.drawn.ends
	// s.buf holds this Render's lines for the next one; the buffer before is the next
	// one's to write into. Swapped before any row is drawn, so that a panic in one
	// (recovered by a caller) leaves two buffers and lines not to keep, never s.buf
	// and s.drawn.next on one array.
	s.buf, s.drawn.ends = s.drawn.next[:0], s.drawn.spare[:0]
	s.drawn.next, s.drawn.spare, s.drawn.ok = prev, prevEnds, false
	from := 0 // where row y begins in prev
	for y := range s.rows {
		if y > 0 {
			s.buf = append(s.buf, '\n')
		}
		if keep && s.term.rowClean(y) {
			s.buf = append(s.buf, prev[from:prevEnds[y]]...)
		} else {
			s.renderRow(y)
		}
		if keep {
			from = prevEnds[y] + 1
		}
		s.drawn.ends = append(s.drawn.ends, len(s.buf))
	}
	s.term.clean()
	s.drawn.ok = true
	return string(s.buf)
}

// rendered is where each of the last Render's lines ends in s.buf, for the next
// Render to keep those no write changed.
type rendered struct {
	ok    bool  // s.buf holds the last Render's lines, the screen as when it was cleaned
	ends  []int // where each row ends in s.buf
	spare []int // the ends before, reused
	next  []byte
}

// joinRows returns the screen's rows, each appended to s.buf by row, joined with
// "\n", once the screen has caught up with what was written.
func (s *Screen) joinRows(row func(y int)) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp()
	s.buf, s.drawn.ok = s.buf[:0], false
	for y := range s.rows {
		if y > 0 {
			s.buf = append(s.buf, '\n')
		}
		row(y)
	}
	return string(s.buf)
}

func (s *Screen) renderRow(y int) { s.renderCells(y, s.cols) }

// renderCells appends row y's cells before column end to s.buf, as Render draws them.
func (s *Screen) renderCells(y, end int) {
	cur := vtStyle{fg: vt10x.DefaultFG, bg: vt10x.DefaultBG}
	start := cur
	for x := 0; x < end; {
		g := s.term.Cell(x, y)
		k, w := s.shown(g, x, y)
		if st := styleOf(g, k.ex); st != cur {
			s.buf = st.appendSGR(s.buf)
			cur = st
		}
		s.buf = appendCell(s.buf, k)
		x += w
	}
	if cur != start {
		s.buf = append(s.buf, "\x1b[0m"...)
	}
}

// Text returns the screen as plain text, rows lines joined with "\n", laid out
// like Render and trimmed of trailing spaces.
func (s *Screen) Text() string { return s.joinRows(s.textRow) }

func (s *Screen) textRow(y int) {
	start := len(s.buf)
	for x := 0; x < s.cols; {
		k, w := s.shown(s.term.Cell(x, y), x, y)
		s.buf = appendCell(s.buf, k)
		x += w
	}
	for len(s.buf) > start && s.buf[len(s.buf)-1] == ' ' {
		s.buf = s.buf[:len(s.buf)-1]
	}
}

// shown returns what cell g at x, y draws and how many columns it takes. A
// wide character takes two when its pad follows; a half whose other half was
// overwritten, erased, shifted or cut off draws as a blank, as a terminal
// erases a wide character when half of it goes. Control characters (which
// vt10x stores in line-drawing mode) draw as spaces.
func (s *Screen) shown(g vt10x.Glyph, x, y int) (vtCellKey, int) {
	if g.Char == vtPad {
		return vtCellKey{base: ' '}, 1
	}
	k, w := s.cells.lookup(g.Char)
	switch r := k.base; {
	case w == 2 && x+1 < s.cols && s.term.Cell(x+1, y).Char == vtPad:
		return k, 2
	case w != 1 || r < 0x20 || (r >= 0x7f && r < 0xa0):
		return vtCellKey{base: ' ', ex: k.ex}, 1
	}
	return k, 1
}

func appendCell(b []byte, k vtCellKey) []byte {
	if k.base < utf8.RuneSelf {
		b = append(b, byte(k.base))
	} else {
		b = utf8.AppendRune(b, k.base)
	}
	return append(b, k.marks...)
}

// vtStyle is how a cell is drawn.
type vtStyle struct {
	fg, bg vt10x.Color
	attr   int16
	ex     vtExtra
}

// styleOf undoes vt10x's reverse video. setChar stores a reverse cell with its
// colours already swapped and the reverse bit kept, so a renderer that applied
// reverse again would undo it; swapping back and emitting SGR 7 also keeps
// "default colour" meaning the terminal's own. Cells blanked by ED/EL/ECH while
// SGR 7 is on get the bit but unswapped colours; those are recognisable when a
// default colour sits in its own slot (a swapped one would sit in the other),
// and are drawn like xterm draws them: background only, no reverse.
func styleOf(g vt10x.Glyph, ex vtExtra) vtStyle {
	st := vtStyle{fg: g.FG, bg: g.BG, attr: g.Mode & glyphShown, ex: ex}
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
		on   bool
		code byte
	}{
		{st.attr&glyphBold != 0, '1'}, {st.ex.attr&exDim != 0, '2'}, {st.attr&glyphItalic != 0, '3'},
		{st.attr&glyphUnderline != 0, '4'}, {st.attr&glyphBlink != 0, '5'}, {st.attr&glyphReverse != 0, '7'},
		{st.ex.attr&exHidden != 0, '8'}, {st.ex.attr&exStrike != 0, '9'},
	} {
		if a.on {
			b = append(b, ';', a.code)
		}
		if a.on && a.code == '4' && st.ex.ul > 1 {
			b = append(b, ':', '0'+st.ex.ul)
		}
	}
	if st.ex.attr&exOverline != 0 {
		b = append(b, ";53"...)
	}
	b = appendColor(b, st.fg, 30, st.ex.tc()&(tcFG|tcFGGreen))
	b = appendColor(b, st.bg, 40, st.ex.tc()&(tcBG|tcBGGreen)>>2)
	b = ulcSGR(b, st.ex.ulc)
	return append(b, 'm')
}

// appendColor appends ";…" for colour c, base 30 (foreground) or 40
// (background). vt10x's encoding (color.go, state.go setAttr): 0–7 ANSI, 8–15
// bright, 16–255 the xterm palette, 256 and up r<<16|g<<8|b, 1<<24 and up the
// defaults, which an absolute SGR leaves out.
func appendColor(b []byte, c vt10x.Color, base int, tc uint8) []byte {
	if base == 30 && tc == 0 {
		c = shownFG(c)
	}
	switch {
	case c >= vt10x.DefaultFG:
		return b
	case tc&tcFG != 0: // a true colour 0,g,b stored with another green (vtExtra.tc)
		b = strconv.AppendInt(append(b, ';'), int64(base+8), 10)
		b = append(b, ";2;0;"...)
		b = strconv.AppendInt(b, int64(tc&tcFGGreen>>1), 10)
		return strconv.AppendInt(append(b, ';'), int64(c&0xff), 10)
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

// Bottom returns the last n rows of text up to the last row that is not blank (an
// inline app such as Claude Code draws its prompt above blank rows), each trimmed like
// Text. Only the rows returned are read; what the screen holds pending is emulated
// first, as for any read.
func (s *Screen) Bottom(n int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp()
	last := s.rows - 1
	for last > 0 && s.blankRow(last) {
		last--
	}
	return s.rowsText(max(0, last-n+1), last+1)
}

// Top returns the first n rows of text, each trimmed like Text.
func (s *Screen) Top(n int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp()
	return s.rowsText(0, min(n, s.rows))
}

// rowsText returns rows [from, to) as text; the caller holds mu.
func (s *Screen) rowsText(from, to int) []string {
	out := make([]string, 0, max(0, to-from))
	s.drawn.ok = false // s.buf is written over
	for y := from; y < to; y++ {
		s.buf = s.buf[:0]
		s.textRow(y)
		out = append(out, string(s.buf))
	}
	return out
}

// blankRow reports whether row y shows only spaces.
func (s *Screen) blankRow(y int) bool {
	for x := range s.cols {
		if k, _ := s.shown(s.term.Cell(x, y), x, y); k.base != ' ' {
			return false
		}
	}
	return true
}

// rowLine is row y as a line of history: Render's row without the blank cells of
// default style at its end (a line of blanks is empty).
func (s *Screen) rowLine(y int) string {
	at := len(s.buf)
	s.renderCells(y, s.usedCols(y))
	line := string(s.buf[at:])
	s.buf = s.buf[:at]
	return line
}

// usedCols is how many columns of row y hold something other than a blank of the
// default style: 0 for a row a program has not written or has erased.
func (s *Screen) usedCols(y int) int {
	for x := s.cols - 1; x >= 0; x-- {
		g := s.term.Cell(x, y)
		if k, _ := s.shown(g, x, y); k.base != ' ' || k.marks != "" || styleOf(g, k.ex) != plainStyle {
			return x + 1
		}
	}
	return 0
}

// plainStyle is the default style: how a blank that nothing touched is drawn.
var plainStyle = vtStyle{fg: vt10x.DefaultFG, bg: vt10x.DefaultBG}
