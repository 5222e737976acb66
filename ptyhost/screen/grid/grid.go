// Package grid reads a rendered screen back into cells: Screen.Render's lines (or a
// server's capture of them, corral screen -e) as a grid of characters, each with its
// colours and attributes, for what draws a screen outside a terminal (pictures of a
// pane, exported recordings). It reads the SGR subset Render writes, one absolute
// sequence per run of equal cells, and takes every other escape as nothing.
package grid

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"corral/ptyhost/screen"
)

// ColorKind says what a Color holds.
type ColorKind uint8

const (
	Default ColorKind = iota // the terminal's own foreground or background
	Indexed                  // a palette index, 0–255
	RGB                      // a true colour
)

// Color is a cell's foreground or background as the program set it.
type Color struct {
	Kind    ColorKind
	Index   uint8 // Indexed
	R, G, B uint8 // RGB
}

// Attr is a set of attribute bits.
type Attr uint16

const (
	Bold Attr = 1 << iota
	Dim
	Italic
	Underline
	Blink
	Reverse // the colours are to be swapped when drawn
	Hidden
	Strike
	Overline
)

// Style is how a cell is drawn.
type Style struct {
	FG, BG Color
	Attr   Attr
}

// Cell is one column of a row. A wide character is a cell of Width 2 followed by one
// of Width 0 (its right half, with the same style and no text).
type Cell struct {
	Text  string // the character and its combining marks; " " for a blank
	Width int
	Style Style
}

// Grid is a screen's cells, Rows rows of Cols cells, and its cursor.
type Grid struct {
	Cols, Rows    int
	Cells         []Cell // row-major
	CursorX       int
	CursorY       int
	CursorVisible bool
}

// At returns the cell at column x of row y.
func (g *Grid) At(x, y int) *Cell { return &g.Cells[y*g.Cols+x] }

// Row returns row y's cells.
func (g *Grid) Row(y int) []Cell { return g.Cells[y*g.Cols : (y+1)*g.Cols] }

// New returns a blank grid of cols×rows.
func New(cols, rows int) *Grid {
	g := &Grid{Cols: cols, Rows: rows, Cells: make([]Cell, cols*rows)}
	for i := range g.Cells {
		g.Cells[i] = Cell{Text: " ", Width: 1}
	}
	return g
}

// FromScreen reads a screen as it is now: its cells (Render) and its cursor.
func FromScreen(s screen.View) *Grid {
	cols, rows := s.Size()
	st := s.State()
	return Parse(strings.Split(s.Render(), "\n"), cols, rows, st.CursorX, st.CursorY, st.CursorVisible)
}

// Parse reads rendered lines into a grid of cols×rows: a line shorter than the grid
// is padded with blanks, what lies beyond it is cut off.
func Parse(lines []string, cols, rows, cursorX, cursorY int, cursorVisible bool) *Grid {
	g := New(cols, rows)
	g.CursorX, g.CursorY, g.CursorVisible = cursorX, cursorY, cursorVisible
	for y := 0; y < rows && y < len(lines); y++ {
		parseLine(g.Row(y), lines[y])
	}
	return g
}

// parseLine fills row with line's cells.
func parseLine(row []Cell, line string) {
	var st Style
	x := 0
	for i := 0; i < len(line); {
		if line[i] == 0x1b {
			i = escape(line, i, &st)
			continue
		}
		r, n := utf8.DecodeRuneInString(line[i:])
		i += n
		w := screen.RuneWidth(r)
		switch {
		case w <= 0 && x > 0: // a combining mark: on the cell before
			prev := x - 1
			if row[prev].Width == 0 && prev > 0 {
				prev--
			}
			row[prev].Text += string(r)
			continue
		case w <= 0:
			continue
		case x >= len(row):
			return
		case w == 2 && x+1 >= len(row):
			row[x] = Cell{Text: " ", Width: 1, Style: st}
			return
		}
		row[x] = Cell{Text: string(r), Width: w, Style: st}
		if w == 2 {
			row[x+1] = Cell{Width: 0, Style: st}
		}
		x += w
	}
}

// escape reads the escape sequence at line[i], applies an SGR to st, and returns
// where the text goes on.
func escape(line string, i int, st *Style) int {
	if i+1 >= len(line) || line[i+1] != '[' {
		return i + min(2, len(line)-i)
	}
	j := i + 2
	for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
		j++
	}
	if j >= len(line) {
		return len(line)
	}
	if line[j] == 'm' {
		sgr(line[i+2:j], st)
	}
	return j + 1
}

// sgr applies one SGR's parameters to st.
func sgr(params string, st *Style) {
	ps := strings.Split(params, ";")
	for k := 0; k < len(ps); k++ {
		p := ps[k]
		sub := strings.Split(p, ":")
		n, _ := strconv.Atoi(sub[0])
		switch {
		case n == 0:
			*st = Style{}
		case n == 1:
			st.Attr |= Bold
		case n == 2:
			st.Attr |= Dim
		case n == 3:
			st.Attr |= Italic
		case n == 4:
			if len(sub) > 1 && sub[1] == "0" {
				st.Attr &^= Underline
			} else {
				st.Attr |= Underline
			}
		case n == 5:
			st.Attr |= Blink
		case n == 7:
			st.Attr |= Reverse
		case n == 8:
			st.Attr |= Hidden
		case n == 9:
			st.Attr |= Strike
		case n == 53:
			st.Attr |= Overline
		case n >= 30 && n <= 37:
			st.FG = Color{Kind: Indexed, Index: uint8(n - 30)}
		case n >= 90 && n <= 97:
			st.FG = Color{Kind: Indexed, Index: uint8(n - 90 + 8)}
		case n >= 40 && n <= 47:
			st.BG = Color{Kind: Indexed, Index: uint8(n - 40)}
		case n >= 100 && n <= 107:
			st.BG = Color{Kind: Indexed, Index: uint8(n - 100 + 8)}
		case n == 39:
			st.FG = Color{}
		case n == 49:
			st.BG = Color{}
		case n == 38 || n == 48 || n == 58:
			var c Color
			if len(sub) > 1 { // the colon form: 58:5:N, 58:2::R:G:B
				c = extended(sub[1:])
			} else {
				var used int
				c, used = extendedSemi(ps[k+1:])
				k += used
			}
			switch n {
			case 38:
				st.FG = c
			case 48:
				st.BG = c
			}
		}
	}
}

// extended reads a colour's colon-separated parameters after 38/48/58.
func extended(p []string) Color {
	num := func(i int) uint8 {
		if i >= len(p) {
			return 0
		}
		v, _ := strconv.Atoi(p[i])
		return uint8(v)
	}
	switch {
	case len(p) >= 2 && p[0] == "5":
		return Color{Kind: Indexed, Index: num(1)}
	case len(p) >= 5 && p[0] == "2": // with the colour space id
		return Color{Kind: RGB, R: num(2), G: num(3), B: num(4)}
	case len(p) >= 4 && p[0] == "2":
		return Color{Kind: RGB, R: num(1), G: num(2), B: num(3)}
	}
	return Color{}
}

// extendedSemi reads a colour's semicolon-separated parameters after 38/48 and says
// how many it used.
func extendedSemi(p []string) (Color, int) {
	num := func(i int) uint8 {
		v, _ := strconv.Atoi(p[i])
		return uint8(v)
	}
	switch {
	case len(p) >= 2 && p[0] == "5":
		return Color{Kind: Indexed, Index: num(1)}, 2
	case len(p) >= 4 && p[0] == "2":
		return Color{Kind: RGB, R: num(1), G: num(2), B: num(3)}, 4
	}
	return Color{}, len(p)
}

// Equal reports whether two grids show the same thing.
func (g *Grid) Equal(o *Grid) bool {
	if g.Cols != o.Cols || g.Rows != o.Rows || g.CursorVisible != o.CursorVisible ||
		g.CursorVisible && (g.CursorX != o.CursorX || g.CursorY != o.CursorY) {
		return false
	}
	for i := range g.Cells {
		if g.Cells[i] != o.Cells[i] {
			return false
		}
	}
	return true
}

// Crop returns the grid cut or padded to cols×rows from its top left corner.
func (g *Grid) Crop(cols, rows int) *Grid {
	if cols == g.Cols && rows == g.Rows {
		return g
	}
	n := New(cols, rows)
	n.CursorX, n.CursorY = g.CursorX, g.CursorY
	n.CursorVisible = g.CursorVisible && g.CursorX < cols && g.CursorY < rows
	for y := 0; y < min(rows, g.Rows); y++ {
		w := min(cols, g.Cols)
		copy(n.Row(y)[:w], g.Row(y)[:w])
		if last := n.Row(y)[w-1]; last.Width == 2 && w < g.Cols && w == cols {
			n.Row(y)[w-1] = Cell{Text: " ", Width: 1, Style: last.Style}
		}
	}
	return n
}
