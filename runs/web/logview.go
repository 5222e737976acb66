package web

import (
	"context"
	"time"

	"corral/ptyhost/screen/grid"
	"corral/runs/api"
)

// A pipe run has no screen: the page shows the tail of its output instead, as the
// terminal UI's pane does, each line in its own colours and wrapped at the width of
// a terminal. Its output events wake the browsers that view it as a PTY run's frames
// do.

// logCols and logRows are the size of a pipe run's view: a terminal's width, and
// the rows the page shows of its output's tail.
const (
	logCols = 80
	logRows = 40
)

// logLineCells bounds the cells one line of output is parsed into: a longer line is
// cut there (a minified file printed whole would otherwise fill every row).
const logLineCells = 4 * logCols * logRows

// logGrid is the last rows rows of run id's output, wrapped at cols; nil when the
// output cannot be read.
func (s *Server) logGrid(ctx context.Context, id string, cols, rows int) *grid.Grid {
	rep, err := api.Log.Call(ctx, s.hub.core, api.LogArgs{ID: id, Tail: true, Limit: rows})
	if err != nil {
		return nil
	}
	return wrapLines(rep.Lines, cols, rows)
}

// logScreen is the pipe run's view as the live channel sends a screen.
func (s *Server) logScreen(id string) *grid.Grid {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return s.logGrid(ctx, id, logCols, logRows)
}

// wrapLines parses lines of output (with their SGR colours) into rows of cols cells,
// a long line wrapped as a terminal wraps it, and keeps the last rows of them, the
// rest of the grid blank below (rows < 0: every row).
func wrapLines(lines []string, cols, rows int) *grid.Grid {
	var out [][]grid.Cell
	for i := len(lines) - 1; i >= 0 && (rows < 0 || len(out) < rows); i-- {
		// A line has no more cells than bytes: its row is made that wide, not
		// logLineCells (a row of 12,800 cells each line, held by the rows cut from it,
		// was gigabytes for the history of a run that printed short lines).
		line := grid.Parse(lines[i:i+1], min(logLineCells, max(len(lines[i]), 1)), 1, 0, 0, false).Row(0)
		parts := wrapRow(line[:used(line)], cols)
		for j := len(parts) - 1; j >= 0 && (rows < 0 || len(out) < rows); j-- {
			out = append(out, parts[j])
		}
	}
	if rows < 0 {
		rows = max(len(out), 1)
	}
	g := grid.New(cols, rows)
	for y, row := range out {
		copy(g.Row(len(out)-1-y), row)
	}
	return g
}

// wrapRow cuts a line's cells into rows of at most cols, a wide character never
// split across two; a blank line is one empty row.
func wrapRow(cells []grid.Cell, cols int) [][]grid.Cell {
	var parts [][]grid.Cell
	for x := 0; x < len(cells) || len(parts) == 0; {
		end := min(x+cols, len(cells))
		if end < len(cells) && cells[end].Width == 0 && end-1 > x { // the right half of a wide character
			end--
		}
		parts = append(parts, cells[x:end])
		x = end
	}
	return parts
}

// used is how many of a parsed line's cells hold something: the blanks after its
// last character in the default colours are not its own.
func used(row []grid.Cell) int {
	n := len(row)
	for n > 0 && row[n-1].Text == " " && row[n-1].Style == (grid.Style{}) {
		n--
	}
	return n
}
