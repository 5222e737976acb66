package screen

import "bytes"

// A tape's bytes (screen_tape.go), as the pieces they were added in: a cut's
// dropped text, or what the live emulator was fed of the run muted. Each piece
// begins and ends between whole characters and sequences, so each can be fed on
// its own; cutting the tape back drops whole pieces and moves nothing, and the
// pieces dropped are used again for new ones.

// tapeBytes are pieces[0][first:] and the pieces after it, after the SGRs of head.
type tapeBytes struct {
	head   []byte // the SGRs that set the pen where the bytes start, after a trim
	pieces []tapePiece
	first  int
	lfs    int      // line feeds in the bytes
	spare  [][]byte // pieces dropped, for new ones
}

type tapePiece struct {
	b   []byte
	lfs int // in b[first:] for the first piece, else in b
}

// each calls f with the head and every piece, in order.
func (t *tapeBytes) each(f func([]byte)) {
	f(t.head)
	for i, p := range t.pieces {
		f(p.b[t.start(i):])
	}
}

// size is the bytes' length.
func (t *tapeBytes) size() int {
	n := len(t.head) - t.first
	for _, p := range t.pieces {
		n += len(p.b)
	}
	return n
}

// add appends a copy of p, which holds lfs line feeds, cutting the tape back when
// it holds three times the line feeds the history needs.
func (t *vtTape) add(p []byte, lfs, limit int) {
	if t.lost || len(p) == 0 {
		return
	}
	t.pieces = append(t.pieces, tapePiece{b: append(t.piece(len(p)), p...), lfs: lfs})
	t.lfs += lfs
	if keep := limit + t.rows; t.lfs > 3*keep+64 && !t.trim(keep) && t.lfs > 6*keep {
		// Bare line feeds with no CR to start a replay at (a raw-mode program's
		// lines after a flood of CRLF ones, in one run): its lines are lost to
		// the history rather than kept without bound.
		t.lost, t.tapeBytes = true, tapeBytes{}
	}
}

// piece returns an empty buffer for n bytes: a spare one, or a new one rounded up
// to a multiple of tapeGrain so that it can serve again for a piece a bit longer.
func (t *tapeBytes) piece(n int) []byte {
	for i := len(t.spare) - 1; i >= 0; i-- {
		if b := t.spare[i]; cap(b) >= n {
			t.spare[i] = t.spare[len(t.spare)-1]
			t.spare = t.spare[:len(t.spare)-1]
			return b[:0]
		}
	}
	return make([]byte, 0, (n+tapeGrain-1)/tapeGrain*tapeGrain)
}

const tapeGrain = 16 << 10

// trim drops the bytes before the last CR that keep line feeds follow, but for the
// SGRs that set the pen there (head), as the lazy cut does: a replay then starts on
// an unknown screen, and skips all of it. Pieces are counted whole, so only the
// piece where the last keep line feeds begin is searched.
func (t *vtTape) trim(keep int) bool {
	i, after := len(t.pieces)-1, 0 // after: line feeds in the pieces after i
	for i > 0 && after+t.pieces[i].lfs < keep {
		after += t.pieces[i].lfs
		i--
	}
	b, from := t.pieces[i].b, t.start(i)
	q := from // past the first of piece i's line feeds that must stay
	for range t.pieces[i].lfs - (keep - after) + 1 {
		q += bytes.IndexByte(b[q:], '\n') + 1
	}
	for end := max(q-1, from); i >= 0; i-- {
		if c := bytes.LastIndexByte(t.pieces[i].b[t.start(i):end], '\r'); c > 0 || c == 0 && i > 0 {
			return t.cutAt(i, t.start(i)+c)
		}
		if i > 0 {
			end = len(t.pieces[i-1].b)
		}
	}
	return false
}

// start is where piece i's bytes begin.
func (t *tapeBytes) start(i int) int {
	if i == 0 {
		return t.first
	}
	return 0
}

// cutAt drops the bytes before byte c of piece i.
func (t *vtTape) cutAt(i, c int) bool {
	pen := t.head
	for k := range i + 1 {
		to := len(t.pieces[k].b)
		if k == i {
			to = c
		}
		pen = sgrsSinceReset(pen, t.pieces[k].b[t.start(k):to])
	}
	if len(pen) > lazySGRKeep {
		return false
	}
	for _, p := range t.pieces[:i] {
		t.lfs -= p.lfs
		t.spare = append(t.spare, p.b)
	}
	rest := &t.pieces[i]
	gone := bytes.Count(rest.b[t.start(i):c], []byte{'\n'})
	rest.lfs -= gone
	t.lfs -= gone
	t.pieces = append(t.pieces[:0], t.pieces[i:]...)
	t.head, t.first = pen, c
	t.x, t.skip = 0, t.rows // the screen it starts on is unknown: all of it is skipped
	return true
}

// sgrsSinceReset returns the SGR sequences of a and then b (normalised bytes) from
// the last one that resets the pen on, in a new slice. It looks for that reset
// from the end of b back, so that a stream that resets now and then costs little
// however long b is.
func sgrsSinceReset(a, b []byte) []byte {
	if bytes.IndexByte(b, vtESC) < 0 { // plain text (IndexByte is much faster than LastIndexByte)
		return append([]byte(nil), a...)
	}
	from := 0
	for i := len(b); ; {
		if i = bytes.LastIndexByte(b[:i], vtESC); i < 0 {
			return sgrsAfter(sgrsAfter(nil, a), b) // no reset in b: a's pen goes on
		}
		if seq, ok := sgrAt(b[i:]); ok && resetsPen(seq) {
			from = i
			break
		}
	}
	return sgrsAfter(nil, b[from:])
}

// sgrsAfter appends p's SGR sequences to out, emptying it at each that resets the
// pen.
func sgrsAfter(out, p []byte) []byte {
	for i := bytes.IndexByte(p, vtESC); i >= 0; {
		seq, ok := sgrAt(p[i:])
		if ok {
			if resetsPen(seq) {
				out = out[:0]
			}
			out = append(out, seq...)
		}
		j := bytes.IndexByte(p[i+len(seq):], vtESC)
		if j < 0 {
			break
		}
		i += len(seq) + j
	}
	return out
}

// sgrAt returns the sequence at the start of p and whether it is an SGR.
func sgrAt(p []byte) ([]byte, bool) {
	n, _ := seqLen(p)
	return p[:n], n > 2 && p[1] == '[' && p[n-1] == 'm'
}

// resetsPen reports whether an SGR's first parameter resets the pen (0 or none),
// as afterStep judges them.
func resetsPen(seq []byte) bool {
	return seq[2] == 'm' || seq[2] == '0' && (seq[3] == ';' || seq[3] == 'm')
}
