package screen

import (
	"slices"
	"strings"

	"github.com/hinshun/vt10x"
)

// History: the lines that leave the main screen, as tmux keeps them (its grid's
// history, what `capture-pane -S -` prints above the screen and copy mode scrolls
// and searches). vt10x has none: its scrollUp rotates lines inside the screen and
// blanks them. So the scroll follower (screen_scroll.go) stops before everything
// that moves a line out of the screen and renders that line here first. What tmux
// 3.3a puts into its history, and so what goes here (grid-view.c, screen-write.c):
//
//   - the scroll region's top line, whenever the region scrolls up: a line feed on
//     its last line (LF, VT, FF, IND, NEL, an autowrap, the feeder's wrap before a
//     wide character) or SU, even when the region is smaller than the screen;
//   - with ED 2, and ED 0 with the cursor home, the screen's lines down to the last
//     one in use (its option scroll-on-clear, on by default), also at RIS;
//   - when the screen gets shorter, the lines that leave its top (vt10x's slide
//     equals tmux's: both keep the cursor's line on the screen);
//
// and ED 3 empties it. Nothing goes there from the alternate screen. A line is kept
// as Render draws it, without the default blanks at its end, so that it needs no
// emulator to be read and no cell keys stay alive for it. What the lazy emulation
// did not feed is kept as tapes (screen_tape.go), turned into lines when read.

// vtHistory holds at most limit lines, oldest first; limit 0 keeps none.
type vtHistory struct {
	limit int
	lines []string // lines[start:] are kept
	start int
	total int // lines ever pushed: the number the next one gets
	// tapes are not replayed yet; each sits before the line numbered at.
	tapes []histTape
	mute  bool // the feeder is feeding what a tape holds (screen_tape.go)
}

type histTape struct {
	at int
	t  *vtTape
}

// push adds a line, dropping the oldest beyond the limit.
func (h *vtHistory) push(line string) {
	h.lines = append(h.lines, line)
	h.total++
	h.trim()
}

// trim drops the oldest lines beyond the limit, and the tapes older than them.
func (h *vtHistory) trim() {
	if extra := len(h.kept()) - h.limit; extra > 0 {
		clear(h.lines[h.start : h.start+extra])
		h.start += extra
	}
	if h.start > h.limit && h.start > len(h.lines)/2 { // amortised: each line moves at most twice
		h.lines = h.lines[:copy(h.lines, h.lines[h.start:])]
		h.start = 0
	}
	for len(h.tapes) > 0 && h.tapes[0].at < h.total-h.limit {
		h.tapes = h.tapes[1:]
	}
}

func (h *vtHistory) kept() []string { return h.lines[h.start:] }

// clear empties the history (ED 3).
func (h *vtHistory) clear() { h.lines, h.start, h.tapes = h.lines[:0], 0, nil }

// setLimit changes the limit, dropping the oldest lines beyond it.
func (h *vtHistory) setLimit(n int) {
	h.limit = max(n, 0)
	h.trim()
}

// insert puts lines where a tape sat, before the line numbered at.
func (h *vtHistory) insert(at int, lines []string) {
	first := h.total - len(h.kept())
	i := h.start + max(at-first, 0)
	h.lines = slices.Insert(h.lines, i, lines...)
	h.total += len(lines)
	for k := range h.tapes {
		h.tapes[k].at += len(lines)
	}
}

// dropBefore drops every line and tape older than tape t.
func (h *vtHistory) dropBefore(t *vtTape) {
	for i, ht := range h.tapes {
		if ht.t != t {
			continue
		}
		first := h.total - len(h.kept())
		n := min(max(ht.at-first, 0), len(h.kept()))
		clear(h.lines[h.start : h.start+n])
		h.start += n
		h.tapes = h.tapes[i:]
		return
	}
}

// dropTapes forgets the tapes not replayed (a restarted emulator's cell table no
// longer has their keys).
func (h *vtHistory) dropTapes() { h.tapes = nil }

// replayTapes turns every tape into its lines, in place.
func (s *Screen) replayTapes() {
	h := &s.hist
	for len(h.tapes) > 0 {
		ht := h.tapes[0]
		h.tapes = h.tapes[1:]
		h.insert(ht.at, s.replay(ht.t))
	}
	h.trim()
}

// keeping reports whether lines that leave the screen now go into the history.
func (s *Screen) keeping() bool { return s.hist.limit > 0 && !s.hist.mute }

// keepRows puts rows [from, to) of the screen into the history, unless vt10x shows
// the alternate screen.
func (s *Screen) keepRows(from, to int) {
	if !s.keeping() || s.term.Mode()&vt10x.ModeAltScreen != 0 {
		return
	}
	for y := from; y < to; y++ {
		s.hist.push(s.rowLine(y))
	}
}

// keepUsedRows is ED 2's (and ED 0's from home) scroll-on-clear: the rows down to
// the last one holding anything. tmux counts a row written at all, even with spaces
// alone, as in use; here a row of blanks of the default style is not.
func (s *Screen) keepUsedRows() {
	last := s.rows
	for last > 0 && s.usedCols(last-1) == 0 {
		last--
	}
	s.keepRows(0, last)
}

// SetHistoryLimit sets how many lines that leave the screen are kept (0: none, the
// default of a new screen).
func (s *Screen) SetHistoryLimit(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hist.setLimit(n)
}

// Scrollback returns what tmux's `capture-pane -p -e -S -` prints for the same
// bytes: the history, oldest first, then the screen's rows, each as Render draws it
// without the blanks of the default style at its end.
func (s *Screen) Scrollback() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp()
	s.closeTape()
	s.replayTapes()
	out := append(make([]string, 0, len(s.hist.kept())+s.rows), s.hist.kept()...)
	for y := range s.rows {
		out = append(out, s.rowLine(y))
	}
	return out
}

// eraseHistory does what an erasing sequence (as the scanner writes them) does to
// the history before it runs: ED 2, and ED 0 from home, keep the screen's lines in
// use; ED 3 empties the history; SU n keeps the region's first n lines.
func (s *Screen) eraseHistory(seq []byte) {
	if len(seq) < 3 || seq[1] != '[' {
		return
	}
	final, arg := seq[len(seq)-1], csiArg(seq[2:len(seq)-1])
	switch {
	case final == 'J' && arg == 3:
		s.hist.clear()
	case final == 'J' && (arg == 2 || arg == 0 && s.atHome()):
		s.keepUsedRows()
	case final == 'S':
		r := s.region
		s.keepRows(r.top, r.top+min(max(arg, 1), r.bottom-r.top+1))
	}
}

// atHome reports whether the cursor is in the first column of the first line.
func (s *Screen) atHome() bool {
	cur := s.term.Cursor()
	return cur.X == 0 && cur.Y == 0 && cur.State&vtWrapNext == 0
}

// csiArg is the first parameter of a sequence the scanner wrote ("" is 0); a private
// one ("?…") is -1.
func csiArg(params []byte) int {
	n := 0
	for _, b := range params {
		switch {
		case b >= '0' && b <= '9':
			n = n*10 + int(b-'0')
		case b == ';':
			return n
		default:
			return -1
		}
	}
	return n
}

// Plain is a line of Render or Scrollback without its SGR sequences.
func Plain(line string) string {
	if strings.IndexByte(line, vtESC) < 0 {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		if line[i] != vtESC {
			b.WriteByte(line[i])
			continue
		}
		for i < len(line) && line[i] != 'm' { // Render writes ESC [ … m alone
			i++
		}
	}
	return b.String()
}
