package screen

import (
	"strconv"

	"github.com/hinshun/vt10x"
)

// Background colour erase. A cell that a terminal blanks (EL, ED, ECH, ICH, DCH, IL,
// DL, SU, SD, RI at the top margin, and the line a line feed scrolls in) takes the
// current background colour and nothing else in tmux (grid_clear's bg argument) and
// xterm with bce. vt10x's clear copies the whole pen instead: an underline, a
// foreground or reverse video on when a line was erased showed on its blanks, and a
// line feed's new line kept the default background (state.go's newline clears with
// defaultCursor). So the scanner puts vtEraseMark before every sequence that blanks
// cells, and the feeder runs it with a pen of the background alone, putting the pen
// back after (erase); the line a line feed brings in is blanked the same way by the
// scroll follower (screen_scroll.go). An autowrap's new line keeps the default
// background, as in tmux (screen_write_linefeed(ctx, 1, 8)).

// isMark reports whether b is one of the feeder's marks, which the scanner drops from
// the run's own output.
func isMark(b byte) bool { return b == vtInsertMark || b == vtCombineMark || b == vtEraseMark }

// erase runs the sequence at the start of p, which blanks cells, with the background
// colour alone, and returns its length.
func (s *Screen) erase(p []byte) int {
	n, _ := seqLen(p)
	seq := p[:n]
	s.eraseHistory(seq)
	s.withBackground(func() {
		_, _ = s.term.Write(seq)
		if string(seq) == "\x1b[1J" {
			s.eraseFirstRow()
		}
	})
	return n
}

// eraseFirstRow finishes an ED 1 on the second row, where vt10x leaves the first
// row as it was (defect #12: it clears the rows above only when there are two). The
// cursor goes back where it was, waiting to wrap if it was: the blank written in the
// last column to get that back is what ED 1 left there.
func (s *Screen) eraseFirstRow() {
	cur := s.term.Cursor()
	if cur.Y != 1 {
		return
	}
	b := append(s.scratch[:0], "\x1b[H\x1b[2K\x1b[2;"...)
	b = append(strconv.AppendInt(b, int64(cur.X+1), 10), 'H')
	if cur.State&vtWrapNext != 0 {
		b = append(b, ' ')
	}
	_, _ = s.term.Write(b)
}

// withBackground runs f, which blanks cells, with vt10x's pen reduced to its
// background colour, and puts the pen back after.
func (s *Screen) withBackground(f func()) {
	pen := s.term.Cursor().Attr
	if backgroundOnly(pen) {
		f()
		return
	}
	_, _ = s.term.Write(appendBackground(s.scratch[:0], pen.BG))
	f()
	_, _ = s.term.Write(appendPen(s.scratch[:0], pen))
}

// backgroundOnly reports whether a pen blanks cells as tmux does already: no
// foreground, no attribute that shows on a blank.
func backgroundOnly(g vt10x.Glyph) bool {
	return g.FG == vt10x.DefaultFG && g.Mode&glyphShown == 0
}

// appendBackground appends the SGR that leaves vt10x's pen with colour bg alone.
func appendBackground(b []byte, bg vt10x.Color) []byte {
	return appendPen(b, vt10x.Glyph{FG: vt10x.DefaultFG, BG: bg})
}

// appendPen appends the SGR that sets vt10x's pen to exactly g's colours and
// attributes: colours by their stored values (a palette index as 5;n, anything else
// as 2;r;g;b, which setAttr stores as r<<16|g<<8|b), so that no encoding of
// screen_sgr.go is undone. SGR 0 leaves the line-drawing bit, which is not an
// attribute, alone.
func appendPen(b []byte, g vt10x.Glyph) []byte {
	b = append(b, "\x1b[0"...)
	for _, a := range [...]struct {
		bit  int16
		code byte
	}{{glyphBold, '1'}, {glyphItalic, '3'}, {glyphUnderline, '4'}, {glyphBlink, '5'}, {glyphReverse, '7'}} {
		if g.Mode&a.bit != 0 {
			b = append(b, ';', a.code)
		}
	}
	b = appendStored(b, g.FG, vt10x.DefaultFG, "38")
	b = appendStored(b, g.BG, vt10x.DefaultBG, "48")
	return append(b, 'm')
}

func appendStored(b []byte, c, def vt10x.Color, base string) []byte {
	switch {
	case c == def || c > 0xffffff:
		return b
	case c < 256:
		b = append(append(append(b, ';'), base...), ";5;"...)
		return strconv.AppendUint(b, uint64(c), 10)
	}
	b = append(append(append(b, ';'), base...), ";2;"...)
	b = strconv.AppendUint(b, uint64(c>>16&0xff), 10)
	b = strconv.AppendUint(append(b, ';'), uint64(c>>8&0xff), 10)
	return strconv.AppendUint(append(b, ';'), uint64(c&0xff), 10)
}
