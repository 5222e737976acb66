package frame

import (
	"image/color"
	"math/bits"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// rgbAlpha is the alpha an RGB colour is given: one short of opaque, so that it never
// compares equal to a palette colour of the same value (both are opaque otherwise).
// Nothing writes a colour's alpha, so what reaches the terminal is unchanged.
const rgbAlpha = 0xfffe

// keepForms makes the frame in r.cells keep each colour's form (palette, 256-colour,
// RGB) through ultraviolet, which compares colours by value: RGB colours are tagged
// (see rgbAlpha), and it reports whether a cell's palette colour changed form without
// changing value (basic 0 against 256-colour 16, say), which only a full redraw
// writes. Only the rows the frame wrote (r.drawn) are looked at: the others hold the
// cells, tags and forms of the frame before, and their palette colours are kept per
// row (r.rowForms) for the twins of the whole frame. A key's echo writes a row or two
// of the screen's fifty.
func (r *Renderer) keepForms() (redraw bool) {
	tag := r.profile == colorprofile.TrueColor
	n := 0
	for _, line := range r.cells.Lines {
		n += len(line)
	}
	had := len(r.forms) == n && len(r.rowForms) == len(r.cells.Lines)
	if !had {
		r.forms = append(r.forms[:0], make([]uint32, n)...)
		r.rowForms = append(r.rowForms[:0], make([][512 / 64]uint64, len(r.cells.Lines))...)
	}
	i := 0
	for y, line := range r.cells.Lines {
		if had && r.drawn != nil && (y >= len(r.drawn) || !r.drawn[y]) {
			i += len(line)
			continue
		}
		var row [512 / 64]uint64 // the palette forms of the row's fg and bg
		for x := range line {
			s := &line[x].Style
			if tag {
				s.Fg, s.Bg, s.UnderlineColor = tagged(s.Fg), tagged(s.Bg), tagged(s.UnderlineColor)
			}
			f := form(s.Fg) | form(s.Bg)<<10 | form(s.UnderlineColor)<<20
			if had && f != r.forms[i] && samePaletteValue(r.forms[i], f) {
				redraw = true
			}
			r.forms[i] = f
			i++
			for _, c := range [2]uint32{f & 0x3ff, f >> 10 & 0x3ff} {
				if c != 0 {
					row[slot(c)/64] |= 1 << (slot(c) % 64)
				}
			}
		}
		r.rowForms[y] = row
	}
	var all [512 / 64]uint64
	for _, row := range r.rowForms {
		for k := range all {
			all[k] |= row[k]
		}
	}
	var seen [512]uint16 // per palette form (basic, 256-colour) of fg or bg: seen in this frame
	twins := false
	for k, bits := range all {
		for ; bits != 0; bits &= bits - 1 {
			c := uint32(k*64+bits64(bits)) + 1<<8
			seen[slot(c)] = 1
			if r.twinSeen(&seen, c) {
				twins = true
			}
		}
	}
	r.penPrefixed = twins && (r.profile == colorprofile.TrueColor || r.profile == colorprofile.ANSI256)
	if r.penPrefixed {
		r.penPerCell(&seen)
	}
	return redraw
}

// bits64 is the index of the lowest set bit of a non-zero b.
func bits64(b uint64) int { return bits.TrailingZeros64(b) }

// twinSeen reports whether seen holds another palette form of palette colour c's
// value (basic 0 and 256-colour 16 are both black), and marks both as twins (2).
func (r *Renderer) twinSeen(seen *[512]uint16, c uint32) bool {
	v := paletteRGB[slot(c)]
	found := false
	for k := range seen {
		if seen[k] != 0 && uint32(k) != slot(c) && paletteRGB[k] == v {
			seen[k], found = 2, true
		}
	}
	if found {
		seen[slot(c)] = 2
	}
	return found
}

// penPerCell makes each cell whose foreground or background is a palette colour with
// a twin in this frame (another form of the same value, see twinSeen) set that colour
// itself, in its form, in front of its glyph. Ultraviolet keeps one pen and compares
// colours by value: a cell of 256-colour 16 written after one of basic black would
// otherwise be written in basic black's form, as the pen already holds that value.
func (r *Renderer) penPerCell(seen *[512]uint16) {
	i := 0
	for _, line := range r.cells.Lines {
		for x := range line {
			f := r.forms[i]
			i++
			cell := &line[x]
			if cell.Width == 0 {
				continue
			}
			var sgr ansi.Style
			if fg := f & 0x3ff; fg != 0 && seen[slot(fg)] == 2 {
				sgr = sgr.ForegroundColor(cell.Style.Fg)
			}
			if bg := f >> 10 & 0x3ff; bg != 0 && seen[slot(bg)] == 2 {
				sgr = sgr.BackgroundColor(cell.Style.Bg)
			}
			if len(sgr) > 0 {
				cell.Content = sgr.String() + cell.Content
			}
		}
	}
}

// slot is where palette form c (see form) is in seen and paletteRGB.
func slot(c uint32) uint32 { return c - 1<<8 }

// paletteRGB is each palette form's value, indexed as seen in keepForms: basic
// colours 0–255 (of which 0–15 exist), then 256-colour 0–255.
var paletteRGB = func() (t [512]uint32) {
	for k := range t {
		var c color.Color = ansi.IndexedColor(k - 256)
		if k < 256 {
			c = ansi.BasicColor(k)
		}
		r, g, b, _ := c.RGBA()
		t[k] = r>>8<<16 | g>>8<<8 | b>>8
	}
	return t
}()

// tagged is c with an RGB colour given rgbAlpha.
func tagged(c color.Color) color.Color {
	switch c := c.(type) {
	case nil, ansi.BasicColor, ansi.IndexedColor:
		return c
	case color.RGBA64:
		if c.A == rgbAlpha {
			return c
		}
	}
	r, g, b, _ := c.RGBA()
	return color.RGBA64{R: uint16(r), G: uint16(g), B: uint16(b), A: rgbAlpha}
}

// form is a palette colour's form and index in 10 bits: 1<<8 basic, 2<<8 256-colour;
// 0 for none or RGB (told apart by rgbAlpha).
func form(c color.Color) uint32 {
	switch c := c.(type) {
	case ansi.BasicColor:
		return 1<<8 | uint32(c)
	case ansi.IndexedColor:
		return 2<<8 | uint32(c)
	}
	return 0
}

// samePaletteValue reports whether, in the cells of forms a and b, some colour is a
// palette colour in both, of another form or index but the same value.
func samePaletteValue(a, b uint32) bool {
	for shift := 0; shift < 30; shift += 10 {
		x, y := a>>shift&0x3ff, b>>shift&0x3ff
		if x != y && x != 0 && y != 0 && sameValue(palette(x), palette(y)) {
			return true
		}
	}
	return false
}

func palette(f uint32) color.Color {
	if f>>8 == 1 {
		return ansi.BasicColor(f & 0xff)
	}
	return ansi.IndexedColor(f & 0xff)
}

func sameValue(a, b color.Color) bool {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	return ar == br && ag == bg && ab == bb && aa == ba
}
