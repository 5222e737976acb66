package ui

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Scrollback keeps the colours of the transcript (issue 14.9): the text converter
// tracks the SGR pen of every character it keeps, and a line is drawn again from those
// pens. Only SGR that Corral writes itself reaches the host: the pen is parsed into
// this closed set of attributes and colours, never copied, so no hosted OSC, DCS or
// malformed sequence passes through (DESIGN §7).

// attrs are the SGR attributes a pen keeps.
type attrs uint8

const (
	atBold attrs = 1 << iota
	atFaint
	atItalic
	atUnderline
	atBlink
	atReverse
	atStrike
)

// attrCodes are the SGR codes that set each attribute, in attrs' bit order.
var attrCodes = [...]int{1, 2, 3, 4, 5, 7, 9}

// attrResets are the SGR codes that clear attributes (22 both bold and faint).
var attrResets = map[int]attrs{22: atBold | atFaint, 23: atItalic, 24: atUnderline, 25: atBlink, 27: atReverse, 29: atStrike}

// colorKind says how a colour is given.
type colorKind uint8

const (
	colorDefault colorKind = iota
	colorIndex             // 0–255 (0–15 the classic and bright ones)
	colorRGB
)

type color struct {
	kind colorKind
	v    uint32 // the index, or 0xRRGGBB
}

// pen is the graphic rendition of a character. The zero pen is the terminal's default.
type pen struct {
	at     attrs
	fg, bg color
}

// penSpan is where a pen starts in a line's text (a byte offset); it lasts to the
// next span or the end.
type penSpan struct {
	at  int
	pen pen
}

// sgr applies an SGR parameter string ("1;31", "38;5;208", "" for reset) to p. Colon
// forms and unknown codes are ignored, as vt10x's normaliser does for the screen.
func (p pen) sgr(params []byte) pen {
	if bytes.IndexByte(params, ':') >= 0 {
		return p
	}
	var buf [16]int
	ps := parseParams(params, buf[:0])
	for i := 0; i < len(ps); i++ {
		n := ps[i]
		switch {
		case n == 0:
			p = pen{}
		case n == 38 || n == 48:
			c, used := extColor(ps[i+1:])
			i += used
			if n == 38 {
				p.fg = c
			} else {
				p.bg = c
			}
		default:
			p = p.basic(n)
		}
	}
	return p
}

// basic applies one code that is not an extended colour.
func (p pen) basic(n int) pen {
	for bit, code := range attrCodes {
		if n == code {
			p.at |= 1 << bit
			return p
		}
	}
	if off, ok := attrResets[n]; ok {
		p.at &^= off
		return p
	}
	switch {
	case n >= 30 && n <= 37:
		p.fg = color{colorIndex, uint32(n - 30)}
	case n == 39:
		p.fg = color{}
	case n >= 40 && n <= 47:
		p.bg = color{colorIndex, uint32(n - 40)}
	case n == 49:
		p.bg = color{}
	case n >= 90 && n <= 97:
		p.fg = color{colorIndex, uint32(n - 90 + 8)}
	case n >= 100 && n <= 107:
		p.bg = color{colorIndex, uint32(n - 100 + 8)}
	}
	return p
}

// extColor reads the rest of a 38/48 code: "5;n" or "2;r;g;b". It returns the colour
// and how many parameters it used; a malformed one is the default colour.
func extColor(ps []int) (color, int) {
	switch {
	case len(ps) >= 2 && ps[0] == 5 && ps[1] < 256:
		return color{colorIndex, uint32(ps[1])}, 2
	case len(ps) >= 4 && ps[0] == 2 && ps[1] < 256 && ps[2] < 256 && ps[3] < 256:
		return color{colorRGB, uint32(ps[1])<<16 | uint32(ps[2])<<8 | uint32(ps[3])}, 4
	}
	return color{}, len(ps)
}

// parseParams appends "1;;31" to out as [1 0 31] (an empty string is [0]), without
// allocating for the usual few parameters: scrollback parses every SGR of a transcript.
func parseParams(b []byte, out []int) []int {
	n := 0
	for _, c := range b {
		switch {
		case c == ';':
			out, n = append(out, n), 0
		case c >= '0' && c <= '9':
			n = min(n*10+int(c-'0'), 1<<16)
		}
	}
	return append(out, n)
}

// seq is the SGR sequence that sets p from the default pen ("" for the default).
func (p pen) seq() string {
	if p == (pen{}) {
		return ""
	}
	var codes []string
	for bit, code := range attrCodes {
		if p.at&(1<<bit) != 0 {
			codes = append(codes, strconv.Itoa(code))
		}
	}
	codes = p.fg.codes(codes, 30, 90, 38)
	codes = p.bg.codes(codes, 40, 100, 48)
	return "\x1b[" + strings.Join(codes, ";") + "m"
}

func (c color) codes(out []string, base, bright, ext int) []string {
	switch {
	case c.kind == colorIndex && c.v < 8:
		return append(out, strconv.Itoa(base+int(c.v)))
	case c.kind == colorIndex && c.v < 16:
		return append(out, strconv.Itoa(bright+int(c.v)-8))
	case c.kind == colorIndex:
		return append(out, strconv.Itoa(ext), "5", strconv.Itoa(int(c.v)))
	case c.kind == colorRGB:
		return append(out, strconv.Itoa(ext), "2", strconv.Itoa(int(c.v>>16)), strconv.Itoa(int(c.v>>8&0xff)), strconv.Itoa(int(c.v&0xff)))
	}
	return out
}

// Styled is the line with its colours, as SGR Corral writes; a line without colour
// is its text.
func (l HistLine) Styled() string { return l.styledRange(0, len(l.Text)) }

// styledRange is the line's text from byte a to b with its colours: the pen in effect
// at a, every pen that starts before b, and a reset at the end. A range no pen touches
// is its text.
func (l HistLine) styledRange(a, b int) string {
	i := 0
	for i < len(l.spans) && l.spans[i].at <= a {
		i++
	}
	var sb strings.Builder
	if i > 0 {
		sb.WriteString("\x1b[0m" + l.spans[i-1].pen.seq())
	}
	prev := a
	for ; i < len(l.spans) && l.spans[i].at < b; i++ {
		s := l.spans[i]
		sb.WriteString(l.Text[prev:s.at])
		sb.WriteString("\x1b[0m" + s.pen.seq())
		prev = s.at
	}
	if sb.Len() == 0 {
		return l.Text[a:b]
	}
	sb.WriteString(l.Text[prev:b])
	sb.WriteString("\x1b[0m")
	return sb.String()
}

// wrapped cuts the line into pieces of at most w columns (a character wider than
// what is left of a piece starts the next), each with its colours, so a wrapped line
// keeps its colour on every row.
func (l HistLine) wrapped(w int) []string {
	if widthOf(l.Text) <= w {
		return []string{l.Styled()}
	}
	var out []string
	start, pos, width := 0, 0, 0
	for rest := l.Text; rest != ""; {
		cluster, cw := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
		if cluster == "" { // never: a non-empty string has a first cluster
			break
		}
		if width > 0 && width+cw > w {
			out = append(out, l.styledRange(start, pos))
			start, width = pos, 0
		}
		width += cw
		pos += len(cluster)
		rest = rest[len(cluster):]
	}
	return append(out, l.styledRange(start, pos))
}
