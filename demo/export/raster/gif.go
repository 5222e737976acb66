package raster

import (
	"image"
	"image/color"
	"image/gif"
	"io"
	"time"

	"corral/ptyhost/screen/grid"
)

// WriteGIF writes grids as an animated GIF: grid k shows from at[k] until at[k+1],
// the last one until end. Every grid has the first one's size. A frame holds only
// the rectangle of the cells that changed, with a palette of its own; loop is how
// many times it plays (0 for ever). progress, when not nil, is called after each
// frame with how many are done.
func WriteGIF(w io.Writer, p *Painter, grids []*grid.Grid, at []time.Duration, end time.Duration, loop int, progress func(done int)) error {
	if len(grids) == 0 {
		return nil
	}
	cols, rows := grids[0].Cols, grids[0].Rows
	canvas := image.NewRGBA(p.Bounds(cols, rows))
	fill(canvas, canvas.Bounds(), p.theme.BG)
	out := &gif.GIF{LoopCount: gifLoop(loop)}
	cs := func(d time.Duration) int { return int((d + 5*time.Millisecond) / (10 * time.Millisecond)) }
	var prev *grid.Grid
	for k, g := range grids {
		x0, y0, x1, y1 := changed(prev, g)
		if x0 >= x1 && k > 0 {
			continue // nothing to draw: the frame before lasts longer
		}
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				p.Cell(canvas, g, x, y)
			}
		}
		r := p.CellRect(x0, y0, x1, y1)
		if k == 0 {
			r = canvas.Bounds()
		}
		next := end
		if k+1 < len(grids) {
			next = at[k+1]
		}
		out.Image = append(out.Image, paletted(canvas, r))
		out.Delay = append(out.Delay, max(2, cs(next)-cs(at[k])))
		out.Disposal = append(out.Disposal, gif.DisposalNone)
		prev = g
		if progress != nil {
			progress(k + 1)
		}
	}
	out.Config = image.Config{Width: canvas.Rect.Dx(), Height: canvas.Rect.Dy(), ColorModel: out.Image[0].Palette}
	return gif.EncodeAll(w, out)
}

// gifLoop is GIF's loop count for playing n times (0 for ever).
func gifLoop(n int) int {
	switch {
	case n <= 0:
		return 0
	case n == 1:
		return -1
	}
	return n - 1
}

// changed is the rectangle of cells [x0, x1) × [y0, y1) where g differs from prev (all
// of g without prev): the cells themselves, a wide character's two halves, and the
// cursor's old and new cells.
func changed(prev, g *grid.Grid) (x0, y0, x1, y1 int) {
	if prev == nil {
		return 0, 0, g.Cols, g.Rows
	}
	x0, y0 = g.Cols, g.Rows
	add := func(x, y int) {
		if x < 0 || y < 0 || x >= g.Cols || y >= g.Rows {
			return
		}
		x0, y0, x1, y1 = min(x0, max(0, x-1)), min(y0, y), max(x1, min(g.Cols, x+2)), max(y1, y+1)
	}
	for i := range g.Cells {
		if g.Cells[i] != prev.Cells[i] {
			add(i%g.Cols, i/g.Cols)
		}
	}
	if prev.CursorVisible != g.CursorVisible || prev.CursorX != g.CursorX || prev.CursorY != g.CursorY {
		if prev.CursorVisible {
			add(prev.CursorX, prev.CursorY)
		}
		if g.CursorVisible {
			add(g.CursorX, g.CursorY)
		}
	}
	if x0 >= x1 {
		return 0, 0, 0, 0
	}
	return x0, y0, x1, y1
}

// paletted copies r of img with a palette of its colours: exact up to 256, else
// with fewer bits of each channel until they fit.
func paletted(img *image.RGBA, r image.Rectangle) *image.Paletted {
	for shift := uint(0); ; shift++ {
		mask := uint32(0xff>>shift<<shift) * 0x010101
		index := map[uint32]uint8{}
		var pal color.Palette
		dst := image.NewPaletted(r, nil)
		ok := true
		last, lastIx := uint32(1<<31), uint8(0)
	rows:
		for y := r.Min.Y; y < r.Max.Y; y++ {
			src := img.Pix[img.PixOffset(r.Min.X, y):]
			out := dst.Pix[dst.PixOffset(r.Min.X, y):]
			for x := 0; x < r.Dx(); x++ {
				c := (uint32(src[4*x])<<16 | uint32(src[4*x+1])<<8 | uint32(src[4*x+2])) & mask
				if c == last {
					out[x] = lastIx
					continue
				}
				ix, seen := index[c]
				if !seen {
					if len(pal) == 256 {
						ok = false
						break rows
					}
					ix = uint8(len(pal))
					index[c] = ix
					pal = append(pal, color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 0xff})
				}
				out[x], last, lastIx = ix, c, ix
			}
		}
		if ok {
			dst.Palette = pal
			return dst
		}
	}
}
