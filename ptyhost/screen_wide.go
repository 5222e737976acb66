package ptyhost

import (
	"bytes"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// The feeder: what of a cell's placement depends on the cursor, which only
// vt10x knows, and so is done as the normalised stream is fed (issue 10 items
// 1 and 3). The rules are tmux's (3.3a, checked against it):
//   - a wide character that would start in the last column wraps to the next
//     line first, leaving that column as it was; without autowrap (DECAWM off)
//     it is dropped. vt10x would put its two halves on two lines;
//   - in insert mode (IRM, which vt10x ignores) a cell first shifts the rest of
//     the line right by its width (ICH), except when the cursor waits to wrap:
//     the cell then goes to the next line without inserting there;
//   - a combining mark that came after its cell was fed rewrites that cell,
//     which is just before the cursor (or under it, when it waits to wrap).
//
// A wide character or a half of one that something else overwrote, erased or
// cut off is not repaired here: Render draws such a half as a blank, which is
// what a terminal shows.

// vtWrapNext is vt10x's cursorWrapNext (state.go): the cursor is in the last
// column with a character written there, and the next one wraps first.
const vtWrapNext = 1 << 1

// noMark is a position past any slice: no mark of that kind is left.
const noMark = math.MaxInt

// feedCells writes p to vt10x, handling the marks and wide characters in it.
// It finds each kind of mark once per occurrence, so a stream full of one kind
// costs no rescans for the other.
func (s *Screen) feedCells(p []byte) {
	ins, pad := -1, -1 // next mark and pad in p; -1: not searched yet
	for len(p) > 0 {
		if ins < 0 {
			ins = indexOr(bytes.IndexAny(p, "\x01\x02"))
		}
		if pad < 0 {
			pad = indexPad(p)
		}
		var used int
		switch {
		case ins == noMark && pad == noMark:
			_, _ = s.term.Write(p)
			return
		case ins < pad && p[ins] == vtInsertMark:
			s.write(p[:ins])
			s.insertCell(p[ins+1:])
			used = ins + 1
		case ins < pad:
			s.write(p[:ins])
			used = ins + 1 + s.recombine(p[ins+1:])
		default:
			_, n := utf8.DecodeLastRune(p[:pad])
			s.write(p[:pad-n])
			if s.wideFits() {
				s.write(p[pad-n : pad+len(vtPadUTF8)])
			}
			used = pad + len(vtPadUTF8)
		}
		p = p[used:]
		ins, pad = follow(ins, used), follow(pad, used)
	}
}

// follow moves a mark position past used bytes: -1 (search again) when the
// mark was among them.
func follow(at, used int) int {
	switch {
	case at == noMark:
		return noMark
	case at >= used:
		return at - used
	}
	return -1
}

func indexOr(i int) int {
	if i < 0 {
		return noMark
	}
	return i
}

// indexPad finds the next vtPad in p. Keys share its first byte.
func indexPad(p []byte) int {
	for off := 0; ; {
		i := bytes.IndexByte(p[off:], vtPadUTF8[0])
		if i < 0 {
			return noMark
		}
		if bytes.HasPrefix(p[off+i:], []byte(vtPadUTF8)) {
			return off + i
		}
		off += i + 1
	}
}

func (s *Screen) write(p []byte) {
	if len(p) > 0 {
		_, _ = s.term.Write(p)
	}
}

// wideFits makes room for a wide character at the cursor and reports whether
// it is to be written.
func (s *Screen) wideFits() bool {
	cur := s.term.Cursor()
	wrap := s.term.Mode()&vt10x.ModeWrap != 0
	switch {
	case s.cols < 2:
		return false
	case cur.State&vtWrapNext != 0 && wrap, cur.X < s.cols-1:
		return true // vt10x wraps first by itself, or both halves fit
	case !wrap:
		return false
	}
	_, _ = s.term.Write([]byte("\r\n")) // what vt10x's own wrap does (newline to column 0)
	return true
}

// insertCell makes room for the cell at the start of p (insert mode).
func (s *Screen) insertCell(p []byte) {
	if len(p) == 0 {
		return
	}
	if s.term.Cursor().State&vtWrapNext != 0 && s.term.Mode()&vt10x.ModeWrap != 0 {
		return
	}
	_, n := utf8.DecodeRune(p)
	w := 1
	if bytes.HasPrefix(p[n:], []byte(vtPadUTF8)) {
		w = 2
	}
	_, _ = s.term.Write(append(strconv.AppendInt([]byte("\x1b["), int64(w), 10), '@'))
}

// recombine writes the cell after the rune at the start of p over the last
// cell written, before the cursor, when that holds the rune; it returns the
// bytes it used: the rune, the cell rune and its pad.
func (s *Screen) recombine(p []byte) int {
	old, n0 := utf8.DecodeRune(p)
	r, n := utf8.DecodeRune(p[n0:])
	_, w := s.cells.lookup(r)
	n += n0
	if bytes.HasPrefix(p[n:], []byte(vtPadUTF8)) {
		n += len(vtPadUTF8)
	}
	cur := s.term.Cursor()
	end := cur.X - 1
	if cur.State&vtWrapNext != 0 {
		end = cur.X
	}
	at := end - (w - 1)
	if at < 0 || s.term.Cell(at, cur.Y).Char != old || (w == 2 && s.term.Cell(end, cur.Y).Char != vtPad) {
		return n
	}
	cha := append(strconv.AppendInt([]byte("\x1b["), int64(at+1), 10), 'G')
	_, _ = s.term.Write(append(cha, p[n0:n]...))
	return n
}
