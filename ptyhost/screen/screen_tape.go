package screen

import (
	"bytes"
	"strconv"

	"github.com/hinshun/vt10x"
)

// Tapes: the history of what the lazy emulation did not feed. A cut (screen_lazy.go)
// drops text that has scrolled off the screen by the end of the pending run: lines
// tmux keeps in its history. Turning them into lines as they are cut would cost an
// emulator on every byte of a flood, which the cut exists to avoid; so they are kept
// as bytes, and replayed into a scratch emulator when the history is read.
//
// A replay needs the state the bytes were written from. At a run's first cut the
// run is fed up to its first line feed that scrolls (at most a screenful: the cursor
// starts at most rows−1 lines above the last one), and the tape starts right after
// it, where that state is small: the cursor is on the last line, which the line feed
// has just blanked with the pen's background, at a known column. A pending run is
// plain text, colours and line erasures (screen_lazy.go), which write only the
// cursor's line, and its cursor never leaves the last line again: so the rows above
// are final, go into the history at once, and the replay starts from a blank screen
// with that last line, the pen, the modes and the tab stops, skipping the rows−1
// blank lines it scrolls off first. While the tape is open, what the live emulator
// is fed of the run (the part a cut kept) is fed muted, as the tape holds it too; the
// tape closes where the run ends, or at a read of the history or a resize, after
// which the live emulator's own scrolling is the history again. The cut's proof
// makes the live screen right from any starting state, so feeding part of the run
// before the tape does not disturb it.
//
// A tape left open by a flood nobody reads is cut back as the pending run is: to a
// CR with limit+rows line feeds after it, the SGRs before it, and a replay that
// starts on an unknown screen and so skips rows lines; everything older in the
// history is then older than limit lines and goes.

// vtTape is the bytes of one run that the live emulator did not feed in full.
type vtTape struct {
	cols, rows int
	x          int         // the cursor's column where the tape starts; its line is the last
	pen        vt10x.Glyph // vt10x's pen there
	wrap, lnm  bool
	tabs       tabStops
	skip       int  // lines the replay scrolls off before the tape's own
	tapeBytes       // the bytes (screen_tape_bytes.go)
	lost       bool // too many lines without a CR to cut back at: given up
}

// lines is how many lines the replay gives at least: every line feed scrolls.
func (t *vtTape) lines() int { return t.lfs - t.skip }

// feedOut feeds s.out[:n]: the part that belongs to an open tape muted, closing the
// tape where its run ended.
func (s *Screen) feedOut(n int) {
	l := &s.lazy
	if l.tape == nil {
		s.feed(s.out[:n])
		return
	}
	end := n
	if l.tapeEnd >= 0 {
		end = min(l.tapeEnd, n)
	}
	s.feedMuted(s.out[:end])
	if l.tapeEnd < 0 || l.tapeEnd > n {
		return
	}
	s.closeTape()
	s.feed(s.out[end:n])
}

// feedMuted feeds what an open tape holds, and adds it to the tape.
func (s *Screen) feedMuted(p []byte) {
	s.hist.mute = true
	s.feed(p)
	s.hist.mute = false
	s.lazy.tape.add(p, bytes.Count(p, []byte{'\n'}), s.hist.limit)
}

// closeTape ends the open tape; what comes next is fed as it comes.
func (s *Screen) closeTape() {
	if t := s.lazy.tape; t != nil && t.lines() >= s.hist.limit {
		s.hist.dropBefore(t) // the tape alone fills the history
	}
	s.lazy.tape, s.lazy.tapeEnd = nil, -1
}

// tapeCut keeps the history of the first c bytes of the pending run, which hold lfs
// line feeds and which a cut is about to drop: on the open tape, or, at a run's
// first cut, by feeding the run up to its first scrolling line feed and opening a
// tape there.
func (s *Screen) tapeCut(c, lfs int) {
	if l := &s.lazy; l.tape != nil {
		l.tape.add(s.out[:c], lfs, s.hist.limit)
		return
	}
	if !s.keeping() || s.term.Mode()&vt10x.ModeAltScreen != 0 {
		return
	}
	q := s.feedToScroll(c)
	if q == c {
		return // nothing scrolled: the live emulator has all of it
	}
	cur, m := s.term.Cursor(), s.term.Mode()
	t := &vtTape{cols: s.cols, rows: s.rows, x: cur.X, pen: cur.Attr, skip: s.rows - 1,
		wrap: m&vt10x.ModeWrap != 0, lnm: m&vt10x.ModeCRLF != 0, tabs: append(tabStops(nil), s.tabs...)}
	s.keepRows(0, s.rows-1)
	t.add(s.out[q:c], bytes.Count(s.out[q:c], []byte{'\n'}), s.hist.limit)
	s.hist.tapes = append(s.hist.tapes, histTape{at: s.hist.total, t: t})
	s.lazy.tape, s.lazy.tapeEnd = t, -1
}

// feedToScroll feeds s.out[:c] up to and including its first line feed that
// scrolls, and returns where it stopped (c when none does).
func (s *Screen) feedToScroll(c int) int {
	for from := 0; ; {
		i := bytes.IndexByte(s.out[from:c], '\n')
		if i < 0 {
			s.feed(s.out[from:c])
			return c
		}
		i += from
		s.feed(s.out[from:i])
		scrolls := s.term.Cursor().Y == s.region.bottom
		s.feed(s.out[i : i+1])
		if from = i + 1; scrolls {
			return from
		}
	}
}

// replay turns a tape into the lines it scrolled off, in a scratch screen that
// shares this one's cell table (the tape's keys are marked live: collect).
func (s *Screen) replay(t *vtTape) []string {
	if t.lost {
		return nil
	}
	r := &Screen{cols: t.cols, rows: t.rows, cells: s.cells}
	r.term = r.newTerm()
	r.hist.limit = t.lfs + t.rows + t.size() // every line it can scroll off
	r.safely(func() { _, _ = r.term.Write(tapeStart(t)) })
	t.each(r.feed)
	lines := r.hist.kept()
	return lines[min(t.skip, len(lines)):]
}

// tapeStart is what sets a new emulator to where a tape starts: its tab stops and
// modes, the last line blank in the pen's background, the pen, the cursor on that
// line.
func tapeStart(t *vtTape) []byte {
	b := appendTabs(nil, t.tabs)
	if !t.wrap {
		b = append(b, "\x1b[?7l"...)
	}
	if t.lnm {
		b = append(b, "\x1b[20h"...)
	}
	b = appendBackground(b, t.pen.BG)
	b = append(strconv.AppendInt(append(b, "\x1b["...), int64(t.rows), 10), ";1H\x1b[2K"...)
	b = appendPen(b, t.pen)
	if t.pen.Mode&glyphGfx != 0 {
		b = append(b, "\x1b(0"...)
	}
	b = strconv.AppendInt(append(b, "\x1b["...), int64(t.rows), 10)
	return append(strconv.AppendInt(append(b, ';'), int64(t.x+1), 10), 'H')
}
