package screen

// Compact shrinks the screen to what it holds: its rows down to the last one that
// holds anything or has the cursor, its columns out to the last that does in any
// row, or the cursor's. For a screen nothing will be written to any more (its run
// ended): a run resized to 1000×500 kept its emulator's cells (about 16 MB) for as
// long as it was listed. Nothing shown is lost: what is cut held only blanks of the
// default style, no line goes to the history (the cursor's row is kept), and a
// renderer that shows the part of a larger screen the cursor is in (the UI's
// terminal pane) shows the same part. The alternate screen's hidden main screen, if
// the run ended on the alternate screen, is cut with it: nothing can show it again.
// It reports the size before and after.
func (s *Screen) Compact() (fromCols, fromRows, cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp() // pending text is part of what is held
	fromCols, fromRows = s.cols, s.rows
	cur := s.term.Cursor()
	cols, rows = min(max(cur.X+1, 1), s.cols), min(max(cur.Y+1, 1), s.rows)
	for y := range s.rows {
		if used := s.keptCols(y); used > 0 {
			cols, rows = max(cols, used), max(rows, y+1)
		}
	}
	s.resizeLocked(cols, rows)
	return fromCols, fromRows, cols, rows
}

// keptCols is usedCols with the whole of its last character: a wide one's pad, a
// blank of the default style, is not to be cut from it.
func (s *Screen) keptCols(y int) int {
	used := s.usedCols(y)
	if used == 0 {
		return 0
	}
	_, w := s.shown(s.term.Cell(used-1, y), used-1, y)
	return min(used-1+max(w, 1), s.cols)
}
