// Package raster draws screens as pixels: each cell's background, its character from
// a monospace font (Go Mono, which ships with golang.org/x/image, unless a font file
// is given: no system font is read), its decorations and the cursor. Box-drawing,
// block and braille characters are drawn as shapes that join from cell to cell, as
// terminals draw them; a character the font lacks is drawn as an empty box.
package raster

import (
	"fmt"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/gomonobolditalic"
	"golang.org/x/image/font/gofont/gomonoitalic"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"corral/demo/export/theme"
)

// maxFont bounds a font file: a large CJK font is tens of megabytes.
const maxFont = 128 << 20

// DefaultSize is the font size in pixels.
const DefaultSize = 14

// Fonts are the four faces of a monospace family: regular, bold, italic and both.
type Fonts struct {
	fonts [4]*sfnt.Font
	faces [4]font.Face
	buf   sfnt.Buffer
}

const (
	faceBold   = 1
	faceItalic = 2
)

// LoadFonts opens the font of path at size pixels, all four faces the one font; with
// path "", Go Mono and its bold and italic faces.
func LoadFonts(path string, size float64) (*Fonts, error) {
	var srcs [4][]byte
	if path == "" {
		srcs = [4][]byte{gomono.TTF, gomonobold.TTF, gomonoitalic.TTF, gomonobolditalic.TTF}
	} else {
		data, err := theme.ReadFile(path, maxFont)
		if err != nil {
			return nil, fmt.Errorf("font %s: %v", path, err)
		}
		srcs = [4][]byte{data, data, data, data}
	}
	fs := &Fonts{}
	for i, src := range srcs {
		f, err := opentype.Parse(src)
		if err == nil {
			fs.faces[i], err = opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
		}
		if err != nil {
			return nil, fmt.Errorf("font %s: not a TrueType or OpenType font (%v)", path, err)
		}
		fs.fonts[i] = f
	}
	return fs, nil
}

// cell is the size of a cell in pixels and the baseline's distance from its top.
func (fs *Fonts) cell() (w, h, ascent int) {
	m := fs.faces[0].Metrics()
	adv, ok := fs.faces[0].GlyphAdvance('M')
	if !ok || adv <= 0 {
		adv = fixed.I(int(m.Height.Ceil()) / 2)
	}
	w = max(1, adv.Round())
	ascent = m.Ascent.Ceil()
	h = max(1, ascent+m.Descent.Ceil()+1)
	return w, h, ascent
}

// has reports whether face i has a glyph for r.
func (fs *Fonts) has(i int, r rune) bool {
	x, err := fs.fonts[i].GlyphIndex(&fs.buf, r)
	return err == nil && x != 0
}
