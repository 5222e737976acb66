package raster

import (
	"errors"
	"image"
	"image/color"
	"image/gif"
	"io"
	"time"

	"corral/ptyhost/screen/grid"
)

// WriteGIF writes grids as an animated GIF: grid k shows from at[k] until at[k+1],
// the last one until end, loop times (0 for ever).
func WriteGIF(w io.Writer, p *Painter, grids []*grid.Grid, at []time.Duration, end time.Duration, loop int) error {
	e := NewGIF(w, p, loop)
	for k, g := range grids {
		if err := e.Frame(g, at[k]); err != nil {
			return err
		}
	}
	return e.End(end)
}

// GIF draws frames given one at a time into an animated GIF (export.Sink), written at
// End. A frame holds only the rectangle of the cells that changed, with a palette of
// its own; every frame has the first one's size.
type GIF struct {
	w      io.Writer
	p      *Painter
	canvas *image.RGBA
	out    gif.GIF
	prev   *grid.Grid
	prevAt time.Duration
	// Progress, when not nil, is called after each frame with how many are drawn.
	Progress func(done int)
}

// NewGIF returns a GIF writing to w, drawn by p, played loop times (0 for ever).
func NewGIF(w io.Writer, p *Painter, loop int) *GIF {
	return &GIF{w: w, p: p, out: gif.GIF{LoopCount: gifLoop(loop)}}
}

// centis is d in hundredths of a second, a GIF's unit of delay.
func centis(d time.Duration) int { return int((d + 5*time.Millisecond) / (10 * time.Millisecond)) }

// Frame draws g, shown from at.
func (e *GIF) Frame(g *grid.Grid, at time.Duration) error {
	if e.canvas == nil {
		e.canvas = image.NewRGBA(e.p.Bounds(g.Cols, g.Rows))
		fill(e.canvas, e.canvas.Bounds(), e.p.theme.BG)
	}
	x0, y0, x1, y1 := changed(e.prev, g)
	if x0 >= x1 && e.prev != nil {
		return nil // nothing to draw: the frame before lasts longer
	}
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			e.p.Cell(e.canvas, g, x, y)
		}
	}
	r := e.p.CellRect(x0, y0, x1, y1)
	if e.prev == nil {
		r = e.canvas.Bounds()
	}
	if len(e.out.Delay) > 0 {
		e.hold(max(2, centis(at)-centis(e.prevAt)))
	}
	e.out.Image = append(e.out.Image, paletted(e.canvas, r))
	e.out.Delay = append(e.out.Delay, 0)
	e.out.Disposal = append(e.out.Disposal, gif.DisposalNone)
	e.prev, e.prevAt = g, at
	if e.Progress != nil {
		e.Progress(len(e.out.Image))
	}
	return nil
}

// End writes the GIF, the last frame shown until end.
func (e *GIF) End(end time.Duration) error {
	n := len(e.out.Image)
	if n == 0 {
		return errors.New("gif: no frames")
	}
	e.hold(max(2, centis(end)-centis(e.prevAt)))
	e.out.Config = image.Config{Width: e.canvas.Rect.Dx(), Height: e.canvas.Rect.Dy(), ColorModel: e.out.Image[0].Palette}
	return gif.EncodeAll(e.w, &e.out)
}

// maxDelay is the longest delay a GIF's frame can have: 16 bits of hundredths.
const maxDelay = 1<<16 - 1

// maxHold bounds how long one frame stays, in hundredths: a day. A pause of years
// (a recording with wrong times) would otherwise be millions of frames.
const maxHold = 24 * 60 * 60 * 100

// hold makes the last frame stay d hundredths of a second (a day at most). A delay
// longer than a frame can have (a pause of 11 minutes or more) goes on in frames of
// one transparent pixel, which change nothing.
func (e *GIF) hold(d int) {
	d = min(d, maxHold)
	n := len(e.out.Delay)
	e.out.Delay[n-1] = min(d, maxDelay)
	for d -= maxDelay; d > 0; d -= maxDelay {
		e.out.Image = append(e.out.Image, image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.RGBA{}}))
		e.out.Delay = append(e.out.Delay, min(d, maxDelay))
		e.out.Disposal = append(e.out.Disposal, gif.DisposalNone)
	}
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
