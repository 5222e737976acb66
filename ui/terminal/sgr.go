package terminal

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"corral/ui/common"
)

// Scrollback keeps the colours of the history: the text converter
// tracks the SGR pen of every character it keeps, and a line is drawn again from those
// pens. Only SGR that Corral writes itself reaches the host: the pen is parsed into
// this closed set of attributes, underline styles and colours, never copied, so no
// hosted OSC, DCS or malformed sequence passes through (a hosted program must not set
// the host terminal's clipboard, title or modes through Corral).

// attrs are the SGR attributes a pen keeps.
type attrs uint16

const (
	atBold attrs = 1 << iota
	atFaint
	atItalic
	atUnderline
	atBlink
	atReverse
	atHidden
	atStrike
	atOverline
)

// attrCodes are the SGR codes that set each attribute, in attrs' bit order.
var attrCodes = [...]int{1, 2, 3, 4, 5, 7, 8, 9, 53}

// attrResets are the SGR codes that clear attributes (22 both bold and faint).
var attrResets = map[int]attrs{22: atBold | atFaint, 23: atItalic, 24: atUnderline, 25: atBlink,
	27: atReverse, 28: atHidden, 29: atStrike, 55: atOverline}

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
	at          attrs
	ul          uint8 // the underline's style (4:n) when it is not single: 2 double … 5 dashed
	fg, bg, ulc color // ulc: the underline's colour (58)
}

// penSpan is where a pen starts in a line's text (a byte offset); it lasts to the
// next span or the end.
type penSpan struct {
	at  int
	pen pen
}

// sgrParam is one SGR parameter and its colon sub-parameters (-1 for an empty one).
type sgrParam struct {
	n   int
	sub [6]int
	ns  int
}

// sgr applies an SGR parameter string ("1;31", "38;5;208", "4:3;58:5:9", "" for
// reset) to p, in both the semicolon and the colon forms (the Screen's history
// writes underline styles and colours in the colon form); unknown codes are ignored.
func (p pen) sgr(params []byte) pen {
	var buf [16]sgrParam
	ps := parseParams(params, buf[:0])
	for i := 0; i < len(ps); i++ {
		switch n := ps[i].n; {
		case n == 0:
			p = pen{}
		case n == 38 || n == 48 || n == 58:
			c, used := extColor(ps, i)
			i += used
			*p.slot(n) = c
		case n == 4 && ps[i].ns > 0:
			p = p.underline(ps[i].sub[0])
		case n == 21:
			p = p.underline(2)
		default:
			p = p.basic(n)
		}
	}
	return p
}

// underline sets the underline's style (0 none, 1 single, 2…5 the others).
func (p pen) underline(style int) pen {
	p.at &^= atUnderline
	p.ul = 0
	if style > 0 && style <= 5 {
		p.at |= atUnderline
	}
	if style > 1 && style <= 5 { // single is the plain underline
		p.ul = uint8(style)
	}
	return p
}

// slot is the colour an extended colour code sets: 38 the foreground, 48 the
// background, 58 the underline's.
func (p *pen) slot(code int) *color {
	switch code {
	case 38:
		return &p.fg
	case 48:
		return &p.bg
	}
	return &p.ulc
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
		if n == 24 {
			p.ul = 0
		}
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
	case n == 59:
		p.ulc = color{}
	case n >= 90 && n <= 97:
		p.fg = color{colorIndex, uint32(n - 90 + 8)}
	case n >= 100 && n <= 107:
		p.bg = color{colorIndex, uint32(n - 100 + 8)}
	}
	return p
}

// extColor reads the extended colour whose code (38, 48, 58) is ps[i]: its colon
// sub-parameters (5:n, 2:r:g:b, 2::r:g:b) or the parameters after it (5;n, 2;r;g;b).
// It returns the colour and how many following parameters it used; a malformed one
// is the default colour.
func extColor(ps []sgrParam, i int) (color, int) {
	if p := ps[i]; p.ns > 0 {
		switch s := p.sub; {
		case s[0] == 5 && p.ns >= 2:
			return indexColor(s[1]), 0
		case s[0] == 2 && p.ns >= 5:
			return rgbColor(s[2], s[3], s[4]), 0
		case s[0] == 2 && p.ns == 4:
			return rgbColor(s[1], s[2], s[3]), 0
		}
		return color{}, 0
	}
	rest := ps[i+1:]
	switch {
	case len(rest) >= 2 && rest[0].n == 5:
		return indexColor(rest[1].n), 2
	case len(rest) >= 4 && rest[0].n == 2:
		return rgbColor(rest[1].n, rest[2].n, rest[3].n), 4
	}
	return color{}, len(rest)
}

func indexColor(n int) color {
	if n < 0 || n > 255 {
		return color{}
	}
	return color{colorIndex, uint32(n)}
}

func rgbColor(r, g, b int) color {
	if max(r, g, b) > 255 {
		return color{}
	}
	return color{colorRGB, uint32(max(r, 0))<<16 | uint32(max(g, 0))<<8 | uint32(max(b, 0))}
}

// parseParams appends "1;;31" to out as [1 0 31] (an empty string is [0]), and
// "4:3;58:2::1:2:3" as 4 with [3] and 58 with [2 -1 1 2 3], without allocating for
// the usual few parameters: scrollback parses every SGR of a transcript.
func parseParams(b []byte, out []sgrParam) []sgrParam {
	cur := sgrParam{}
	inSub := false
	for _, c := range b {
		switch {
		case c == ';':
			out, cur, inSub = append(out, cur), sgrParam{}, false
		case c == ':':
			if cur.ns < len(cur.sub) {
				cur.sub[cur.ns] = -1
				cur.ns++
			}
			inSub = true
		case c >= '0' && c <= '9' && !inSub:
			cur.n = min(cur.n*10+int(c-'0'), 1<<16)
		case c >= '0' && c <= '9' && cur.ns > 0:
			d := &cur.sub[cur.ns-1]
			*d = min(max(*d, 0)*10+int(c-'0'), 1<<16)
		}
	}
	return append(out, cur)
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
	if p.at&atUnderline != 0 && p.ul > 1 {
		codes = append(codes, "4:"+strconv.Itoa(int(p.ul)))
	}
	codes = p.fg.codes(codes, 30, 90, 38)
	codes = p.bg.codes(codes, 40, 100, 48)
	switch c := p.ulc; c.kind { // colon forms, which a terminal without 58 skips whole
	case colorIndex:
		codes = append(codes, "58:5:"+strconv.Itoa(int(c.v)))
	case colorRGB:
		codes = append(codes, fmt.Sprintf("58:2::%d:%d:%d", c.v>>16, c.v>>8&0xff, c.v&0xff))
	}
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
	if common.WidthOf(l.Text) <= w {
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
