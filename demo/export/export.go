package export

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"corral/demo/export/raster"
	"corral/demo/export/svg"
	"corral/demo/export/theme"
	"corral/ptyhost/screen/grid"
)

// Options are an export's: the timing, how it is drawn, and where progress goes.
type Options struct {
	Timing
	Theme string // a named theme or a theme file ("" the default)
	Font  string // a font file for GIF and PNG ("" Go Mono)
	Loop  int    // how many times an animation plays (0 for ever)
	// Progress, when not nil, is told what part of the export is done (0–1).
	Progress func(done float64)
}

// Formats are the extensions an output may have.
var Formats = []string{".svg", ".gif", ".png"}

// Result is what an export wrote.
type Result struct {
	Frames   int
	Duration time.Duration // of the animation, once
	Bytes    int64
	Events   int
	// Stopped, when not nil, is the line at which the reading stopped (a *LineError):
	// what came before it was exported.
	Stopped error
}

// Format returns the format of an output path from its extension, or an error naming
// it.
func Format(out string) (string, error) {
	ext := strings.ToLower(filepath.Ext(out))
	for _, f := range Formats {
		if ext == f {
			return ext, nil
		}
	}
	if ext == "" {
		return "", fmt.Errorf("%s: no extension to tell the format by (want %s)", out, strings.Join(Formats, ", "))
	}
	return "", fmt.Errorf("%s: unknown format %s (want %s)", out, ext, strings.Join(Formats, ", "))
}

// File exports the recording at src to out, the format by out's extension. Every
// input is checked before the recording is read; out is written to a temporary file
// beside it and renamed, so that a failed export leaves nothing at out.
func File(src, out string, o Options) (Result, error) {
	format, err := Format(out)
	if err != nil {
		return Result{}, err
	}
	th, err := theme.Get(o.Theme)
	if err != nil {
		return Result{}, err
	}
	var painter *raster.Painter
	if format != ".svg" {
		fonts, err := raster.LoadFonts(o.Font, raster.DefaultSize)
		if err != nil {
			return Result{}, err
		}
		painter = raster.New(th, fonts)
	}
	f, err := openRegular(src)
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	if err := checkOut(out, f); err != nil {
		return Result{}, err
	}
	if o.Cols == 0 || o.Rows == 0 {
		cols, rows, err := LargestSize(f)
		if err == nil {
			_, err = f.Seek(0, io.SeekStart)
		}
		if errors.Is(err, ErrNotCast) {
			return Result{}, fmt.Errorf("%s: %w", src, err)
		} else if err != nil {
			return Result{}, err
		}
		o.Cols, o.Rows = cmp.Or(o.Cols, cols), cmp.Or(o.Rows, rows)
	}
	size := int64(1)
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		size = st.Size()
	}
	report := func(float64) {}
	if o.Progress != nil {
		report = o.Progress
	}
	if format == ".png" && !o.Still {
		o.Still, o.At = true, time.Duration(1<<62) // a picture of the end, unless --at
	}
	var buf bytes.Buffer
	var sink Sink
	last := &lastFrame{}
	switch format {
	case ".svg":
		sink = svg.NewEncoder(&buf, th, o.Loop)
	case ".gif":
		sink = raster.NewGIF(&buf, painter, o.Loop)
	case ".png":
		sink = last
	}
	played, err := Play(f, o.Timing, sink, func(read int64) { report(float64(read) / float64(size)) })
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", src, err)
	}
	res := Result{Frames: played.Frames, Duration: played.End, Events: played.Events}
	if played.Stopped != nil {
		res.Stopped = fmt.Errorf("%s: %w", src, played.Stopped)
	}
	if format == ".png" {
		if err := png.Encode(&buf, painter.Paint(last.g)); err != nil {
			return res, err
		}
	}
	res.Bytes = int64(buf.Len())
	report(1)
	return res, WriteFile(out, buf.Bytes())
}

// lastFrame is a Sink that keeps the last frame: a still picture's.
type lastFrame struct{ g *grid.Grid }

func (l *lastFrame) Frame(g *grid.Grid, _ time.Duration) error { l.g = g; return nil }
func (l *lastFrame) End(time.Duration) error                   { return nil }

// Screen writes one grid (a run's screen now) to out as SVG or PNG.
func Screen(g *grid.Grid, out, themeName, fontPath string) error {
	format, err := Format(out)
	if err == nil && format == ".gif" {
		err = fmt.Errorf("%s: a screen is one picture: .svg or .png", out)
	}
	if err != nil {
		return err
	}
	data, err := Picture(g, format, themeName, fontPath)
	if err != nil {
		return err
	}
	if err := checkOut(out, nil); err != nil {
		return err
	}
	return WriteFile(out, data)
}

// Picture draws one grid as format (".svg" or ".png").
func Picture(g *grid.Grid, format, themeName, fontPath string) ([]byte, error) {
	th, err := theme.Get(themeName)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if format == ".svg" {
		err = svg.Write(&buf, th, []*grid.Grid{g}, []time.Duration{0}, 0, 0)
		return buf.Bytes(), err
	}
	fonts, err := raster.LoadFonts(fontPath, raster.DefaultSize)
	if err != nil {
		return nil, err
	}
	var img image.Image = raster.New(th, fonts).Paint(g)
	err = png.Encode(&buf, img)
	return buf.Bytes(), err
}

// checkOut fails, before anything is read or drawn, when out cannot be written: its
// directory is missing or not one, or a file cannot be made in it; out is a
// directory, not a regular file, one that cannot be written, or the recording src
// itself (nil: none).
func checkOut(out string, src *os.File) error {
	dir := filepath.Dir(out)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s: no such directory %s", out, dir)
	case err != nil:
		return fmt.Errorf("%s: %w", out, err)
	case !st.IsDir():
		return fmt.Errorf("%s: %s is not a directory", out, dir)
	}
	if st, err := os.Stat(out); err == nil {
		if src != nil {
			if sst, err := src.Stat(); err == nil && os.SameFile(st, sst) {
				return fmt.Errorf("%s: is the recording being exported", out)
			}
		}
		switch {
		case st.IsDir():
			return fmt.Errorf("%s: is a directory", out)
		case !st.Mode().IsRegular():
			return fmt.Errorf("%s: not a regular file", out)
		}
		// Opened to write, not truncated: whether the user may overwrite it.
		f, err := os.OpenFile(out, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("%s: cannot be written (%w)", out, unwrapPath(err))
		}
		f.Close()
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return fmt.Errorf("%s: cannot write in %s (%w)", out, dir, unwrapPath(err))
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return nil
}

// unwrapPath is a path error's cause, without the path (a temporary file's).
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// WriteFile writes data to path through a temporary file in its directory, renamed
// into place once whole.
func WriteFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("%s: cannot write in %s (%w)", path, filepath.Dir(path), unwrapPath(err))
	}
	_, err = io.Copy(tmp, bytes.NewReader(data))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		var le *os.LinkError
		if errors.As(err, &le) {
			err = fmt.Errorf("%s: %w", path, le.Err)
		}
	}
	return err
}

// openRegular opens a recording: a regular file only (a FIFO would block, a device
// never end).
func openRegular(path string) (*os.File, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	return os.Open(path)
}
