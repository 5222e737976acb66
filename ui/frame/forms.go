package frame

import (
	"image/color"

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
// writes.
func (r *Renderer) keepForms() (redraw bool) {
	tag := r.profile == colorprofile.TrueColor
	n := 0
	for _, line := range r.cells.Lines {
		n += len(line)
	}
	had := len(r.forms) == n
	if !had {
		r.forms = append(r.forms[:0], make([]uint32, n)...)
	}
	i := 0
	for _, line := range r.cells.Lines {
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
		}
	}
	return redraw
}

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
