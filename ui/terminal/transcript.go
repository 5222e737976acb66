package terminal

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"corral/ptyhost"
	"corral/runs"
	"corral/runs/filetail"
	"corral/ui/common"
)

// HistLine is one line of a run's history as plain text; Err marks a pipe run's stderr.
// Its colours, if it has any, are kept apart (Styled draws them), so search and copy
// read the text.
type HistLine struct {
	Text  string
	Err   bool
	spans []penSpan // nil for a line without colour (sgr.go)
}

// History bounds: a transcript is read from its last MaxHistoryBytes, and at most
// maxHistoryLines lines (of at most maxLineRunes each) are kept.
const (
	MaxHistoryBytes = 8 << 20
	maxHistoryLines = 100_000
	maxLineRunes    = 2000
)

// textConv turns raw terminal output into the text lines a terminal would have shown,
// line by line: escape sequences and controls are dropped, CR and BS overwrite, a
// cursor jump to another row (as full-screen apps redraw) starts a new line; the SGR
// pen of each character is kept (sgr.go). It is a reading aid for scrollback and
// search, not an emulator.
type textConv struct {
	lines  []HistLine
	cur    []rune
	pens   []pen // cur's pens
	pen    pen   // the pen now
	col    int
	err    bool // the current line came from stderr
	st     convState
	params []byte
}

type convState uint8

const (
	stGround convState = iota
	stEsc
	stEscSkip // one more byte of a charset designation
	stCSI
	stString    // OSC, DCS, APC, PM, SOS: until BEL or ST
	stStringEsc // ESC inside a string
)

func (c *textConv) write(p []byte, errStream bool) {
	for len(p) > 0 {
		r, n := utf8.DecodeRune(p)
		p = p[n:]
		if c.st != stGround || r == 0x1b {
			c.escape(r)
			continue
		}
		c.ground(r, errStream)
	}
}

func (c *textConv) ground(r rune, errStream bool) {
	switch {
	case r == '\n':
		c.newline()
	case r == '\r':
		c.col = 0
	case r == '\b':
		c.col = max(c.col-1, 0)
	case r == '\t':
		c.col = (c.col/8 + 1) * 8
	case r == utf8.RuneError || common.IsControl(r):
	default:
		c.put(r, errStream)
	}
}

func (c *textConv) put(r rune, errStream bool) {
	if c.col >= maxLineRunes {
		return
	}
	if len(c.cur) == 0 {
		c.err = errStream
	}
	for len(c.cur) < c.col {
		c.cur, c.pens = append(c.cur, ' '), append(c.pens, pen{})
	}
	if c.col < len(c.cur) {
		c.cur[c.col], c.pens[c.col] = r, c.pen
	} else {
		c.cur, c.pens = append(c.cur, r), append(c.pens, c.pen)
	}
	c.col++
}

func (c *textConv) newline() {
	text, spans := c.line()
	c.lines = append(c.lines, HistLine{Text: text, Err: c.err, spans: spans})
	if len(c.lines) > 2*maxHistoryLines {
		c.lines = append(c.lines[:0:0], c.lines[len(c.lines)-maxHistoryLines:]...)
	}
	c.cur, c.pens, c.col, c.err = c.cur[:0], c.pens[:0], 0, false
}

// line is the current line's text and where its pen changes (nil if it has no colour).
func (c *textConv) line() (string, []penSpan) {
	if !slices.ContainsFunc(c.pens, func(p pen) bool { return p != pen{} }) {
		return string(c.cur), nil // most lines: no colour, one allocation
	}
	var b strings.Builder
	b.Grow(len(c.cur))
	var spans []penSpan
	prev := pen{}
	for i, r := range c.cur {
		if c.pens[i] != prev {
			spans = append(spans, penSpan{at: b.Len(), pen: c.pens[i]})
			prev = c.pens[i]
		}
		b.WriteRune(r)
	}
	return b.String(), spans
}

func (c *textConv) escape(r rune) {
	switch c.st {
	case stGround:
		c.st = stEsc
	case stEsc:
		c.st = stGround
		switch r {
		case '[':
			c.st, c.params = stCSI, c.params[:0]
		case ']', 'P', 'X', '^', '_':
			c.st = stString
		case '(', ')', '*', '+', '#', '%':
			c.st = stEscSkip
		}
	case stEscSkip:
		c.st = stGround
	case stCSI:
		if r >= 0x40 && r <= 0x7e {
			c.st = stGround
			c.csi(byte(r))
		} else if r < 0x80 {
			c.params = append(c.params, byte(r))
		}
	case stString:
		if r == 0x07 {
			c.st = stGround
		} else if r == 0x1b {
			c.st = stStringEsc
		}
	case stStringEsc:
		c.st = stString
		if r == '\\' {
			c.st = stGround
		}
	}
}

// csi applies the few sequences that change what a line reads.
func (c *textConv) csi(final byte) {
	n := csiParam(c.params)
	switch final {
	case 'H', 'f', 'd', 'J': // another row, or the screen cleared
		if len(c.cur) > 0 {
			c.newline()
		}
	case 'K':
		switch n {
		case 0:
			c.cur, c.pens = c.cur[:min(c.col, len(c.cur))], c.pens[:min(c.col, len(c.cur))]
		case 2:
			c.cur, c.pens = c.cur[:0], c.pens[:0]
		}
	case 'm':
		if len(c.params) == 0 || c.params[0] >= '0' && c.params[0] <= '9' { // not CSI > … m
			c.pen = c.pen.sgr(c.params)
		}
	case 'C':
		c.col += max(n, 1)
	case 'D':
		c.col = max(c.col-max(n, 1), 0)
	case 'G':
		c.col = max(n-1, 0)
	}
}

// csiParam is the first numeric parameter (0 if none).
func csiParam(p []byte) int {
	if i := bytes.IndexAny(p, ";:"); i >= 0 {
		p = p[:i]
	}
	n, _ := strconv.Atoi(string(bytes.TrimLeft(p, "?<>=")))
	return min(n, maxLineRunes)
}

func (c *textConv) finish() []HistLine {
	if len(c.cur) > 0 {
		c.newline()
	}
	if len(c.lines) > maxHistoryLines {
		c.lines = c.lines[len(c.lines)-maxHistoryLines:]
	}
	return c.lines
}

// HistoryText converts raw bytes to lines.
func HistoryText(p []byte) []HistLine {
	// Sized once: growing 100k lines by doubling was a third of the time (pprof).
	c := textConv{lines: make([]HistLine, 0, min(bytes.Count(p, []byte{'\n'})+1, 2*maxHistoryLines))}
	c.write(p, false)
	return c.finish()
}

// ScreenHistory converts a screen's history and rows (Render's lines) to lines,
// without the blank rows below the last that shows anything.
func ScreenHistory(lines []string) []HistLine {
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	c := textConv{lines: make([]HistLine, 0, len(lines))}
	for _, l := range lines {
		c.write([]byte(l), false)
		c.newline()
	}
	return c.lines
}

// HistoryOutput converts a captured log (stream-marked chunks) to lines.
func HistoryOutput(o runs.Output) []HistLine {
	var c textConv
	for _, ch := range o.Chunks {
		c.write(ch.Data, ch.Stream == ptyhost.Stderr)
	}
	return c.finish()
}

// ReadTail reads the last limit bytes of a transcript, starting after the first
// newline when it had to cut (the cut line would read wrong): from the one before it
// (PATH.1, as a full transcript is moved aside) too when the current one holds less.
func ReadTail(path string, limit int64) ([]byte, error) {
	b, err := filetail.Read(os.Open, path, limit, true)
	if err != nil {
		return nil, err
	}
	return b, nil
}
