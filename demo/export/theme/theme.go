// Package theme is the colours an exported screen is drawn in: the terminal's default
// foreground and background, its cursor and its 16 palette colours (the other 240 of
// the xterm palette are fixed), by name or from a file.
package theme

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"corral/ptyhost/screen/grid"
)

// Theme is a terminal's colours.
type Theme struct {
	FG, BG, Cursor color.RGBA
	Palette        [16]color.RGBA
}

// DefaultName is the theme used when none is named.
const DefaultName = "dark"

var named = map[string]Theme{
	// xterm's palette on a dark background, as most terminals start.
	"dark": {FG: hex(0xd0d0d0), BG: hex(0x1c1c1c), Cursor: hex(0xd0d0d0), Palette: [16]color.RGBA{
		hex(0x000000), hex(0xcd3131), hex(0x0dbc79), hex(0xe5e510), hex(0x2472c8), hex(0xbc3fbc), hex(0x11a8cd), hex(0xe5e5e5),
		hex(0x666666), hex(0xf14c4c), hex(0x23d18b), hex(0xf5f543), hex(0x3b8eea), hex(0xd670d6), hex(0x29b8db), hex(0xffffff)}},
	"light": {FG: hex(0x1f1f1f), BG: hex(0xfafafa), Cursor: hex(0x1f1f1f), Palette: [16]color.RGBA{
		hex(0x000000), hex(0xc91b00), hex(0x00a600), hex(0x9a8a00), hex(0x0225c7), hex(0xb200b2), hex(0x00a6b2), hex(0xbfbfbf),
		hex(0x686868), hex(0xff6e67), hex(0x2fb41d), hex(0xb7a800), hex(0x6871ff), hex(0xff77ff), hex(0x2ab5c2), hex(0x1f1f1f)}},
	"solarized-dark":  {FG: hex(0x839496), BG: hex(0x002b36), Cursor: hex(0x93a1a1), Palette: solarized},
	"solarized-light": {FG: hex(0x657b83), BG: hex(0xfdf6e3), Cursor: hex(0x586e75), Palette: solarized},
	"dracula": {FG: hex(0xf8f8f2), BG: hex(0x282a36), Cursor: hex(0xf8f8f2), Palette: [16]color.RGBA{
		hex(0x21222c), hex(0xff5555), hex(0x50fa7b), hex(0xf1fa8c), hex(0xbd93f9), hex(0xff79c6), hex(0x8be9fd), hex(0xf8f8f2),
		hex(0x6272a4), hex(0xff6e6e), hex(0x69ff94), hex(0xffffa5), hex(0xd6acff), hex(0xff92df), hex(0xa4ffff), hex(0xffffff)}},
}

var solarized = [16]color.RGBA{
	hex(0x073642), hex(0xdc322f), hex(0x859900), hex(0xb58900), hex(0x268bd2), hex(0xd33682), hex(0x2aa198), hex(0xeee8d5),
	hex(0x002b36), hex(0xcb4b16), hex(0x586e75), hex(0x657b83), hex(0x839496), hex(0x6c71c4), hex(0x93a1a1), hex(0xfdf6e3)}

func hex(v uint32) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff} }

// Names lists the named themes.
func Names() []string {
	var ns []string
	for n := range named {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return ns
}

// Get returns the theme called name ("" for the default), or, when no theme has that
// name, the one in the file of that path: TOML with foreground, background, cursor
// (optional) and palette, 16 colours, each "#rrggbb".
func Get(name string) (Theme, error) {
	if name == "" {
		name = DefaultName
	}
	if t, ok := named[name]; ok {
		return t, nil
	}
	data, err := ReadFile(name, 1<<20)
	if errors.Is(err, ErrTooLarge) || errors.Is(err, ErrNotRegular) {
		return Theme{}, fmt.Errorf("theme file %s: %w", name, err)
	}
	if err != nil {
		return Theme{}, fmt.Errorf("unknown theme %q: not one of %s, nor a readable file", name, strings.Join(Names(), ", "))
	}
	return parseFile(name, data)
}

// ErrTooLarge and ErrNotRegular are ReadFile's refusals.
var (
	ErrTooLarge   = errors.New("too large")
	ErrNotRegular = errors.New("not a regular file")
)

// ReadFile reads a file the user names (a theme, a font): a regular file of at most
// limit bytes, so that /dev/zero or a FIFO is an error, not a read without end. Its
// errors leave the path for the caller to name.
func ReadFile(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path) // not opened first: opening a FIFO waits for a writer
	switch {
	case err != nil:
		return nil, pathless(err)
	case st.IsDir():
		return nil, errors.New("is a directory")
	case !st.Mode().IsRegular():
		return nil, ErrNotRegular
	case st.Size() > limit:
		return nil, fmt.Errorf("%w (%d bytes; at most %d)", ErrTooLarge, st.Size(), limit)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, pathless(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%w (over %d bytes)", ErrTooLarge, limit)
	}
	return data, pathless(err)
}

// pathless is a path error's cause, the path left out.
func pathless(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func parseFile(name string, data []byte) (Theme, error) {
	var f struct {
		Foreground, Background, Cursor string
		Palette                        []string
	}
	if err := toml.Unmarshal(data, &f); err != nil {
		return Theme{}, fmt.Errorf("theme file %s: %v", name, err)
	}
	var t Theme
	var err error
	get := func(what, s string, c *color.RGBA) {
		if err == nil {
			if *c, err = parseHex(s); err != nil {
				err = fmt.Errorf("theme file %s: %s: %v", name, what, err)
			}
		}
	}
	get("foreground", f.Foreground, &t.FG)
	get("background", f.Background, &t.BG)
	if f.Cursor == "" {
		f.Cursor = f.Foreground
	}
	get("cursor", f.Cursor, &t.Cursor)
	if err == nil && len(f.Palette) != 16 {
		err = fmt.Errorf("theme file %s: palette: want 16 colours, not %d", name, len(f.Palette))
	}
	for i := range min(16, len(f.Palette)) {
		get(fmt.Sprintf("palette colour %d", i), f.Palette[i], &t.Palette[i])
	}
	return t, err
}

func parseHex(s string) (color.RGBA, error) {
	var v uint32
	if len(s) != 7 || s[0] != '#' {
		return color.RGBA{}, fmt.Errorf("%q is not #rrggbb", s)
	}
	if _, err := fmt.Sscanf(s[1:], "%06x", &v); err != nil {
		return color.RGBA{}, fmt.Errorf("%q is not #rrggbb", s)
	}
	return hex(v), nil
}

// Colors returns the foreground and background a cell of style st is drawn in:
// palette colours and defaults from the theme, reverse applied, dim halfway to the
// background.
func (t *Theme) Colors(st grid.Style) (fg, bg color.RGBA) {
	fg, bg = t.resolve(st.FG, t.FG), t.resolve(st.BG, t.BG)
	if st.Attr&grid.Reverse != 0 {
		fg, bg = bg, fg
	}
	if st.Attr&grid.Dim != 0 {
		fg = mix(fg, bg)
	}
	if st.Attr&grid.Hidden != 0 {
		fg = bg
	}
	return fg, bg
}

func mix(a, b color.RGBA) color.RGBA {
	return color.RGBA{uint8((int(a.R) + int(b.R)) / 2), uint8((int(a.G) + int(b.G)) / 2), uint8((int(a.B) + int(b.B)) / 2), 0xff}
}

func (t *Theme) resolve(c grid.Color, def color.RGBA) color.RGBA {
	switch c.Kind {
	case grid.RGB:
		return color.RGBA{c.R, c.G, c.B, 0xff}
	case grid.Indexed:
		return t.Index(int(c.Index))
	}
	return def
}

// Index returns palette colour i of 256: the theme's 16, then xterm's 6×6×6 cube and
// its grey ramp.
func (t *Theme) Index(i int) color.RGBA {
	switch {
	case i < 16:
		return t.Palette[i]
	case i < 232:
		i -= 16
		level := func(v int) uint8 {
			if v == 0 {
				return 0
			}
			return uint8(55 + 40*v)
		}
		return color.RGBA{level(i / 36), level(i / 6 % 6), level(i % 6), 0xff}
	}
	g := uint8(8 + 10*(i-232))
	return color.RGBA{g, g, g, 0xff}
}

// Hex is c as "#rrggbb".
func Hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
