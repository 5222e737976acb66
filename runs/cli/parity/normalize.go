package parity

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	ansiparser "github.com/charmbracelet/x/ansi/parser"
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
// runes) across pieces, and hands on the runes that remain. x/ansi's parser (DEC's
// VT500 state machine, as xterm's) reads the sequences, so a sequence it does not know
// is still removed whole, a control inside one acts as in a terminal, BEL ends an OSC
// but no DCS, APC, PM or SOS, and CAN or SUB abandons any. Around it, bytes that are not
// UTF-8 show as U+FFFD, as a UTF-8 terminal shows them: 0x80–0x9F are not taken for
// 8-bit C1 controls (one in a binary's output would swallow text), and a character cut
// by a byte that cannot continue it ends there, that byte read anew (an ESC after a
// stray lead byte still starts its sequence).
type parser struct {
	ap   *ansi.Parser // made by the first feed
	emit func(rune)
}

func (p *parser) feed(data []byte, emit func(rune)) {
	if p.ap == nil {
		p.ap = new(ansi.Parser)
		p.ap.SetParamsSize(ansiparser.MaxParamsSize)
		p.ap.SetDataSize(1) // payloads are dropped unread; 0 would mean unbounded
		p.ap.SetHandler(ansi.Handler{Print: p.print, Execute: p.execute})
	}
	p.emit = emit
	for _, c := range data {
		p.step(c)
	}
}

func (p *parser) step(c byte) {
	st := p.ap.State()
	if st == ansiparser.Utf8State && utf8.RuneStart(c) { // c cannot continue the character
		p.ap.Reset()
		p.emit(utf8.RuneError)
		st = ansiparser.GroundState
	}
	if st == ansiparser.GroundState && c >= utf8.RuneSelf && (c < 0xc2 || c > 0xf4) { // no first byte of UTF-8
		p.emit(utf8.RuneError)
		return
	}
	p.ap.Advance(c)
}

func (p *parser) print(r rune) { p.emit(r) }

// execute hands on the controls a line is made of (LF, CR, BS, TAB…) but BEL, NUL, SO
// and SI (Rules), and the ESC x/ansi executes for the first of two in a row.
func (p *parser) execute(c byte) {
	switch {
	case c == 0x07, c == 0x00, c == 0x0e, c == 0x0f, c == 0x1b:
	case c >= utf8.RuneSelf: // an 8-bit C1 control inside a sequence: not UTF-8
		p.emit(utf8.RuneError)
	default:
		p.emit(rune(c))
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
