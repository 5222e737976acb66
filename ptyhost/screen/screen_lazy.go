package screen

import "bytes"

// Lazy emulation (for the flood and streaming budgets of BENCHMARKS.md).
//
// vt10x parses about 20 MB/s here, two thirds of it in a debug logf that boxes a
// string for every rune, and it may not be patched; `cat` of a big file
// moves 70–100 MB/s through a PTY. Profiled on a 100 MB cat (ui BenchmarkFlood),
// vt10x's Write was two thirds of the reader goroutine's CPU, and with ten runs
// streaming coloured logs (ui BenchmarkStreaming) half of the process's. So a screen
// does not emulate what nobody can see: the tail of the normalised stream that is
// only text, colours and line erasures is kept unfed (pending) until something
// reads the screen (Render, State, Text, Resize) or a byte of another kind follows,
// and while it waits, a prefix that can no longer affect any state is dropped. The
// transcript, the cast and the log still get every byte; only emulation is skipped.
//
// What a pending run may hold, and why:
//   - plain bytes: printable ASCII, the cell runes of other text (screen_text.go:
//     characters, pads, keys, the feeder's marks), CR, LF, HT and BS. They write
//     cells of the cursor's line (IRM shifts the rest of it; a combining mark
//     rewrites the cell before the cursor) and move the cursor, wrapping a wide
//     character by the column alone; they change no mode, tab stop, charset,
//     saved cursor, scroll region or screen;
//   - SGR sequences: they change only the attributes the next cells get;
//   - EL (erase in line): it blanks cells of the cursor's line and moves nothing.
//
// Anything else (another sequence, another C0 control) ends the run, and the run is
// fed before it.
//
// The cut. With the scroll region the whole screen, take a pending run P and a CR at
// index c such that P[c:] holds at least 2·rows−1 LFs. From the CR on, the cursor
// column evolves the same whatever came before (CR sets it to 0 and clears the
// pending wrap; HT, BS and autowrap depend only on the column and the tab stops),
// and every LF or autowrap moves the cursor down one row or, on the last row,
// scrolls the screen up and adds a blank last row (of the background colour the pen
// has at that LF, screen_scroll.go; of the default one after an autowrap). From any
// starting row r0 the first rows−1−r0
// advances reach the last row, so at least 2·rows−1 − (rows−1) = rows scrolls
// follow: every row on the screen at the end of P[c:] was added during P[c:] and
// written only by P[c:], and the cursor ends on the last row at the same column. The
// only state P[:c] leaves that P[c:] can see is the attributes, which its SGRs set;
// an SGR whose first parameter resets them (0 or none) makes the ones before it
// irrelevant. So P[:c] is replaced by its SGRs from the last reset on, and vt10x
// ends in exactly the state all of P would have left; what P[:c] scrolled off, the
// history, goes to a tape (screen_tape.go). A stream without CRs (a raw-
// mode app printing bare LFs) is never cut, only fed late; a partial scroll region
// (DECSTBM, tracked in region) disables the cut, as rows outside the region
// never scroll away. screen_lazy_test.go checks all this against eager feeding on
// random streams and splits, and that the bounds 2·rows−1 and CR are tight.
//
// Cost: the reader goroutine only classifies bytes (a table lookup each) and counts
// LFs; vt10x sees at most lazyTrimAt·rows lines per look at the screen, about one
// screenful per 60 Hz frame of a flood, and nothing for a run nobody looks at.

// lazyTrimAt is how many screen heights of LFs a pending run may hold before it is
// cut back to 2·rows−1; twice the kept amount, so cutting costs O(1) per byte.
const lazyTrimAt = 4

// lazyMaxPending bounds the bytes kept unfed when they cannot be cut (no CR, long
// lines, a partial scroll region): past it they are fed at once.
const lazyMaxPending = 256 << 10

// plainByte marks the bytes of a pending run outside its sequences.
var plainByte = func() (t [256]bool) {
	for b := range 256 {
		t[b] = b >= 0x20 && b != 0x7f || b == '\r' || b == '\n' || b == '\t' || b == '\b'
	}
	return t
}()

// Kinds of sequence the scanner forwards, for the pending run.
const (
	vtSeqOther uint8 = iota // ends the run
	vtSeqSGR                // kept in the run; its attributes must survive a cut
	vtSeqEL                 // kept in the run; a cut may drop it
)

// lazySGRKeep bounds the SGR bytes a cut carries over from the dropped prefix: a
// stream that never resets its attributes is fed instead of cut.
const lazySGRKeep = 1 << 10

// vtLazy tracks the pending run at the end of s.out.
type vtLazy struct {
	start int // s.out[start:] is the pending run; the scanner moves start past what ends it
	sgrs  []vtMark
	seq   uint8 // the kind of the sequence the scanner forwarded last
	// oldDone is completeUTF8 of what was pending when the Write began (what was
	// counted as a change then); 0 once the Write fed it.
	oldDone int
	lfs     int // LFs in s.out[start:counted]
	counted int
	retry   int    // after a failed cut, the LF count to try again at
	gen     uint32 // counts resets, so a step can tell that it fed s.out
	keep    []byte // scratch for the SGRs a cut carries over
	// eager feeds everything at once, as before lazy emulation (tests compare both).
	eager bool
	// tape holds what cuts dropped from the run, for the history (screen_tape.go);
	// tapeEnd is where in s.out the run ended, -1 while it goes on.
	tape    *vtTape
	tapeEnd int
}

// vtMark is where an SGR sequence of the pending run lies in s.out.
type vtMark struct {
	at, end int
	reset   bool // its first parameter resets every attribute
}

// reset forgets the pending run once s.out has been fed; a tape still open stays,
// as the run goes on in what comes next.
func (l *vtLazy) reset() {
	*l = vtLazy{sgrs: l.sgrs[:0], keep: l.keep, gen: l.gen + 1, eager: l.eager, tape: l.tape, tapeEnd: -1}
}

// beginWrite notes what is pending before a Write's bytes are scanned.
func (s *Screen) beginWrite() { s.lazy.oldDone = completeUTF8(s.out) }

// afterStep places what a step of the scanner forwarded (s.out was n0 bytes long and
// the lazy state at generation gen): an SGR or EL stays in the pending run, anything
// else ends it.
func (s *Screen) afterStep(n0 int, gen uint32) {
	l := &s.lazy
	switch {
	case l.gen != gen: // the step fed s.out (answer, inAltScreen): nothing of it is pending
		l.endAt(0, len(s.out))
	case len(s.out) == n0: // nothing forwarded (yet)
	case len(s.out) > n0 && l.seq == vtSeqSGR:
		o := s.out[n0:]
		reset := len(o) > 2 && (o[2] == 'm' || o[2] == '0' && (o[3] == ';' || o[3] == 'm'))
		l.sgrs = append(l.sgrs, vtMark{at: n0, end: len(s.out), reset: reset})
	case len(s.out) > n0 && l.seq == vtSeqEL:
	default:
		l.endAt(n0, len(s.out))
	}
	l.seq = vtSeqOther
}

// endAt ends the pending run at end and starts the next at i: what comes before is
// fed at the end of the Write.
func (l *vtLazy) endAt(end, i int) {
	if l.tape != nil && l.tapeEnd < 0 {
		l.tapeEnd = end
	}
	l.start, l.sgrs, l.lfs, l.counted = i, l.sgrs[:0], 0, i
}

// settle ends a Write: it feeds everything before the pending run, cuts the run back
// when it can, and reports whether the run holds new text (a change to show).
func (s *Screen) settle() (grew bool) {
	l := &s.lazy
	if l.eager {
		s.flush()
		return false
	}
	if l.start > 0 { // s.out[:start] ends with what ended the run: a sequence or a control
		s.feedOut(l.start)
		s.out = s.out[:copy(s.out, s.out[l.start:])]
		s.scan.cell.drop(l.start, len(s.out))
		for i := range l.sgrs {
			l.sgrs[i].at -= l.start
			l.sgrs[i].end -= l.start
		}
		l.counted -= l.start
		l.start, l.oldDone = 0, 0
	}
	if l.tape != nil && l.tapeEnd == 0 { // the run ended with nothing of it left to feed
		s.closeTape()
	}
	grew = completeUTF8(s.out) > l.oldDone
	l.lfs += bytes.Count(s.out[l.counted:], []byte{'\n'})
	l.counted = len(s.out)
	if l.lfs >= max(lazyTrimAt*s.rows, l.retry) && !s.region.partial(s.rows) {
		s.cutPending()
	}
	if len(s.out) > lazyMaxPending {
		s.flush()
	}
	return grew
}

// cutPending replaces the pending run's prefix, up to the last CR that still has
// 2·rows−1 LFs after it, with the SGRs that set its final attributes (see the
// comment at the top of the file).
func (s *Screen) cutPending() {
	l := &s.lazy
	need := 2*s.rows - 1
	q := len(s.out)
	for n := 0; n < need; n++ {
		q = bytes.LastIndexByte(s.out[:q], '\n')
		if q < 0 {
			return
		}
	}
	c := bytes.LastIndexByte(s.out[:q], '\r')
	k := 0 // the marks before c
	for k < len(l.sgrs) && l.sgrs[k].at < c {
		k++
	}
	from := 0 // the last reset before c
	for i := k - 1; i >= 0; i-- {
		if l.sgrs[i].reset {
			from = i
			break
		}
	}
	keep := l.keep[:0]
	var kept []vtMark
	for _, m := range l.sgrs[from:k] {
		kept = append(kept, vtMark{at: len(keep), end: len(keep) + m.end - m.at, reset: m.reset})
		keep = append(keep, s.out[m.at:m.end]...)
	}
	l.keep = keep
	if c <= len(keep) || len(keep) > lazySGRKeep {
		l.retry = 2 * l.lfs // amortised: a stream that cannot be cut is not searched again per Write
		return
	}
	s.tapeCut(c, l.lfs-need-bytes.Count(s.out[c:q], []byte{'\n'})) // the history of what goes
	shift := len(keep) - c
	if lc := &s.scan.cell; lc.at >= c && lc.end > lc.at {
		lc.at, lc.end = lc.at+shift, lc.end+shift
	} else {
		*lc = vtLastCell{}
	}
	s.out = s.out[:len(keep)+copy(s.out[len(keep):], s.out[c:])]
	copy(s.out, keep)
	rest := l.sgrs[k:]
	for i := range rest {
		rest[i].at += shift
		rest[i].end += shift
	}
	l.sgrs = append(append(l.sgrs[:0], kept...), rest...)
	l.lfs, l.counted, l.retry = bytes.Count(s.out, []byte{'\n'}), len(s.out), 0
}

// catchUp feeds the pending run, for a reader of the screen; mu is held. Plain text
// draws no answers from vt10x, so replies (which belong to Write) stay untouched, and
// feed recovers from a panic in vt10x.
func (s *Screen) catchUp() {
	if len(s.out) > 0 {
		s.flush()
	}
}
