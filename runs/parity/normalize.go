package parity

import (
	"strings"
	"unicode/utf8"
)

// Rules are the normalization rules, in the order they apply, for --help and the README.
var Rules = []string{
	"escape sequences are removed: CSI (colours, cursor movement), OSC (titles, links), DCS/APC/PM/SOS strings, and two-byte ESC sequences (charset selection, keypad modes)",
	"BEL, NUL, SO and SI are removed",
	"CRLF (the PTY's output processing) and CR CR LF become LF",
	"a line rewritten with carriage returns or backspaces (progress bars, spinners) keeps what a terminal would show: the last text written over each column",
	"the PTY's echo of --input is removed: each input line, with its line end, the first time it appears after the previous one",
	"pipe output is stdout and stderr in the order they were read; lines that came from stderr are marked in the diff, not in the comparison",
}

// line is one line of normalized output; stderr says whether any of it came from a
// pipe run's stderr.
type line struct {
	text   string
	stderr bool
}

// piece is a stretch of output from one stream.
type piece struct {
	data   []byte
	stderr bool
}

// normalize applies Rules to a run's output pieces and splits it into lines. The
// last line is kept even without a line end, marked by noEOL.
func normalize(pieces []piece) (lines []line, noEOL bool) {
	var cur lineBuf
	var p parser
	for _, pc := range pieces {
		p.feed(pc.data, func(r rune) {
			switch r {
			case '\n':
				lines = append(lines, line{text: cur.String(), stderr: cur.stderr})
				cur.reset()
			default:
				cur.put(r, pc.stderr)
			}
		})
	}
	if !cur.empty() {
		lines = append(lines, line{text: cur.String(), stderr: cur.stderr})
		noEOL = true
	}
	return lines, noEOL
}

// lineBuf is one line as a terminal would show it: a carriage return moves the column
// back to the start, a backspace one column back, and a rune overwrites the column it
// lands on. A CR right before LF is what turns LF into CRLF and changes nothing.
type lineBuf struct {
	cells  []rune
	col    int
	stderr bool
	wrote  bool
}

func (b *lineBuf) put(r rune, stderr bool) {
	b.wrote = true
	b.stderr = b.stderr || stderr
	switch r {
	case '\r':
		b.col = 0
	case '\b':
		if b.col > 0 {
			b.col--
		}
	default:
		if b.col < len(b.cells) {
			b.cells[b.col] = r
		} else {
			b.cells = append(b.cells, r)
		}
		b.col++
	}
}

func (b *lineBuf) String() string { return string(b.cells) }
func (b *lineBuf) empty() bool    { return !b.wrote }
func (b *lineBuf) reset()         { *b = lineBuf{cells: b.cells[:0]} }

// parser removes escape sequences from a byte stream that may split them (and UTF-8
// runes) across pieces, and hands on the runes that remain. It follows ECMA-48's
// shapes, not any terminal's repertoire: a sequence it does not know is still
// removed whole.
type parser struct {
	state   int
	pending []byte // an incomplete UTF-8 rune
}

const (
	stText   = iota
	stEsc    // after ESC
	stEscInt // ESC and intermediates (0x20–0x2F), waiting for the final byte
	stCSI    // ESC [ … waiting for a final byte 0x40–0x7E
	stString // OSC/DCS/APC/PM/SOS body, ended by BEL (OSC) or ST (ESC \)
	stStrEsc // ESC inside a string: ST if '\' follows
)

func (p *parser) feed(data []byte, emit func(rune)) {
	for _, c := range data {
		p.step(c, emit)
	}
}

func (p *parser) step(c byte, emit func(rune)) {
	switch p.state {
	case stEsc:
		p.afterEsc(c)
	case stEscInt:
		if c < 0x20 || c > 0x2f {
			p.state = stText
		}
	case stCSI:
		if c >= 0x40 && c <= 0x7e {
			p.state = stText
		}
	case stString:
		switch c {
		case 0x07:
			p.state = stText
		case 0x1b:
			p.state = stStrEsc
		}
	case stStrEsc:
		p.state = stString
		if c == '\\' {
			p.state = stText
		}
	default:
		p.text(c, emit)
	}
}

func (p *parser) afterEsc(c byte) {
	switch {
	case c == '[':
		p.state = stCSI
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		p.state = stString
	case c >= 0x20 && c <= 0x2f:
		p.state = stEscInt
	default: // a two-byte sequence (ESC 7, ESC =, ESC M …): done
		p.state = stText
	}
}

func (p *parser) text(c byte, emit func(rune)) {
	if len(p.pending) > 0 || c >= utf8.RuneSelf {
		p.pending = append(p.pending, c)
		if utf8.FullRune(p.pending) {
			r, _ := utf8.DecodeRune(p.pending)
			p.pending = p.pending[:0]
			emit(r)
		}
		return
	}
	switch c {
	case 0x1b:
		p.state = stEsc
	case 0x07, 0x00, 0x0e, 0x0f:
	default:
		emit(rune(c))
	}
}

// removeEcho removes the PTY's echo of input: each input line with its line end, the
// first time it appears as the end of an output line after the previous one's. A line
// the terminal did not echo (a password prompt turned echo off) is not found and
// removes nothing. It returns how many input lines were found.
func removeEcho(lines []line, input string) ([]line, int) {
	want := strings.Split(strings.ReplaceAll(input, "\r\n", "\n"), "\n")
	if want[len(want)-1] == "" {
		want = want[:len(want)-1]
	}
	out := append([]line(nil), lines...)
	found, from := 0, 0
	for _, w := range want {
		for i := from; i < len(out); i++ {
			if strings.HasSuffix(out[i].text, w) {
				out[i].text = strings.TrimSuffix(out[i].text, w)
				if out[i].text == "" {
					out = append(out[:i], out[i+1:]...)
				} else if i+1 < len(out) {
					// The echo ended the line early: what the program printed after it
					// on the next line is the rest of this one, as a pipe shows it.
					out[i].text += out[i+1].text
					out = append(out[:i+1], out[i+2:]...)
				}
				found, from = found+1, i
				break
			}
		}
	}
	return out, found
}
