package screen

import "strconv"

// Tab stops, followed here because vt10x keeps its own unexported: a tape's replay
// (screen_tape.go) needs the ones its bytes were written with. vt10x's are every
// eighth column after a reset, one more at HTS (ESC H) in the cursor's column, one
// fewer at TBC 0 (CSI g), none after TBC 3. When the screen's width changes it
// copies the old ones and gives the new columns none (defect #11); tmux resets them
// to every eighth column (screen_resize), and so does resetTabs.

// tabStops are the tab stops, nil for every eighth column.
type tabStops []bool

// set sets or clears the stop at column x of a screen cols wide.
func (t *tabStops) set(x, cols int, on bool) {
	if *t == nil {
		*t = make(tabStops, cols)
		for i := vtTabSpace; i < cols; i += vtTabSpace {
			(*t)[i] = true
		}
	}
	if x >= 0 && x < len(*t) {
		(*t)[x] = on
	}
}

// clearAll is TBC 3.
func (t *tabStops) clearAll(cols int) { *t = make(tabStops, cols) }

const vtTabSpace = 8

// tabSet handles HTS (on) and TBC 0 (off) in the scanner: what came before is fed,
// so that the cursor's column is the one they will act on.
func (s *Screen) tabSet(on bool) {
	s.flush()
	s.tabs.set(s.term.Cursor().X, s.cols, on)
}

// appendTabs appends what sets vt10x's tab stops to t, from its default, with the
// cursor moving: for a replay that starts from a new emulator.
func appendTabs(b []byte, t tabStops) []byte {
	if t == nil {
		return b
	}
	b = append(b, "\x1b[3g"...)
	for x, on := range t {
		if on {
			b = append(strconv.AppendInt(append(b, "\x1b[1;"...), int64(x+1), 10), "H\x1bH"...)
		}
	}
	return b
}

// resetTabs sets vt10x's tab stops to every eighth column after its width changed,
// as tmux does, and puts the cursor back.
func (s *Screen) resetTabs() {
	cur := s.term.Cursor()
	b := append(s.scratch[:0], "\x1b[3g"...)
	for x := vtTabSpace; x < s.cols; x += vtTabSpace {
		b = append(strconv.AppendInt(append(b, "\x1b[1;"...), int64(x+1), 10), "H\x1bH"...)
	}
	b = strconv.AppendInt(append(b, "\x1b["...), int64(cur.Y+1), 10)
	b = append(strconv.AppendInt(append(b, ';'), int64(cur.X+1), 10), 'H')
	s.scratch = b
	_, _ = s.term.Write(b)
	s.tabs = nil
}
