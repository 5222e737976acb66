package screen

import (
	"bufio"
	"io"
	"strings"

	"github.com/hinshun/vt10x"
)

// lazyTerm is the emulator of a screen, brought up by the first write that reaches
// it. vt10x allocates both of its cell grids, all rows, as it is made (about 160 KB at
// 120×40), so a run that never printed — an idle shell's `sleep`, a daemon, a thousand
// of them — would pay that for nothing. Until then it answers as a fresh vt10x of its
// size does: blank cells, the cursor home and visible, the default modes; a resize
// only changes the size (a fresh vt10x of the new size has the default tab stops too).
type lazyTerm struct {
	t          vt10x.Terminal // nil while nothing was written
	cols, rows int
	w          io.Writer
	// The rows written since Render last drew them (screen_dirty.go): all of them, or
	// those dirty marks; open, that the writes may have left vt10x's parser inside a
	// sequence.
	all   bool
	dirty []bool
	open  bool
}

// blankTerm is a fresh vt10x, read only: what a blank lazyTerm answers with.
var blankTerm = vt10x.New(vt10x.WithSize(1, 1))

func newLazyTerm(cols, rows int, w io.Writer) *lazyTerm {
	return &lazyTerm{cols: cols, rows: rows, w: w, all: true}
}

// live reports whether the emulator was brought up.
func (l *lazyTerm) live() bool { return l.t != nil }

func (l *lazyTerm) up() vt10x.Terminal {
	if l.t == nil {
		l.t = vt10x.New(vt10x.WithSize(l.cols, l.rows), vt10x.WithWriter(l.w))
	}
	return l.t
}

func (l *lazyTerm) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	t := l.up()
	l.noteWrite(p)
	return t.Write(p)
}

func (l *lazyTerm) Parse(bf *bufio.Reader) error {
	l.all, l.open = true, true // what it read is unknown
	return l.up().Parse(bf)
}

func (l *lazyTerm) Size() (cols, rows int) {
	if l.t == nil {
		return l.cols, l.rows
	}
	return l.t.Size()
}

func (l *lazyTerm) Resize(cols, rows int) {
	l.all = true
	if l.t == nil {
		l.cols, l.rows = cols, rows
		return
	}
	l.t.Resize(cols, rows)
}

func (l *lazyTerm) Mode() vt10x.ModeFlag {
	if l.t == nil {
		return blankTerm.Mode()
	}
	return l.t.Mode()
}

func (l *lazyTerm) Title() string {
	if l.t == nil {
		return ""
	}
	return l.t.Title()
}

func (l *lazyTerm) Cell(x, y int) vt10x.Glyph {
	if l.t == nil {
		return blankTerm.Cell(0, 0)
	}
	return l.t.Cell(x, y)
}

func (l *lazyTerm) Cursor() vt10x.Cursor {
	if l.t == nil {
		return blankTerm.Cursor()
	}
	return l.t.Cursor()
}

func (l *lazyTerm) CursorVisible() bool {
	if l.t == nil {
		return blankTerm.CursorVisible()
	}
	return l.t.CursorVisible()
}

func (l *lazyTerm) Lock() {
	if l.t != nil {
		l.t.Lock()
	}
}

func (l *lazyTerm) Unlock() {
	if l.t != nil {
		l.t.Unlock()
	}
}

func (l *lazyTerm) String() string {
	if l.t == nil {
		return strings.Repeat(strings.Repeat(" ", l.cols)+"\n", l.rows)
	}
	return l.t.String()
}

// Changed is vt10x's change flag (vtChanges); a blank emulator changed nothing.
func (l *lazyTerm) Changed(f vt10x.ChangeFlag) bool {
	if l.t == nil {
		return false
	}
	c, ok := l.t.(vtChanges)
	return !ok || c.Changed(f)
}
