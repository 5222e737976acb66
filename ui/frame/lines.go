package frame

import (
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
)

// drawLines puts content in r.cells: whole when full, else only the lines that
// changed since the frame on screen, which is most of a frame's cost saved on a key's
// echo (the UI's view is a whole window of styled text, parsed and diffed afresh each
// frame otherwise). The lines above the first that changed are kept as they are; from
// it down, a line is parsed alone only where that gives what parsing the whole would:
// it begins with no style open (the line above ends with a reset, as every line of the
// UI's panes does), and no sequence that rides on the next glyph or stays open (OSC,
// DCS, APC, PM, SOS) is in the content; an unchanged line there is drawn again if it
// began with something open in the frame before. Otherwise the content is parsed whole.
// moved reports whether a line that changed is one the frame on screen has on another
// row (see movedLines).
func (r *Renderer) drawLines(content string, full bool) (moved bool) {
	lines := strings.Split(content, "\n")
	moved = r.movedLines(lines)
	// What each line holds, read again only for a line not on its row before: a key's
	// echo changes a line or two of a window's fifty, and reading them all (ten scans
	// of the content for the pass-through sequences) cost more than drawing them.
	infos, pass := r.infoSpare[:0], false
	for y, l := range lines {
		var in lineInfo
		if y < len(r.lines) && l == r.lines[y] {
			in = r.infos[y]
		} else {
			in = infoOf(l)
		}
		infos = append(infos, in)
		pass = pass || in&linePass != 0
	}
	var clean []bool // nil: none is known to begin clean
	if !pass {
		clean = make([]bool, len(lines))
		startClean := true
		for y, in := range infos {
			clean[y] = startClean
			startClean = in.endsClean(startClean)
		}
	}
	h, w := r.cells.Height(), r.cells.Width()
	line := func(ls []string, y int) string {
		if y < len(ls) {
			return ls[y]
		}
		return ""
	}
	// beginsClean: line y of ls begins with nothing open (a row past the content is empty).
	beginsClean := func(ls []string, cl []bool, y int) bool { return y >= len(ls) || y < len(cl) && cl[y] }
	if !full {
		// Lines above the first changed one are as they were, open styles and all;
		// from it down, a line that begins with something open is parsed with what
		// the lines above it left open: the whole is parsed. (That holds for an
		// unchanged line too: the changed line above may now leave a style open that
		// it did not before.)
		changed := false
		for y := range h {
			changed = changed || line(lines, y) != line(r.lines, y)
			if changed && !beginsClean(lines, clean, y) {
				full = true
				break
			}
		}
	}
	if full {
		r.cells.Clear()
		uv.NewStyledString(content).Draw(r.cells, r.cells.Bounds())
		r.drawn = nil
	} else {
		r.drawn = append(r.drawn[:0], make([]bool, h)...)
		changed := false
		for y := range h {
			changed = changed || line(lines, y) != line(r.lines, y)
			if changed && (line(lines, y) != line(r.lines, y) || !beginsClean(r.lines, r.clean, y)) {
				uv.NewStyledString(line(lines, y)).Draw(r.cells, uv.Rect(0, y, w, 1))
				r.drawn[y] = true
			}
		}
	}
	r.lines, r.clean = lines, clean
	r.infos, r.infoSpare = infos, r.infos
	return moved
}

// lineInfo is what drawLines needs to know of a line: whether it holds a sequence
// that stays open (hasPassThrough), and how it leaves the style (endsClean).
type lineInfo uint8

const (
	linePass  lineInfo = 1 << iota // hasPassThrough
	lineSGR                        // it has an SGR: endsClean is lineReset's
	lineReset                      // its last SGR is a reset
)

func infoOf(line string) lineInfo {
	var in lineInfo
	if hasPassThrough(line) {
		in |= linePass
	}
	if strings.Contains(line, "\x1b[") {
		in |= lineSGR
		if endsClean(line, false) {
			in |= lineReset
		}
	}
	return in
}

// endsClean is endsClean of the line in describes: its style after it, begun at startClean.
func (in lineInfo) endsClean(startClean bool) bool {
	if in&lineSGR == 0 {
		return startClean
	}
	return in&lineReset != 0
}

// movedLines reports whether a line of lines that differs from the line on its row in
// the frame on screen is there on another row: only then can scrolling the terminal's
// rows (the renderer's scroll optimization) save drawing it. That optimization hashes
// every row of the screen, old and new, each frame, a cell at a time: at 186×51 half
// the cost of a key's echo frame, which changes a line or two and moves none.
func (r *Renderer) movedLines(lines []string) bool {
	filled := false // r.onScreen holds r.lines, made at the first changed line
	for y, l := range lines {
		if y < len(r.lines) && l == r.lines[y] {
			continue
		}
		if !filled {
			if r.onScreen == nil {
				r.onScreen = map[string]struct{}{}
			}
			clear(r.onScreen)
			for _, o := range r.lines {
				r.onScreen[o] = struct{}{}
			}
			filled = true
		}
		if _, ok := r.onScreen[l]; ok {
			return true
		}
	}
	return false
}

// endsClean reports whether line leaves no style open, given whether it began with
// none: its last SGR is a reset, or it has none.
func endsClean(line string, startClean bool) bool {
	i := strings.LastIndex(line, "\x1b[")
	if i < 0 {
		return startClean
	}
	rest := line[i+2:]
	return strings.HasPrefix(rest, "m") || strings.HasPrefix(rest, "0m")
}

// hasPassThrough reports whether s holds a sequence ultraviolet carries on to the
// next glyph, or a hyperlink, which stays open across lines.
func hasPassThrough(s string) bool {
	for _, intro := range []string{"\x1b]", "\x1bP", "\x1b_", "\x1b^", "\x1bX", "\u009d", "\u0090", "\u009f", "\u009e", "\u0098"} {
		if strings.Contains(s, intro) {
			return true
		}
	}
	return false
}
