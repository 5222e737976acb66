package web

import (
	"encoding/json"
	"fmt"
	"strings"

	"corral/ptyhost/screen/grid"
)

// span is a run of cells of one style, as the page draws it: text, colours ("" for
// the terminal's own, "iN" for palette entry N, "#rrggbb"), the grid's attribute
// bits, w 2 for a wide character (its own span, two columns wide), c for the cell
// under a visible cursor.
type span struct {
	T string `json:"t"`
	F string `json:"f,omitempty"`
	B string `json:"b,omitempty"`
	A uint16 `json:"a,omitempty"`
	W int    `json:"w,omitempty"`
	C bool   `json:"c,omitempty"`
}

func colour(c grid.Color) string {
	switch c.Kind {
	case grid.Indexed:
		return fmt.Sprintf("i%d", c.Index)
	case grid.RGB:
		return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	}
	return ""
}

// rowSpans is row y of g as spans; the cursor's cell is a span of its own.
func rowSpans(g *grid.Grid, y int) []span {
	var out []span
	cur := -1
	if g.CursorVisible && g.CursorY == y {
		cur = g.CursorX
	}
	var b strings.Builder
	var st grid.Style
	open := false
	flush := func() {
		if open {
			out = append(out, span{T: b.String(), F: colour(st.FG), B: colour(st.BG), A: uint16(st.Attr)})
			b.Reset()
			open = false
		}
	}
	for x, c := range g.Row(y) {
		switch {
		case c.Width == 0:
			continue // a wide character's right half
		case c.Width == 2 || x == cur:
			flush()
			out = append(out, span{T: c.Text, F: colour(c.Style.FG), B: colour(c.Style.BG), A: uint16(c.Style.Attr),
				W: map[bool]int{true: 2}[c.Width == 2], C: x == cur})
			continue
		case open && c.Style != st:
			flush()
		}
		st, open = c.Style, true
		b.WriteString(c.Text)
	}
	flush()
	return trimBlank(out)
}

// trimBlank drops the blanks that end a row in the default background: the page
// draws nothing there either.
func trimBlank(out []span) []span {
	for len(out) > 0 {
		l := &out[len(out)-1]
		if l.B != "" || l.C || l.W != 0 || l.A&uint16(grid.Reverse|grid.Underline|grid.Strike|grid.Overline) != 0 {
			break
		}
		l.T = strings.TrimRight(l.T, " ")
		if l.T != "" {
			break
		}
		out = out[:len(out)-1]
	}
	return out
}

// rows encodes every row of g, each as its JSON, so that two frames compare row by
// row.
func rows(g *grid.Grid) []string {
	out := make([]string, g.Rows)
	for y := range g.Rows {
		b, _ := json.Marshal(rowSpans(g, y))
		out[y] = string(b)
	}
	return out
}

// screenMsg is a screen update: the rows that changed since the last one the page
// got (all of them when Full), by index.
type screenMsg struct {
	Type  string                  `json:"type"`
	ID    string                  `json:"id"`
	Cols  int                     `json:"cols"`
	Rows  int                     `json:"rows"`
	Full  bool                    `json:"full"`
	Lines map[int]json.RawMessage `json:"lines"`
	Title string                  `json:"title,omitempty"`
}

// diff is the update from old rows to new (old nil: all of them).
func diff(id string, g *grid.Grid, old, now []string) screenMsg {
	m := screenMsg{Type: "screen", ID: id, Cols: g.Cols, Rows: g.Rows, Lines: map[int]json.RawMessage{}}
	m.Full = old == nil || len(old) != len(now)
	for y, r := range now {
		if m.Full || old[y] != r {
			m.Lines[y] = json.RawMessage(r)
		}
	}
	return m
}
