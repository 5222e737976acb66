// Package tmuxcap reads a terminal capture into cells for tests that compare screens
// cell by cell: tmux's `capture-pane -p -e` (lines of text with SGR sequences, the DEC
// line-drawing set as SO … SI), or Screen.Render, which writes the same form. Two
// captures may spell the same screen with different SGR sequences; read by the same
// reader, equal screens give equal cells. Characters are placed by screen.RuneWidth, as
// the Screen and tmux 3.3a place them.
package tmuxcap

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"corral/ptyhost/screen"
)

// Attr is a cell's attribute bits.
type Attr uint16

// The attributes of SGR 1…9 (6, rapid blink, is Blink) and 53.
const (
	Bold Attr = 1 << iota
	Dim
	Italic
	Underline
	Blink
	Reverse
	Hidden
	Strike
	Overline
)

var attrNames = [...]string{"bold", "dim", "italic", "underline", "blink", "reverse", "hidden", "strike", "overline"}

// Pen is how a cell is drawn.
type Pen struct {
	Attr   Attr
	UlKind int    // underline style of SGR 4:n (1 single … 5 dashed)
	FG, BG string // "" default, "p<n>" palette index, "#rrggbb" truecolour
	UL     string // underline colour (SGR 58), spelled like FG
}

// Cell is one column of a captured screen.
type Cell struct {
	Text string // the character and the zero-width ones after it; "" for Cont
	Cont bool   // the right half of a wide character
	Pad  bool   // past the end of its captured line (see Parse)
	Pen
}

func (c Cell) String() string {
	var b strings.Builder
	if c.Cont {
		b.WriteString("(right half)")
	} else {
		fmt.Fprintf(&b, "%+q", c.Text)
	}
	for i, n := range attrNames {
		if c.Attr&(1<<i) != 0 {
			b.WriteString(" " + n)
		}
	}
	if c.UlKind > 1 {
		fmt.Fprintf(&b, ":%d", c.UlKind)
	}
	for _, f := range [...]struct{ name, v string }{{"fg", c.FG}, {"bg", c.BG}, {"ul", c.UL}} {
		if f.v != "" {
			b.WriteString(" " + f.name + "=" + f.v)
		}
	}
	return b.String()
}

// Visible returns c as it looks: an underline's style and colour only on an
// underline, and on a blank only what draws on empty space (the background, reverse
// with its foreground, underline, strikethrough, overline).
func (c Cell) Visible() Cell {
	if c.Attr&Underline == 0 {
		c.UlKind, c.UL = 0, ""
	}
	if c.Cont || c.Text != " " {
		return c
	}
	v := Cell{Text: " ", Pen: Pen{BG: c.BG, Attr: c.Attr & (Reverse | Underline | Strike | Overline)}}
	if v.Attr&Underline != 0 {
		v.UlKind, v.UL = c.UlKind, c.UL
	}
	if v.Attr&Reverse != 0 {
		v.FG = c.FG
	}
	return v
}

// Same reports whether got looks like want: compared Visible, and by their text
// alone where want is Pad (blanks past a line's last written cell, which tmux leaves
// out of its capture even when an erase gave them a background).
func Same(got, want Cell) bool {
	g, w := got.Visible(), want.Visible()
	if want.Pad {
		g, w = Cell{Text: g.Text, Cont: g.Cont}, Cell{Text: w.Text}
	}
	return g == w
}

// Text is a row's characters.
func Text(row []Cell) string {
	var b strings.Builder
	for _, c := range row {
		b.WriteString(c.Text)
	}
	return b.String()
}

// Parse reads a capture into rows rows of at least cols cells each: a line shorter
// than cols is padded with blanks marked Pad (tmux's capture ends a line at its last
// written cell, and blanks an erase gave a background colour past it are left out
// too, so a Pad cell says only "blank"); a longer one is kept whole, for the caller
// to judge. The pen carries over from line to line, as in tmux's capture. More lines
// than rows, or an escape sequence other than SGR, is an error.
func Parse(capture string, cols, rows int) ([][]Cell, error) {
	var p parser
	lines := strings.Split(strings.TrimSuffix(capture, "\n"), "\n")
	if len(lines) > rows {
		return nil, fmt.Errorf("capture has %d lines, screen %d", len(lines), rows)
	}
	grid := make([][]Cell, rows)
	for y := range grid {
		if y < len(lines) {
			row, err := p.line(lines[y])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", y+1, err)
			}
			grid[y] = row
		}
		for len(grid[y]) < cols {
			grid[y] = append(grid[y], Cell{Text: " ", Pad: true})
		}
	}
	return grid, nil
}

// decGraphics is the DEC special graphics set that tmux's capture selects with SO.
var decGraphics = map[rune]rune{
	'`': '◆', 'a': '▒', 'f': '°', 'g': '±', 'j': '┘', 'k': '┐', 'l': '┌', 'm': '└',
	'n': '┼', 'o': '⎺', 'p': '⎻', 'q': '─', 'r': '⎼', 's': '⎽', 't': '├', 'u': '┤',
	'v': '┴', 'w': '┬', 'x': '│', 'y': '≤', 'z': '≥', '{': 'π', '|': '≠', '}': '£', '~': '·',
}

// parser keeps the pen and the character set across lines.
type parser struct {
	pen Pen
	acs bool // SO: the DEC line-drawing set
}

func (p *parser) line(s string) ([]Cell, error) {
	var row []Cell
	for i := 0; i < len(s); {
		switch s[i] {
		case 0x1b:
			n, err := p.escape(s[i:])
			if err != nil {
				return nil, err
			}
			i += n
			continue
		case 0x0e, 0x0f:
			p.acs = s[i] == 0x0e
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if d, ok := decGraphics[r]; ok && p.acs {
			r = d
		}
		w := screen.RuneWidth(r)
		if k := lastBase(row); w == 0 && k >= 0 {
			row[k].Text += string(r)
			continue
		}
		switch w {
		case 2:
			row = append(row, Cell{Text: string(r), Pen: p.pen}, Cell{Cont: true, Pen: p.pen})
		default:
			row = append(row, Cell{Text: string(r), Pen: p.pen})
		}
	}
	return row, nil
}

// lastBase is the index of the last cell that is not a right half, or -1.
func lastBase(row []Cell) int {
	k := len(row) - 1
	for k >= 0 && row[k].Cont {
		k--
	}
	return k
}

// escape applies the CSI … m at the start of s and returns its length.
func (p *parser) escape(s string) (int, error) {
	if len(s) < 2 || s[1] != '[' {
		return 0, fmt.Errorf("escape %q is not a CSI", s[:min(len(s), 8)])
	}
	end := strings.IndexFunc(s[2:], func(r rune) bool { return r >= 0x40 && r <= 0x7e })
	if end < 0 || s[2+end] != 'm' {
		return 0, fmt.Errorf("escape %q is not an SGR", s[:min(len(s), 12)])
	}
	p.sgr(s[2 : 2+end])
	return 3 + end, nil
}

// sgr applies one SGR's parameters, both the semicolon and the colon forms.
func (p *parser) sgr(params string) {
	fields := strings.Split(params, ";")
	for i := 0; i < len(fields); i++ {
		sub := strings.Split(fields[i], ":")
		n, _ := strconv.Atoi(sub[0])
		switch {
		case n == 0:
			p.pen = Pen{}
		case n == 4 && len(sub) > 1:
			k, _ := strconv.Atoi(sub[1])
			p.setUnderline(k)
		case n == 4:
			p.setUnderline(1)
		case n == 53 || n == 5 && len(sub) == 2 && sub[1] == "3":
			// tmux 3.3a's capture writes an attribute code above 9 as "tens:units"
			// (grid_string_cells_code), so overline comes out as 5:3.
			p.pen.Attr |= Overline
		case n == 55:
			p.pen.Attr &^= Overline
		case n >= 1 && n <= 9:
			p.pen.Attr |= sgrBit(n)
		case n == 21:
			p.setUnderline(2)
		case n == 22:
			p.pen.Attr &^= Bold | Dim
		case n >= 23 && n <= 29:
			p.pen.Attr &^= sgrBit(n - 20)
			if n == 24 {
				p.pen.UlKind = 0
			}
		case n >= 30 && n <= 37:
			p.pen.FG = "p" + strconv.Itoa(n-30)
		case n >= 40 && n <= 47:
			p.pen.BG = "p" + strconv.Itoa(n-40)
		case n >= 90 && n <= 97:
			p.pen.FG = "p" + strconv.Itoa(n-90+8)
		case n >= 100 && n <= 107:
			p.pen.BG = "p" + strconv.Itoa(n-100+8)
		case n == 39:
			p.pen.FG = ""
		case n == 49:
			p.pen.BG = ""
		case n == 59:
			p.pen.UL = ""
		case n == 38 || n == 48 || n == 58:
			var c string
			if len(sub) > 1 {
				c = extColor(sub[1:])
			} else {
				var used int
				c, used = extColorSemi(fields[i+1:])
				i += used
			}
			switch n {
			case 38:
				p.pen.FG = c
			case 48:
				p.pen.BG = c
			default:
				p.pen.UL = c
			}
		}
	}
}

func (p *parser) setUnderline(kind int) {
	if kind == 0 {
		p.pen.Attr &^= Underline
		p.pen.UlKind = 0
		return
	}
	p.pen.Attr |= Underline
	p.pen.UlKind = kind
}

// sgrBit maps SGR 1…9 to an attribute bit (4 is handled by setUnderline).
func sgrBit(n int) Attr {
	return [...]Attr{1: Bold, 2: Dim, 3: Italic, 4: Underline, 5: Blink, 6: Blink, 7: Reverse, 8: Hidden, 9: Strike}[n]
}

// extColor reads the colon form's arguments: 5:n or 2:[cs]:r:g:b.
func extColor(a []string) string {
	num := func(i int) int {
		if i < len(a) {
			n, _ := strconv.Atoi(a[i])
			return n
		}
		return 0
	}
	switch {
	case num(0) == 5:
		return "p" + strconv.Itoa(num(1))
	case num(0) == 2 && len(a) >= 5:
		return fmt.Sprintf("#%02x%02x%02x", num(2), num(3), num(4))
	case num(0) == 2:
		return fmt.Sprintf("#%02x%02x%02x", num(1), num(2), num(3))
	}
	return ""
}

// extColorSemi reads 5;n or 2;r;g;b and returns how many fields it used.
func extColorSemi(a []string) (string, int) {
	if len(a) >= 2 && a[0] == "5" {
		return extColor(a[:2]), 2
	}
	if len(a) >= 4 && a[0] == "2" {
		return extColor(a[:4]), 4
	}
	return "", len(a)
}
