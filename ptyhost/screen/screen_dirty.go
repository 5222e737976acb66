package screen

// Rows a write changed, so that Render draws again only those (the rest are the last
// Render's lines, kept): a typed key's echo changes one row, and rendering every cell
// of the screen for it was the largest part of the UI's frame with the run in its
// process (--local) and of the server's frame for an attached UI. vt10x does not say
// which rows it changed, so the emulator's writes are read here, before vt10x runs
// them: a write that can only change the cursor's row is noted as that row; anything
// else (a line feed, a cursor move, a scroll, a mode, a resize, a new emulator) as
// every row. What counts as changing the cursor's row alone is kept narrow, to be
// sure of it:
//   - printable bytes, CR and BS, which write cells of the cursor's row or move the
//     cursor along it, if the cursor is far enough from the last column that no
//     character can wrap (one column for every byte, which a character never
//     exceeds);
//   - SGR (CSI with digits, ';' and ':' only, ending in 'm'), which changes only the
//     pen, and EL ('K'), which blanks cells of the cursor's row.
//
// Line feeds, tabs (which move to a stop that may be the last column), other
// controls and sequences, and a write that begins inside a sequence an earlier one
// left open, count as every row.

// Where the bytes written so far left vt10x's parser, as followed here (vtSeq).
const (
	seqGround = iota
	seqEsc    // after ESC (and any intermediates)
	seqCSI    // inside a control sequence
	seqStr    // inside a string (OSC, DCS, APC, PM, SOS), until BEL or ST
	seqStrEsc // ESC inside a string: ST if a backslash follows
)

// noteWrite notes the rows p changes when vt10x, in its state now, runs it.
func (l *lazyTerm) noteWrite(p []byte) {
	ground := l.seq == seqGround
	n, local := l.scan(p)
	if l.all {
		return
	}
	cols, rows := l.Size()
	cur := l.Cursor()
	if !ground || !local || cur.Y < 0 || cur.Y >= rows || cur.X+n > cols-2 {
		l.all = true
		return
	}
	if len(l.dirty) != rows {
		l.dirty = make([]bool, rows)
	}
	l.dirty[cur.Y] = true
}

// scan follows p through vt10x's parser from where the last write left it: how many
// bytes it writes as text, and whether all it does is write text on the cursor's row,
// move the cursor along it (CR, BS), set the pen (SGR) or erase in it (EL).
func (l *lazyTerm) scan(p []byte) (text int, local bool) {
	local = true
	plain := false // the control sequence's parameters are digits, ';' and ':' only
	for i, b := range p {
		switch l.seq {
		case seqGround:
			switch {
			case b == 0x1b:
				l.seq = seqEsc
			case b == '\r' || b == '\b':
			case b < 0x20 || b == 0x7f:
				local = false
			case b == 0xc2 && i+1 < len(p) && p[i+1] >= 0x80 && p[i+1] <= 0x9f:
				local = false // a C1 control, in UTF-8
			default:
				text++
			}
		case seqEsc:
			switch {
			case b == '[':
				l.seq, plain = seqCSI, true
			case b == ']' || b == 'P' || b == '_' || b == '^' || b == 'X':
				l.seq, local = seqStr, false
			case b >= 0x20 && b <= 0x2f: // an intermediate: ESC ( 0 and the like
				local = false
			case b == 0x1b:
				local = false
			default:
				l.seq, local = seqGround, false
			}
		case seqCSI:
			switch {
			case b >= 0x40 && b <= 0x7e:
				l.seq = seqGround
				local = local && plain && (b == 'm' || b == 'K')
			case b >= '0' && b <= '9' || b == ';' || b == ':':
			case b == 0x1b:
				l.seq, local = seqEsc, false
			default:
				plain = false
			}
		case seqStr:
			switch b {
			case 0x07:
				l.seq = seqGround
			case 0x1b:
				l.seq = seqStrEsc
			}
		case seqStrEsc:
			if b == '\\' {
				l.seq = seqGround
			} else if b != 0x1b {
				l.seq = seqStr
			}
		}
	}
	return text, local && l.seq == seqGround
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
