package ui

// layout is where each pane goes on a w×h screen: the run list above the details on
// the left, the terminal pane above the events pane on the right, a status line at the
// bottom. Zoomed, the terminal pane takes everything but the status line.
type layout struct {
	w, h                       int
	leftW, listH, detailsH     int
	termX, termY, termW, termH int
	eventsH                    int
	zoomed                     bool
}

// eventsPaneH is the events pane's height: six lines and its frame.
const eventsPaneH = 8

func computeLayout(w, h, runs int, zoomed bool) layout {
	l := layout{w: w, h: h, zoomed: zoomed}
	bh := max(h-1, 2) // above the status line
	if zoomed {
		l.termW, l.termH = w, bh
		return l
	}
	l.leftW = min(max(w*2/5, 30), 64)
	if w-l.leftW < 24 {
		l.leftW = w / 2
	}
	l.listH = min(max(runs+2, 4), max(bh/2, 3))
	l.detailsH = bh - l.listH
	l.eventsH = eventsPaneH
	if bh < 4*eventsPaneH {
		l.eventsH = max(bh/4, 3)
	}
	l.termX, l.termW, l.termH = l.leftW, w-l.leftW, bh-l.eventsH
	return l
}

// inTerm reports whether screen cell (x, y) is inside the terminal pane's screen
// area, and where relative to it.
func (l layout) inTerm(x, y int) (int, int, bool) {
	px, py := x-l.termX-1, y-l.termY-1
	return px, py, px >= 0 && py >= 0 && px < l.termW-2 && py < l.termH-2
}
