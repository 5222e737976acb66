package screen

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The fidelity test (issue 10 item 5) compares cells, not bytes: tmux and
// Render may spell the same screen with different SGR sequences, so both are
// parsed into a grid of fcells by the same reader.

// Attribute bits of an fcell.
const (
	fBold = 1 << iota
	fDim
	fItalic
	fUnderline
	fBlink
	fReverse
	fHidden
	fStrike
	fOverline
)

var fAttrNames = [...]string{"bold", "dim", "italic", "underline", "blink", "reverse", "hidden", "strike", "overline"}

// fcell is one column of a captured screen. The right half of a wide
// character is a cell with cont set and no text.
type fcell struct {
	text   string // base character and the zero-width characters after it
	cont   bool
	pad    bool // past the end of the captured line (see parseCells)
	attr   int
	ulKind int    // underline style of SGR 4:n (1 single … 5 dashed)
	fg, bg string // "" default, "p<n>" palette index, "#rrggbb" truecolour
	ul     string // underline colour (SGR 58), spelled like fg
}

func (c fcell) String() string {
	var b strings.Builder
	switch {
	case c.cont:
		b.WriteString("(right half)")
	default:
		fmt.Fprintf(&b, "%+q", c.text)
	}
	for i, n := range fAttrNames {
		if c.attr&(1<<i) != 0 {
			b.WriteString(" " + n)
		}
	}
	if c.ulKind > 1 {
		fmt.Fprintf(&b, ":%d", c.ulKind)
	}
	if c.fg != "" {
		b.WriteString(" fg=" + c.fg)
	}
	if c.bg != "" {
		b.WriteString(" bg=" + c.bg)
	}
	if c.ul != "" {
		b.WriteString(" ul=" + c.ul)
	}
	return b.String()
}

// visible returns c as it looks: on a blank, only what draws on empty space
// (background, reverse with its foreground, underline, strikethrough, overline)
// counts.
func (c fcell) visible() fcell {
	if c.attr&fUnderline == 0 {
		c.ul = "" // an underline colour shows only on an underline
	}
	if c.cont || (c.text != " " && c.text != "") {
		return c
	}
	v := fcell{text: " ", bg: c.bg, attr: c.attr & (fReverse | fUnderline | fStrike | fOverline)}
	if v.attr&fUnderline != 0 {
		v.ulKind, v.ul = c.ulKind, c.ul
	}
	if v.attr&fReverse != 0 {
		v.fg = c.fg
	}
	return v
}

// decCapture is the DEC special graphics set that tmux's capture selects
// with SO (its captures keep ACS as SO/SI and ASCII).
var decCapture = map[rune]rune{
	'`': '◆', 'a': '▒', 'f': '°', 'g': '±', 'j': '┘', 'k': '┐', 'l': '┌', 'm': '└',
	'n': '┼', 'o': '⎺', 'p': '⎻', 'q': '─', 'r': '⎼', 's': '⎽', 't': '├', 'u': '┤',
	'v': '┴', 'w': '┬', 'x': '│', 'y': '≤', 'z': '≥', '{': 'π', '|': '≠', '}': '£', '~': '·',
}

// parseCells reads a capture (lines of text with SGR sequences and SO/SI) into
// rows×cols cells; missing cells are default blanks marked pad. tmux's
// capture-pane stops at the last cell written on a line: cells that ED/EL
// cleared to a background colour past it are not in the capture (grid.c keeps
// them outside the line's used length), so a pad cell says only "blank".
func parseCells(capture string, cols, rows int) ([][]fcell, error) {
	p := cellParser{}
	lines := strings.Split(strings.TrimSuffix(capture, "\n"), "\n")
	if len(lines) > rows {
		return nil, fmt.Errorf("capture has %d lines, screen %d", len(lines), rows)
	}
	grid := make([][]fcell, rows)
	for y := range grid {
		if y < len(lines) {
			row, err := p.line(lines[y], cols)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", y+1, err)
			}
			grid[y] = row
		}
		for len(grid[y]) < cols {
			grid[y] = append(grid[y], fcell{text: " ", pad: true})
		}
	}
	return grid, nil
}

// cellParser keeps the pen across lines, as tmux's capture does.
type cellParser struct {
	pen fcell
	acs bool
}

func (p *cellParser) line(s string, cols int) ([]fcell, error) {
	var row []fcell
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
		if d, ok := decCapture[r]; ok && p.acs {
			r = d
		}
		w := runeWidth(r)
		if w == 0 && len(row) > 0 {
			last := len(row) - 1
			for last > 0 && row[last].cont {
				last--
			}
			row[last].text += string(r)
			continue
		}
		c := p.pen
		c.text = string(r)
		row = append(row, c)
		if w == 2 {
			c.text, c.cont = "", true
			row = append(row, c)
		}
	}
	if len(row) > cols {
		return nil, fmt.Errorf("%d cells, screen %d", len(row), cols)
	}
	return row, nil
}

// escape applies the CSI … m at the start of s and returns its length.
func (p *cellParser) escape(s string) (int, error) {
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
func (p *cellParser) sgr(params string) {
	fields := strings.Split(params, ";")
	for i := 0; i < len(fields); i++ {
		sub := strings.Split(fields[i], ":")
		n, _ := strconv.Atoi(sub[0])
		switch {
		case n == 0:
			p.pen = fcell{}
		case n == 4 && len(sub) > 1:
			k, _ := strconv.Atoi(sub[1])
			p.setUnderline(k)
		case n == 4:
			p.setUnderline(1)
		case n == 53 || n == 5 && len(sub) == 2 && sub[1] == "3":
			// tmux 3.3a's capture writes an attribute code above 9 as "tens:units"
			// (grid_string_cells_code), so overline comes out as 5:3.
			p.pen.attr |= fOverline
		case n == 55:
			p.pen.attr &^= fOverline
		case n >= 1 && n <= 9:
			p.pen.attr |= sgrBit(n)
		case n == 21:
			p.setUnderline(2)
		case n == 22:
			p.pen.attr &^= fBold | fDim
		case n >= 23 && n <= 29:
			p.pen.attr &^= sgrBit(n - 20)
			if n == 24 {
				p.pen.ulKind = 0
			}
		case n >= 30 && n <= 37:
			p.pen.fg = "p" + strconv.Itoa(n-30)
		case n >= 40 && n <= 47:
			p.pen.bg = "p" + strconv.Itoa(n-40)
		case n >= 90 && n <= 97:
			p.pen.fg = "p" + strconv.Itoa(n-90+8)
		case n >= 100 && n <= 107:
			p.pen.bg = "p" + strconv.Itoa(n-100+8)
		case n == 39:
			p.pen.fg = ""
		case n == 59:
			p.pen.ul = ""
		case n == 49:
			p.pen.bg = ""
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
				p.pen.fg = c
			case 48:
				p.pen.bg = c
			default:
				p.pen.ul = c
			}
		}
	}
}

func (p *cellParser) setUnderline(kind int) {
	if kind == 0 {
		p.pen.attr &^= fUnderline
		p.pen.ulKind = 0
		return
	}
	p.pen.attr |= fUnderline
	p.pen.ulKind = kind
}

// sgrBit maps SGR 1…9 to an attribute bit (4 is handled by setUnderline).
func sgrBit(n int) int {
	return [...]int{1: fBold, 2: fDim, 3: fItalic, 4: fUnderline, 5: fBlink, 6: fBlink, 7: fReverse, 8: fHidden, 9: fStrike}[n]
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
