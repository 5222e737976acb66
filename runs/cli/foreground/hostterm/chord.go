package hostterm

// EscapeChord watches the keys of a terminal forwarded raw to a PTY run (corral run
// --pty) for the one chord kept by Corral, Ctrl-] then '.', which ends the run even
// when its program traps Ctrl-C, as ssh's Enter ~ . ends a session.
// Ctrl-] twice sends one Ctrl-]; Ctrl-] and any other key sends both.
type EscapeChord struct {
	armed bool // the last key was a Ctrl-] not yet passed on
}

// ChordKey is the chord's first key, Ctrl-] (GS).
const ChordKey = 0x1d

// Feed returns the bytes of p to send to the run, and whether the chord was pressed
// (then nothing after it in p is sent).
func (c *EscapeChord) Feed(p []byte) (out []byte, stop bool) {
	out = make([]byte, 0, len(p)+1)
	for _, b := range p {
		switch {
		case c.armed && b == '.':
			c.armed = false
			return out, true
		case c.armed:
			c.armed = false
			out = append(out, ChordKey)
			if b != ChordKey {
				out = append(out, b)
			}
		case b == ChordKey:
			c.armed = true
		default:
			out = append(out, b)
		}
	}
	return out, false
}
