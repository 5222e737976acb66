package screen

import (
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// The scroll follower: every normalised byte reaches vt10x through write, which
// stops before whatever scrolls the screen up, that is a line feed (LF, VT, FF, IND,
// NEL) with the cursor on the scroll region's last line, or a character that wraps
// there, so that the line about to leave goes into the history first
// (screen_history.go); a line feed that scrolls also blanks the line it brings in
// with the background colour (screen_erase.go; vt10x leaves it default). While it
// keeps no history it stops at line feeds alone.
//
// To know where a character wraps, write follows the cursor through text as the
// feeder does (vtCol, screen_wide.go) and reads it from vt10x after anything it does
// not follow, which means writing what came before first.

// vtRegion is vt10x's scroll region (DECSTBM) as of the bytes fed so far: the
// scanner feeds what came before a DECSTBM before it sets it (scrollRegion).
type vtRegion struct{ top, bottom int }

// partial reports whether the region is smaller than a screen of rows lines.
func (r vtRegion) partial(rows int) bool { return r.top > 0 || r.bottom < rows-1 }

// write feeds p, normalised bytes without the feeder's marks, to vt10x.
func (s *Screen) write(p []byte) {
	if !s.keeping() {
		s.writeLines(p)
		return
	}
	var c vtCol // unknown until read
	start := 0
	for i := 0; i < len(p); {
		if n := lineFeedLen(p[i:]); n > 0 {
			s.writeRaw(p[start:i])
			s.lineFeed(p[i : i+n])
			i += n
			start, c.known = i, false
			continue
		}
		if n := c.skip(p[i:]); n > 0 {
			i += n
			continue
		}
		j := textEnd(p, i)
		if !c.known {
			s.writeRaw(p[start:i])
			start, c = i, s.column()
		}
		start = s.textScrolls(p, i, j, start, &c)
		i = j
	}
	s.writeRaw(p[start:])
}

// writeLines feeds p, stopping at line feeds only.
func (s *Screen) writeLines(p []byte) {
	for i := 0; i < len(p); i++ {
		if n := lineFeedLen(p[i:]); n > 0 {
			s.writeRaw(p[:i])
			s.lineFeed(p[i : i+n])
			p, i = p[i+n:], -1
		}
	}
	s.writeRaw(p)
}

func (s *Screen) writeRaw(p []byte) {
	if len(p) > 0 {
		_, _ = s.term.Write(p)
	}
}

// lineFeedLen is the length of the line feed at the start of p (LF, VT and FF; IND
// and NEL, ESC D and ESC E), 0 if there is none.
func lineFeedLen(p []byte) int {
	switch {
	case p[0] == '\n' || p[0] == '\v' || p[0] == '\f':
		return 1
	case p[0] == vtESC && len(p) > 1 && (p[1] == 'D' || p[1] == 'E'):
		return 2
	}
	return 0
}

// textEnd is where the text starting at i ends: at the next control or sequence.
func textEnd(p []byte, i int) int {
	for i < len(p) && p[i] >= 0x20 && p[i] != 0x7f {
		i++
	}
	return i
}

// lineFeed feeds one line feed; when it scrolls, the region's top line goes into
// the history first and the line it brings in is blanked with the background
// colour. IND scrolls with vt10x's whole pen rather than the default one.
func (s *Screen) lineFeed(lf []byte) {
	cur := s.term.Cursor()
	scrolls := cur.Y == s.region.bottom
	if scrolls {
		s.keepRows(s.region.top, s.region.top+1)
	}
	_, _ = s.term.Write(lf)
	ind := len(lf) == 2 && lf[1] == 'D'
	if scrolls && (cur.Attr.BG != vt10x.DefaultBG || ind && !backgroundOnly(cur.Attr)) {
		s.withBackground(func() { _, _ = s.term.Write([]byte("\x1b[2K")) })
	}
}

// wrapLine moves the cursor to the start of the next line as an autowrap does, for a
// wide character that would start in the last column: a line it scrolls in keeps the
// default background.
func (s *Screen) wrapLine() {
	if s.term.Cursor().Y == s.region.bottom {
		s.keepRows(s.region.top, s.region.top+1)
	}
	_, _ = s.term.Write([]byte("\r\n"))
}

// textScrolls follows the cursor c through the text p[i:j], of one cell per rune,
// and puts the region's top line into the history before each character whose
// autowrap scrolls it; p[start:] is not written yet, and it returns what still
// is not.
func (s *Screen) textScrolls(p []byte, i, j, start int, c *vtCol) int {
	for {
		k := c.cellsBeforeScroll(s.cols, s.region.bottom)
		n := utf8.RuneCount(p[i:j])
		if k < 0 || n <= k {
			for range n {
				c.putRow(s.cols, s.rows, s.region.bottom)
			}
			return start
		}
		for range k {
			_, size := utf8.DecodeRune(p[i:j])
			i += size
		}
		s.writeRaw(p[start:i])
		start = i
		s.keepRows(s.region.top, s.region.top+1)
		// The character at i wraps onto a new last line of the region.
		c.x, c.y, c.next = 0, s.region.bottom, false
	}
}
