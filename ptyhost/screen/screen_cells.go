package screen

import (
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// Cells vt10x cannot hold. A vt10x cell is one rune
// with reverse, underline, bold, italic and blink bits and two colours; it has
// no width, no room for a combining mark, and no dim, hidden, strikethrough,
// underline style or underline colour. vt10x stores whatever rune it is given
// and moves it with the cell (scrolling, ICH, DCH, IL, DL, the alternate
// screen), so the wrapper gives it runes that stand for more:
//
//   - a wide character is fed as itself followed by vtPad, so it takes two
//     cells and moves the cursor two columns as on a real terminal; the feeder
//     (screen_wide.go) wraps it first when it would start in the last column;
//   - a cell with a combining mark, or written while one of the extras is on,
//     is fed as a key: a rune of Unicode plane 16's private use area that
//     vtCells maps back to the text and extras. Plane 16 text from the run is
//     interned too, so no rune of the run is ever taken for a key or a pad.
//
// Render (screen_render.go) turns keys back into text and SGR.

// vtPad is the right half of a wide character. It is the last rune of the
// reserved range; keys are the ones below it.
const (
	vtKeyFirst rune = 0x100000
	vtPad      rune = 0x10FFFD
	vtKeyCount      = int(vtPad - vtKeyFirst)
)

// vtPadUTF8 is vtPad as the feeder finds it in the normalised stream.
var vtPadUTF8 = string(utf8.AppendRune(nil, vtPad))

func isReserved(r rune) bool { return r >= vtKeyFirst && r <= vtPad }

// vtExtra is what a cell shows beyond vt10x's bits.
type vtExtra struct {
	// attr holds exDim, exHidden, exStrike, exOverline, and in its high four
	// bits the true-colour marks (tc): a cell is drawn for every column, so the
	// key stays small.
	attr uint8
	ul   uint8  // underline style of SGR 4:n when not single (2 double, 3 curly, 4 dotted, 5 dashed)
	ulc  uint32 // SGR 58 underline colour: 0 default, ulcPalette|n, or ulcRGB|rgb
}

// tc marks a foreground (tcFG) or background (tcBG) given as a true colour 0,g,b
// that screen_sgr.go stores with another green (vt10x cannot tell 0,0,b from
// palette b, nor 0,1,b<8 from the foreground encoding of palette b), and that
// green (tcFGGreen, tcBGGreen: 0 or 1): Render draws the colour given, as tmux
// keeps it (Claude Code draws its logo on 48;2;0;0;0).
func (e vtExtra) tc() uint8 { return e.attr >> 4 }

func (e *vtExtra) setTC(tc uint8) { e.attr = e.attr&0x0f | tc<<4 }

const (
	exDim = 1 << iota
	exHidden
	exStrike
	exOverline
)

const (
	ulcRGB     = 1 << 24
	ulcPalette = 1 << 25
)

const (
	tcFG = 1 << iota
	tcFGGreen
	tcBG
	tcBGGreen
)

// vtCellKey is what a key stands for: a character, the marks drawn on it, and
// the extras it was written with.
type vtCellKey struct {
	base  rune
	marks string
	ex    vtExtra
}

// vtCellVal is a key's entry; live marks entries in use when the table is
// collected.
type vtCellVal struct {
	key   vtCellKey
	width int8
	live  bool
}

// vtCells interns cell keys. A stream may make any number of them, so the
// table is bounded: when it is full, the keys on neither screen nor in the
// pending output are freed (collect), and if none is, new cells lose their
// marks and extras rather than grow it.
type vtCells struct {
	ids   map[vtCellKey]rune
	vals  []vtCellVal
	free  []rune
	retry int // cells to turn away before collecting again (screen_text.go)
}

// vtMaxMarks bounds the marks kept on one cell; further ones are dropped.
const vtMaxMarks = 16

// lookup returns what cell rune r shows: itself for a plain rune.
func (t *vtCells) lookup(r rune) (vtCellKey, int) {
	if i := int(r - vtKeyFirst); r >= vtKeyFirst && i < len(t.vals) {
		v := &t.vals[i]
		return v.key, int(v.width)
	}
	return vtCellKey{base: r}, runeWidth(r)
}

// intern returns the key for k, or ok false when the table is full.
func (t *vtCells) intern(k vtCellKey, width int) (rune, bool) {
	if id, ok := t.ids[k]; ok {
		return id, true
	}
	var id rune
	switch {
	case len(t.free) > 0:
		id = t.free[len(t.free)-1]
		t.free = t.free[:len(t.free)-1]
	case len(t.vals) < vtKeyCount:
		id = vtKeyFirst + rune(len(t.vals))
		t.vals = append(t.vals, vtCellVal{})
	default:
		return 0, false
	}
	if t.ids == nil {
		t.ids = make(map[vtCellKey]rune)
	}
	t.ids[k] = id
	t.vals[id-vtKeyFirst] = vtCellVal{key: k, width: int8(width)}
	return id, true
}

func (t *vtCells) full() bool { return len(t.free) == 0 && len(t.vals) >= vtKeyCount }

// mark notes the keys in p, a normalised byte stream.
func (t *vtCells) mark(p []byte) {
	for len(p) > 0 {
		r, n := utf8.DecodeRune(p)
		t.markRune(r)
		p = p[n:]
	}
}

func (t *vtCells) markRune(r rune) {
	if i := int(r - vtKeyFirst); r >= vtKeyFirst && i < len(t.vals) {
		t.vals[i].live = true
	}
}

// sweep frees every key not marked since the last sweep.
func (t *vtCells) sweep() {
	for i := range t.vals {
		v := &t.vals[i]
		if !v.live && v.width > 0 {
			delete(t.ids, v.key)
			*v = vtCellVal{}
			t.free = append(t.free, vtKeyFirst+rune(i))
		}
		v.live = false
	}
}

// collect frees the keys no cell holds any more. It needs every cell that
// could hold one: the output not yet fed and vt10x's current screen, and the
// other screen only when it is blank, which it is while vt10x shows the main
// screen (it clears the alternate screen as it leaves it, and the keys of an
// alternate screen entered later in s.out are in s.out). While vt10x shows the
// alternate screen nothing is freed.
func (s *Screen) collect() {
	if s.term.Mode()&vt10x.ModeAltScreen != 0 {
		return
	}
	s.cells.mark(s.out)
	for _, ht := range s.hist.tapes {
		ht.t.each(s.cells.mark)
	}
	for y := range s.rows {
		for x := range s.cols {
			s.cells.markRune(s.term.Cell(x, y).Char)
		}
	}
	s.cells.sweep()
}

// decGraphics is the DEC special graphics set (VT100 line drawing) for the
// characters 0x60–0x7e, which vt10x applies to the runes it stores while
// "ESC ( 0" is on. A key is not one of those runes, so the wrapper maps a
// cell's character itself before it interns it.
var decGraphics = [...]rune{
	'◆', '▒', '␉', '␌', '␍', '␊', '°', '±', '␤', '␋', '┘', '┐', '┌', '└', '┼', '⎺',
	'⎻', '─', '⎼', '⎽', '├', '┤', '┴', '┬', '│', '≤', '≥', 'π', '≠', '£', '·',
}

func (s *Screen) lineDrawing(r rune) rune {
	if s.scan.gfx && r >= 0x60 && r <= 0x7e {
		return decGraphics[r-0x60]
	}
	return r
}
