package ui

// rect is a pane's place on the screen in cells; a pane not shown has w == 0.
type rect struct{ x, y, w, h int }

// contains reports whether cell (x, y) is inside the rectangle.
func (r rect) contains(x, y int) bool {
	return x >= r.x && y >= r.y && x < r.x+r.w && y < r.y+r.h
}

// panes is which side panes are shown beside the terminal pane (the layout action;
// remembered per state dir, prefs.go). An agent's screen is most of what the operator
// reads, so both leave the terminal pane most of the width (82 of 140 columns
// before).
type panes int

const (
	panesAll  panes = iota // run list above details on the left, events under the terminal
	panesList              // only the run list on the left; the terminal pane is full height
)

var panesNames = [...]string{panesAll: "all", panesList: "list"}

func (p panes) String() string {
	if int(p) < len(panesNames) {
		return panesNames[p]
	}
	return "all"
}

// parsePanes reads a panes name as prefs.go stores it; anything else is panesAll.
func parsePanes(s string) panes {
	for i, n := range panesNames {
		if n == s {
			return panes(i)
		}
	}
	return panesAll
}

// next is the layout the layout key switches to.
func (p panes) next() panes { return (p + 1) % panes(len(panesNames)) }

// layout is where each pane goes on a w×h screen, a status line at the bottom. Zoomed,
// the terminal pane takes everything but the status line. Panes not shown have empty
// rectangles, so a click can be tested against each.
type layout struct {
	w, h   int
	panes  panes
	zoomed bool

	list, details, term, events rect
}

// eventsPaneH is the events pane's height: six lines and its frame.
const eventsPaneH = 8

// leftWidth is the width of the left column: about 3/10 of the screen with the
// details pane (26 to 60 columns: a run list that shows names, state and reason, and
// details lines that wrap rather than cut), a fifth with the list alone (24 to 40).
func leftWidth(w int, p panes) int {
	lw := min(max(w*3/10, 26), 60)
	if p == panesList {
		lw = min(max(w/5, 24), 40)
	}
	if w-lw < 24 { // a tiny screen: halves
		lw = w / 2
	}
	return lw
}

func computeLayout(w, h, runs int, zoomed bool, p panes) layout {
	l := layout{w: w, h: h, panes: p, zoomed: zoomed}
	bh := max(h-1, 2) // above the status line
	if zoomed {
		l.term = rect{w: w, h: bh}
		return l
	}
	lw := leftWidth(w, p)
	if p == panesList {
		l.list = rect{w: lw, h: bh}
		l.term = rect{x: lw, w: w - lw, h: bh}
		return l
	}
	listH := min(max(runs+2, 4), max(bh/2, 3))
	l.list = rect{w: lw, h: listH}
	l.details = rect{y: listH, w: lw, h: bh - listH}
	eventsH := eventsPaneH
	if bh < 4*eventsPaneH {
		eventsH = max(bh/4, 3)
	}
	l.term = rect{x: lw, w: w - lw, h: bh - eventsH}
	l.events = rect{x: lw, y: l.term.h, w: w - lw, h: eventsH}
	return l
}

// inTerm reports whether screen cell (x, y) is inside the terminal pane's screen
// area, and where relative to it.
func (l layout) inTerm(x, y int) (int, int, bool) {
	px, py := x-l.term.x-1, y-l.term.y-1
	return px, py, px >= 0 && py >= 0 && px < l.term.w-2 && py < l.term.h-2
}

// hit is the pane at screen cell (x, y), from the layout's rectangles, so it follows
// whatever layout computeLayout makes.
func (l layout) hit(x, y int) pane {
	switch {
	case l.term.contains(x, y):
		return paneTerm
	case l.list.contains(x, y):
		return paneList
	case l.events.contains(x, y):
		return paneEvents
	}
	return paneNone // a pane not shown has an empty rectangle
}
