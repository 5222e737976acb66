package raster

import (
	"image"
	"image/color"
	"image/draw"
)

// arms of a box-drawing character: left, right, up, down; 0 none, 1 light, 2 heavy,
// 3 double.
type arms [4]uint8

var boxArms = map[rune]arms{
	'─': {1, 1, 0, 0}, '│': {0, 0, 1, 1}, '┌': {0, 1, 0, 1}, '┐': {1, 0, 0, 1}, '└': {0, 1, 1, 0}, '┘': {1, 0, 1, 0},
	'├': {0, 1, 1, 1}, '┤': {1, 0, 1, 1}, '┬': {1, 1, 0, 1}, '┴': {1, 1, 1, 0}, '┼': {1, 1, 1, 1},
	'━': {2, 2, 0, 0}, '┃': {0, 0, 2, 2}, '┏': {0, 2, 0, 2}, '┓': {2, 0, 0, 2}, '┗': {0, 2, 2, 0}, '┛': {2, 0, 2, 0},
	'┣': {0, 2, 2, 2}, '┫': {2, 0, 2, 2}, '┳': {2, 2, 0, 2}, '┻': {2, 2, 2, 0}, '╋': {2, 2, 2, 2},
	'═': {3, 3, 0, 0}, '║': {0, 0, 3, 3}, '╔': {0, 3, 0, 3}, '╗': {3, 0, 0, 3}, '╚': {0, 3, 3, 0}, '╝': {3, 0, 3, 0},
	'╠': {0, 3, 3, 3}, '╣': {3, 0, 3, 3}, '╦': {3, 3, 0, 3}, '╩': {3, 3, 3, 0}, '╬': {3, 3, 3, 3},
	'╭': {0, 1, 0, 1}, '╮': {1, 0, 0, 1}, '╯': {1, 0, 1, 0}, '╰': {0, 1, 1, 0},
	'╴': {1, 0, 0, 0}, '╵': {0, 0, 1, 0}, '╶': {0, 1, 0, 0}, '╷': {0, 0, 0, 1},
	'╸': {2, 0, 0, 0}, '╹': {0, 0, 2, 0}, '╺': {0, 2, 0, 0}, '╻': {0, 0, 0, 2},
	'┄': {1, 1, 0, 0}, '┅': {2, 2, 0, 0}, '┆': {0, 0, 1, 1}, '┇': {0, 0, 2, 2},
	'┈': {1, 1, 0, 0}, '┉': {2, 2, 0, 0}, '┊': {0, 0, 1, 1}, '┋': {0, 0, 2, 2},
	'╌': {1, 1, 0, 0}, '╍': {2, 2, 0, 0}, '╎': {0, 0, 1, 1}, '╏': {0, 0, 2, 2},
}

// shape draws r as a shape into m (a cell of w×h at its origin) and reports whether
// it is one of the characters drawn so.
func shape(m *image.Alpha, r rune, w, h int) bool {
	ink := func(x0, y0, x1, y1 int, a uint8) {
		draw.Draw(m, image.Rect(x0, y0, x1, y1), image.NewUniform(color.Alpha{a}), image.Point{}, draw.Src)
	}
	if a, ok := boxArms[r]; ok {
		box(ink, a, w, h)
		return true
	}
	switch {
	case r == '█':
		ink(0, 0, w, h, 0xff)
	case r == '▀':
		ink(0, 0, w, h/2, 0xff)
	case r == '▔':
		ink(0, 0, w, max(1, h/8), 0xff)
	case r >= '▁' && r <= '▇': // lower eighths
		ink(0, h-h*int(r-'▁'+1)/8, w, h, 0xff)
	case r >= '▉' && r <= '▏': // left eighths, seven to one
		ink(0, 0, max(1, w*int('▏'-r+1)/8), h, 0xff)
	case r == '▐':
		ink(w/2, 0, w, h, 0xff)
	case r == '▕':
		ink(w-max(1, w/8), 0, w, h, 0xff)
	case r >= '░' && r <= '▓':
		ink(0, 0, w, h, uint8(0x40*int(r-'░'+1)))
	case r >= '▖' && r <= '▟':
		quads := [...]uint8{4, 8, 1, 1 | 4 | 8, 1 | 8, 1 | 2 | 4, 1 | 2 | 8, 2, 2 | 4, 2 | 4 | 8} // ul=1 ur=2 ll=4 lr=8
		q := quads[r-'▖']
		for i, rc := range [4][4]int{{0, 0, w / 2, h / 2}, {w / 2, 0, w, h / 2}, {0, h / 2, w / 2, h}, {w / 2, h / 2, w, h}} {
			if q&(1<<i) != 0 {
				ink(rc[0], rc[1], rc[2], rc[3], 0xff)
			}
		}
	case r >= 0x2800 && r <= 0x28ff:
		braille(ink, int(r-0x2800), w, h)
	default:
		return false
	}
	return true
}

// box draws a box-drawing character's arms from the cell's centre.
func box(ink func(x0, y0, x1, y1 int, a uint8), a arms, w, h int) {
	t := max(1, w/8)   // a light line's thickness
	cx, cy := w/2, h/2 // the centre
	line := func(x0, y0, x1, y1 int, weight uint8, horizontal bool) {
		switch weight {
		case 1, 2:
			th := t * int(weight)
			if horizontal {
				ink(x0, cy-th/2, x1, cy-th/2+th, 0xff)
			} else {
				ink(cx-th/2, y0, cx-th/2+th, y1, 0xff)
			}
		case 3:
			g := t + 1 // half the gap between the two lines
			if horizontal {
				ink(x0, cy-g-t, x1, cy-g, 0xff)
				ink(x0, cy+g, x1, cy+g+t, 0xff)
			} else {
				ink(cx-g-t, y0, cx-g, y1, 0xff)
				ink(cx+g, y0, cx+g+t, y1, 0xff)
			}
		}
	}
	ext := func(weight uint8) int { // how far an arm reaches past the centre, to join
		if weight == 0 {
			return 0
		}
		return t*2 + 1
	}
	vmax, hmax := max(a[2], a[3]), max(a[0], a[1])
	line(0, 0, cx+ext(vmax), 0, a[0], true)
	line(cx-ext(vmax), 0, w, 0, a[1], true)
	line(0, 0, 0, cy+ext(hmax), a[2], false)
	line(0, cy-ext(hmax), 0, h, a[3], false)
}

// braille draws the dots of a braille pattern: bits 0–5 the left and right columns'
// first three dots, 6 and 7 their fourth.
func braille(ink func(x0, y0, x1, y1 int, a uint8), bits, w, h int) {
	pos := [8][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {0, 3}, {1, 3}}
	d := max(1, w/4)
	for i, p := range pos {
		if bits&(1<<i) == 0 {
			continue
		}
		x := w*(1+2*p[0])/4 - d/2
		y := h*(1+2*p[1])/8 - d/2
		ink(x, y, x+d, y+d, 0xff)
	}
}
