package raster

import (
	"image"
	"image/color"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/unicode/norm"

	"corral/demo/export/theme"
	"corral/ptyhost/screen/grid"
)

// Pad is the margin around the cells, in pixels, drawn in the background colour.
const Pad = 8

// Painter draws grids with one theme and one font.
type Painter struct {
	theme        theme.Theme
	fonts        *Fonts
	CellW, CellH int
	ascent       int
	masks        map[maskKey]*image.Alpha
}

type maskKey struct {
	text        string
	face, width int
}

// New returns a painter of t's colours and fonts' glyphs.
func New(t theme.Theme, fonts *Fonts) *Painter {
	p := &Painter{theme: t, fonts: fonts, masks: map[maskKey]*image.Alpha{}}
	p.CellW, p.CellH, p.ascent = fonts.cell()
	return p
}

// Bounds is the size of the picture of a screen of cols×rows.
func (p *Painter) Bounds(cols, rows int) image.Rectangle {
	return image.Rect(0, 0, cols*p.CellW+2*Pad, rows*p.CellH+2*Pad)
}

// CellRect is the pixels of the cells [x0, x1) of rows [y0, y1).
func (p *Painter) CellRect(x0, y0, x1, y1 int) image.Rectangle {
	return image.Rect(Pad+x0*p.CellW, Pad+y0*p.CellH, Pad+x1*p.CellW, Pad+y1*p.CellH)
}

// Paint draws the whole of g on a new picture.
func (p *Painter) Paint(g *grid.Grid) *image.RGBA {
	img := image.NewRGBA(p.Bounds(g.Cols, g.Rows))
	fill(img, img.Bounds(), p.theme.BG)
	for y := range g.Rows {
		for x := range g.Cols {
			p.Cell(img, g, x, y)
		}
	}
	return img
}

// Cell draws the cell of g at x, y on img (a wide character from its left half).
func (p *Painter) Cell(img *image.RGBA, g *grid.Grid, x, y int) {
	c := g.At(x, y)
	if c.Width == 0 {
		if x == 0 {
			return
		}
		x--
		c = g.At(x, y)
	}
	w := max(1, c.Width)
	fg, bg := p.theme.Colors(c.Style)
	if g.CursorVisible && g.CursorY == y && (g.CursorX == x || w == 2 && g.CursorX == x+1) {
		fg, bg = bg, p.theme.Cursor
	}
	r := p.CellRect(x, y, x+w, y+1)
	fill(img, r, bg)
	if c.Text != " " && c.Text != "" && c.Style.Attr&grid.Hidden == 0 {
		p.blend(img, r.Min, p.mask(c.Text, c.Style.Attr, w), fg, bg)
	}
	t := max(1, p.CellW/8)
	if c.Style.Attr&grid.Underline != 0 {
		fill(img, image.Rect(r.Min.X, r.Min.Y+p.ascent+1, r.Max.X, r.Min.Y+p.ascent+1+t), fg)
	}
	if c.Style.Attr&grid.Strike != 0 {
		mid := r.Min.Y + p.ascent*2/3
		fill(img, image.Rect(r.Min.X, mid, r.Max.X, mid+t), fg)
	}
	if c.Style.Attr&grid.Overline != 0 {
		fill(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+t), fg)
	}
}

// mask is the ink of text in a cell w columns wide: a shape, the font's glyph or, for
// a character the font lacks, an empty box.
func (p *Painter) mask(text string, attr grid.Attr, w int) *image.Alpha {
	face := 0
	if attr&grid.Bold != 0 {
		face |= faceBold
	}
	if attr&grid.Italic != 0 {
		face |= faceItalic
	}
	k := maskKey{text, face, w}
	if m, ok := p.masks[k]; ok {
		return m
	}
	cw := p.CellW * w
	m := image.NewAlpha(image.Rect(0, 0, cw, p.CellH))
	// A letter and its combining accents (as a decomposed é comes: macOS's file names)
	// as the one precomposed character, which the font has where it lacks the accents.
	text = norm.NFC.String(text)
	r, _ := utf8.DecodeRuneInString(text)
	if sub, ok := stand[r]; ok && !p.fonts.has(face, r) && p.fonts.has(face, sub) {
		r, text = sub, string(sub)
	}
	switch {
	case shape(m, r, cw, p.CellH):
	case p.fonts.has(face, r):
		d := font.Drawer{Dst: m, Src: image.Opaque, Face: p.fonts.faces[face], Dot: fixed.P(0, p.ascent)}
		if w == 2 { // centred in its two cells
			d.Dot.X = (fixed.I(cw) - d.MeasureString(text)) / 2
		}
		for _, r := range text {
			if p.fonts.has(face, r) {
				d.DrawString(string(r))
			}
		}
	default:
		for x := 1; x < cw-1; x++ {
			m.Pix[2*m.Stride+x], m.Pix[(p.CellH-3)*m.Stride+x] = 0xc0, 0xc0
		}
		for y := 2; y < p.CellH-2; y++ {
			m.Pix[y*m.Stride+1], m.Pix[y*m.Stride+cw-2] = 0xc0, 0xc0
		}
	}
	p.masks[k] = m
	return m
}

// stand are characters agents draw often that Go Mono lacks, and the one of its own
// drawn for each rather than an empty box: a star for the spinners' asterisks, a
// check mark, a cross, a dot, a chevron, a warning.
var stand = map[rune]rune{
	'✻': '*', '✽': '*', '✳': '*', '✶': '*', '✢': '*', '✺': '*', '❋': '*',
	'✓': '√', '✔': '√', '✗': '×', '✘': '×', '⏺': '●', '❯': '›', '⎿': '└', '⚠': '!',
}

// blend draws fg on bg through m at at, in eight levels of ink: a glyph's edges take
// few colours, so that a frame's palette holds them.
func (p *Painter) blend(img *image.RGBA, at image.Point, m *image.Alpha, fg, bg color.RGBA) {
	var levels [8][4]uint8
	for l := range levels {
		mixc := func(f, b uint8) uint8 { return uint8((int(f)*l + int(b)*(7-l)) / 7) }
		levels[l] = [4]uint8{mixc(fg.R, bg.R), mixc(fg.G, bg.G), mixc(fg.B, bg.B), 0xff}
	}
	b := m.Bounds()
	for y := 0; y < b.Dy(); y++ {
		row := m.Pix[y*m.Stride : y*m.Stride+b.Dx()]
		off := img.PixOffset(at.X, at.Y+y)
		for x, a := range row {
			if a == 0 {
				continue
			}
			l := (int(a)*7 + 127) / 255
			copy(img.Pix[off+4*x:off+4*x+4], levels[l][:])
		}
	}
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	px := [4]uint8{c.R, c.G, c.B, 0xff}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		off := img.PixOffset(r.Min.X, y)
		for x := 0; x < r.Dx(); x++ {
			copy(img.Pix[off+4*x:off+4*x+4], px[:])
		}
	}
}
