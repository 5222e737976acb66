// Package svg writes screens as one self-contained SVG: text as text (small and
// sharp at any zoom), each cell's colours and attributes, wide characters in two
// cells, the cursor. An animation stacks its frames and moves them by one CSS
// keyframes rule; a row that shows the same in several frames is written once and
// used by each. One frame is a still picture.
package svg

import (
	"bufio"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"corral/demo/export/theme"
	"corral/ptyhost/screen/grid"
)

// The geometry in SVG units (pixels): a cell is CellW × CellH, the text FontSize.
const (
	FontSize = 14.0
	CellW    = 8.4 // the advance of most monospace fonts at FontSize (0.6 em)
	CellH    = 16.0
	Pad      = 10.0
)

const fontFamily = `ui-monospace,'SF Mono',Menlo,Consolas,'DejaVu Sans Mono','Liberation Mono',monospace`

// Write writes grids as an SVG: grid k shows from at[k] until at[k+1], the last
// one until end, loop times (0 for ever). One grid is a still picture.
func Write(w io.Writer, t theme.Theme, grids []*grid.Grid, at []time.Duration, end time.Duration, loop int) error {
	e := NewEncoder(w, t, loop)
	for k, g := range grids {
		e.Frame(g, at[k])
	}
	return e.End(end)
}

// Encoder writes frames given one at a time as an SVG (export.Sink): a frame's rows
// are kept as references to the rows defined so far, and the whole is written at
// End. Every frame has the first one's size.
type Encoder struct {
	w      io.Writer
	t      theme.Theme
	loop   int
	enc    *encoder
	frames strings.Builder
	at     []time.Duration
	cols   int
	rows   int
	last   *grid.Grid
}

// NewEncoder returns an encoder writing to w in the colours of t, the animation
// playing loop times (0 for ever).
func NewEncoder(w io.Writer, t theme.Theme, loop int) *Encoder {
	return &Encoder{w: w, t: t, loop: loop, enc: &encoder{t: t, rows: map[string]int{}, colors: map[color.RGBA]int{}}}
}

// Frame adds g, shown from at.
func (e *Encoder) Frame(g *grid.Grid, at time.Duration) error {
	if len(e.at) == 0 {
		e.cols, e.rows = g.Cols, g.Rows
	}
	if e.last != nil {
		e.frame(e.last, len(e.at)-1, true) // written once the next one says it is not the only one
	}
	e.last = g
	e.at = append(e.at, at)
	return nil
}

// frame writes frame k's rows and cursor, at its place in the stack of an animation.
func (e *Encoder) frame(g *grid.Grid, k int, animated bool) {
	fh := float64(e.rows) * CellH
	if animated {
		fmt.Fprintf(&e.frames, `<g transform="translate(0,%s)">`, num(fh*float64(k)))
	}
	for y := range min(g.Rows, e.rows) {
		if id, ok := e.enc.row(g.Row(y)); ok {
			fmt.Fprintf(&e.frames, `<use href="#r%d" y="%s"/>`, id, num(float64(y)*CellH))
		}
	}
	if g.CursorVisible && g.CursorX < g.Cols && g.CursorY < g.Rows {
		e.frames.WriteString(e.enc.cursor(g))
	}
	if animated {
		e.frames.WriteString("</g>\n")
	}
}

// End writes the SVG, the last frame shown until end.
func (e *Encoder) End(end time.Duration) error {
	if len(e.at) == 0 {
		return fmt.Errorf("svg: no frames")
	}
	t, at, n := e.t, e.at, len(e.at)
	e.frame(e.last, n-1, n > 1)
	fw, fh := float64(e.cols)*CellW, float64(e.rows)*CellH
	bw := bufio.NewWriter(e.w)
	W, H := fw+2*Pad, fh+2*Pad
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" xml:space="preserve" width="%s" height="%s" viewBox="0 0 %s %s" font-family="%s" font-size="%s">`+"\n",
		num(W), num(H), num(W), num(H), fontFamily, num(FontSize))
	bw.WriteString("<style>\ntext{white-space:pre;fill:" + theme.Hex(t.FG) + "}.b{font-weight:bold}.i{font-style:italic}" +
		".u{text-decoration:underline}.s{text-decoration:line-through}.us{text-decoration:underline line-through}\n")
	byIndex := make([]color.RGBA, len(e.enc.colors))
	for c, i := range e.enc.colors {
		byIndex[i] = c
	}
	for i, c := range byIndex {
		fmt.Fprintf(bw, ".f%d{fill:%s}", i, theme.Hex(c))
	}
	bw.WriteString("\n")
	if n > 1 {
		iter := "infinite"
		if e.loop > 0 {
			iter = strconv.Itoa(e.loop)
		}
		total := max(end, time.Millisecond)
		fmt.Fprintf(bw, ".a{animation:k %ss steps(1,end) %s forwards}\n@keyframes k{", num(total.Seconds()), iter)
		// Enough decimals for a millisecond of the animation: three for one of up to
		// 100 s, more for a longer one (a long pause), or its frames' times merge.
		prec := 3
		for unit := 100 * float64(time.Millisecond) / float64(total); unit < math.Pow(10, -float64(prec)) && prec < 9; {
			prec++
		}
		for k := range n {
			pct := 100 * float64(at[k]) / float64(total)
			fmt.Fprintf(bw, "%s%%{transform:translateY(%spx)}", percent(pct, prec), num(-fh*float64(k)))
		}
		fmt.Fprintf(bw, "100%%{transform:translateY(%spx)}}\n", num(-fh*float64(n-1)))
	}
	bw.WriteString("</style>\n<defs>\n")
	bw.WriteString(e.enc.defs.String())
	bw.WriteString("</defs>\n")
	fmt.Fprintf(bw, `<rect width="100%%" height="100%%" rx="6" fill="%s"/>`+"\n", theme.Hex(t.BG))
	fmt.Fprintf(bw, `<svg x="%s" y="%s" width="%s" height="%s">`+"\n", num(Pad), num(Pad), num(fw), num(fh))
	if n > 1 {
		bw.WriteString(`<g class="a">` + "\n")
	}
	bw.WriteString(e.frames.String())
	if n > 1 {
		bw.WriteString("</g>")
	}
	bw.WriteString("</svg>\n</svg>\n")
	return bw.Flush()
}

type encoder struct {
	t      theme.Theme
	rows   map[string]int // a row's SVG: its id
	colors map[color.RGBA]int
	defs   strings.Builder
}

// row returns the id of row's definition, written the first time, and false for a
// row with nothing to draw.
func (e *encoder) row(cells []grid.Cell) (int, bool) {
	body := e.rowSVG(cells, 0)
	if body == "" {
		return 0, false
	}
	id, ok := e.rows[body]
	if !ok {
		id = len(e.rows)
		e.rows[body] = id
		fmt.Fprintf(&e.defs, `<g id="r%d">%s</g>`+"\n", id, body)
	}
	return id, true
}

// rowSVG draws cells at y: rectangles for backgrounds other than the theme's, then
// one text element with a tspan per run of equal style (a wide character in one of
// its own, for it to sit in its two cells whatever the font's width of it).
func (e *encoder) rowSVG(cells []grid.Cell, y float64) string {
	var rects, text strings.Builder
	for x := 0; x < len(cells); {
		c := cells[x]
		_, bg := e.t.Colors(c.Style)
		n := 1
		for x+n < len(cells) {
			_, b2 := e.t.Colors(cells[x+n].Style)
			if b2 != bg {
				break
			}
			n++
		}
		if bg != e.t.BG {
			fmt.Fprintf(&rects, `<rect x="%s" y="%s" width="%s" height="%s" class="f%d"/>`, num(float64(x)*CellW), num(y), num(float64(n)*CellW), num(CellH), e.color(bg))
		}
		x += n
	}
	for x := 0; x < len(cells); {
		st := cells[x].Style
		w := 1
		if cells[x].Width != 2 {
			for x+w < len(cells) && cells[x+w].Style == st && cells[x+w].Width == 1 {
				w++
			}
		} else if x+1 < len(cells) && cells[x+1].Width == 0 {
			w = 2
		}
		if cells[x].Width != 0 {
			e.run(&text, st, cells[x:x+w], x, y)
		}
		x += w
	}
	if text.Len() == 0 {
		return rects.String()
	}
	return fmt.Sprintf(`%s<text y="%s">%s</text>`, rects.String(), num(y+CellH*0.78), text.String())
}

// run writes a tspan for cells at column x of style st, its blanks at either end
// left out unless a line is drawn through them.
func (e *encoder) run(b *strings.Builder, st grid.Style, cells []grid.Cell, x int, y float64) {
	if st.Attr&(grid.Underline|grid.Strike) == 0 {
		for len(cells) > 0 && cells[0].Text == " " {
			cells, x = cells[1:], x+1
		}
		for len(cells) > 0 && cells[len(cells)-1].Text == " " {
			cells = cells[:len(cells)-1]
		}
	}
	if len(cells) == 0 || st.Attr&grid.Hidden != 0 {
		return
	}
	var text strings.Builder
	for _, c := range cells {
		text.WriteString(c.Text)
	}
	fg, _ := e.t.Colors(st)
	var class []string
	if fg != e.t.FG {
		class = append(class, "f"+strconv.Itoa(e.color(fg)))
	}
	if st.Attr&grid.Bold != 0 {
		class = append(class, "b")
	}
	if st.Attr&grid.Italic != 0 {
		class = append(class, "i")
	}
	switch st.Attr & (grid.Underline | grid.Strike) {
	case grid.Underline:
		class = append(class, "u")
	case grid.Strike:
		class = append(class, "s")
	case grid.Underline | grid.Strike:
		class = append(class, "us")
	}
	fmt.Fprintf(b, `<tspan x="%s"`, num(float64(x)*CellW))
	if len(class) > 0 {
		fmt.Fprintf(b, ` class="%s"`, strings.Join(class, " "))
	}
	if len(cells) > 1 { // the font's advance stretched or squeezed to the cells
		fmt.Fprintf(b, ` textLength="%s" lengthAdjust="spacingAndGlyphs"`, num(float64(len(cells))*CellW))
	}
	b.WriteString(">")
	escape(b, text.String())
	b.WriteString("</tspan>")
}

// cursor draws the cursor over its cell: a block of the theme's cursor colour with
// the cell's character on it in the cell's background.
func (e *encoder) cursor(g *grid.Grid) string {
	x, y := g.CursorX, g.CursorY
	c := g.At(x, y)
	if c.Width == 0 && x > 0 {
		x--
		c = g.At(x, y)
	}
	w := max(1, c.Width)
	_, bg := e.t.Colors(c.Style)
	var b strings.Builder
	fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" class="f%d"/>`, num(float64(x)*CellW), num(float64(y)*CellH),
		num(float64(w)*CellW), num(CellH), e.color(e.t.Cursor))
	if strings.TrimSpace(c.Text) != "" {
		fmt.Fprintf(&b, `<text y="%s"><tspan x="%s" class="f%d">`, num(float64(y)*CellH+CellH*0.78), num(float64(x)*CellW), e.color(bg))
		escape(&b, c.Text)
		b.WriteString("</tspan></text>")
	}
	return b.String()
}

func (e *encoder) color(c color.RGBA) int {
	i, ok := e.colors[c]
	if !ok {
		i = len(e.colors)
		e.colors[c] = i
	}
	return i
}

func escape(b *strings.Builder, s string) {
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		default:
			if r < 0x20 || r == 0x7f || r == 0xfffe || r == 0xffff {
				b.WriteByte(' ') // not allowed in XML
				continue
			}
			b.WriteRune(r)
		}
	}
}

// num formats a length: at most two decimals, no trailing zeros.
func num(v float64) string {
	return strconv.FormatFloat(float64(int64(v*100+0.5*sign(v)))/100, 'f', -1, 64)
}

// percent formats a percentage to prec decimals, no trailing zeros.
func percent(v float64, prec int) string {
	scale := math.Pow(10, float64(prec))
	return strconv.FormatFloat(math.Round(v*scale)/scale, 'f', -1, 64)
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}
