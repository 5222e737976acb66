package screen

import "bytes"

// Rows a write changed, so that Render draws again only those (the rest are the last
// Render's lines, kept): a typed key's echo changes one row, and rendering every cell
// of the screen for it was the largest part of the UI's frame with the run in its
// process (--local) and of the server's frame for an attached UI. vt10x does not say
// which rows it changed, so the emulator's writes are read here, before vt10x runs
// them: a write that can only change the cursor's row is noted as that row; anything
// else as every row.
//
// What counts as one row is kept narrow, so that it is right without following
// vt10x's parser (which runs a control met inside a sequence and stays in the
// sequence, cuts a control sequence at 256 bytes and truncates a rune in one to a
// byte): the write must begin with the parser in its ground state and hold nothing
// but
//   - printable text, if the cursor is far enough from the last column that no
//     character can wrap (one column for every byte, which a character never
//     exceeds);
//   - CR and BS, which move the cursor along its row;
//   - whole SGR sequences (CSI, then digits, ';' and ':' only, then 'm'), which set
//     only the pen, and whole EL sequences (digits and ';', then 'K'), which blank
//     cells of the cursor's row.
//
// Such a write ends in the ground state too. Screen's normaliser feeds vt10x whole
// sequences (never one cut between two writes, a control met inside one run before
// it), so a typed key's echo is a write of this kind. Any other write (a line feed, a
// tab, a cursor move, a string, a sequence cut between two writes, raw bytes written
// to the emulator) counts as every row, and leaves the parser's state unknown (open)
// unless its end shows it back in ground (groundAfter).

// noteWrite notes the rows p changes when vt10x runs it.
func (l *lazyTerm) noteWrite(p []byte) {
	n, local := rowText(p)
	if local && !l.open {
		l.noteRow(n)
		return
	}
	l.all = true
	l.open = !groundAfter(p, !l.open)
}

// noteRow notes the cursor's row, written by a write of n bytes of text that can
// change only that row, unless the text may reach the last column.
func (l *lazyTerm) noteRow(n int) {
	if l.all {
		return
	}
	cols, rows := l.Size()
	cur := l.Cursor()
	// After n characters from column X the cursor is at X+n at most; within
	// cols-1 no character was written in the last column, so none set vt10x's
	// wrap-next, which is set only there (and cleared by every cursor move).
	if cur.Y < 0 || cur.Y >= rows || cur.X+n > cols-1 {
		l.all = true
		return
	}
	if len(l.dirty) != rows {
		l.dirty = make([]bool, rows)
	}
	l.dirty[cur.Y] = true
}

// rowText reports whether p holds only printable text, CR, BS and whole SGR and EL
// sequences (the kinds of bytes that, run from the ground state, change only the
// cursor's row), and how many bytes of text it holds.
func rowText(p []byte) (text int, local bool) {
	for i := 0; i < len(p); i++ {
		switch b := p[i]; {
		case b == '\r' || b == '\b':
		case b == 0x1b:
			n := rowCSI(p[i:])
			if n == 0 {
				return text, false
			}
			i += n - 1
		case b < 0x20 || b == 0x7f:
			return text, false
		case b == 0xc2 && i+1 < len(p) && p[i+1] >= 0x80 && p[i+1] <= 0x9f:
			return text, false // a C1 control, in UTF-8
		default:
			text++
		}
	}
	return text, true
}

// rowCSI is the length of the SGR or EL sequence p begins with (ESC [ included),
// or 0 if it begins with none, whole: its parameters digits, ';' and, for SGR, ':',
// and well under vt10x's 256-byte cut.
func rowCSI(p []byte) int {
	if len(p) < 3 || p[1] != '[' {
		return 0
	}
	colon := false
	for i := 2; i < len(p) && i < 200; i++ {
		switch b := p[i]; {
		case b >= '0' && b <= '9' || b == ';':
		case b == ':':
			colon = true
		case b == 'm' || b == 'K' && !colon:
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// groundAfter reports whether vt10x's parser is surely in its ground state after
// p, a write that did not count as one row: from ground already if it held no ESC
// and began there, or else if what follows its last ESC ends every state that ESC
// can lead to (from any state, ESC leads to the one after ESC, or in a string to
// the one that ends it).
func groundAfter(p []byte, ground bool) bool {
	i := bytes.LastIndexByte(p, 0x1b)
	if i < 0 {
		return ground
	}
	rest := p[i+1:]
	if len(rest) == 0 {
		return false
	}
	switch c := rest[0]; {
	case c < 0x20 || c >= 0x7f:
		// vt10x runs a control there and stays, or (one it does not know) goes
		// back to ground: not followed.
		return false
	case c == '[':
		// A whole control sequence: parameters and intermediates, then its final
		// byte (in a string, ESC [ ends it and the rest is text: ground too).
		for j := 1; j < len(rest) && j < 200; j++ {
			switch b := rest[j]; {
			case b >= 0x20 && b <= 0x3f:
			case b >= 0x40 && b <= 0x7e:
				return true
			default:
				return false
			}
		}
		return false
	case c == '#' || c == '(' || c == 'P' || c == '_' || c == '^' || c == ']' || c == 'k':
		// A test, a charset, a string: not followed.
		return false
	default:
		// An escape sequence of one byte (ST, DECSC, RI…), or the end of a string.
		return true
	}
}

// rowClean reports whether no write changed row y since the last clean.
func (l *lazyTerm) rowClean(y int) bool {
	return !l.all && (y >= len(l.dirty) || !l.dirty[y])
}

// clean forgets the rows written so far: Render drew them.
func (l *lazyTerm) clean() {
	l.all = false
	clear(l.dirty)
}
