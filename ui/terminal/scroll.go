package terminal

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"corral/runs"
	"corral/ui/common"
)

// scrollState is the terminal pane's scroll mode: the run's history as text lines,
// the window on it and the search.
//
// Not bubbles' viewport: it holds rendered strings, so 96k history lines must all be
// drawn and measured before the first frame (1.5 s against 0.5 ms here, which draws
// the rows shown), its search highlights parse the whole content (3 s against 85 ms),
// its View pads through lipgloss (395 µs a frame against 84 µs), and it neither
// centres a match nor says which match is current (the title's n/m, the ▶ gutter).
type scrollState struct {
	lines   []HistLine
	loading bool
	err     string
	top     int // first line shown
	rows    int // lines shown
	query   string
	matches []int // indexes of lines that match
	cur     int   // index into matches, -1 for none
	openUp  int   // open this many lines above the live screen (the first key or notch scrolls)
	copy    copySel
	copyNow bool // start copy mode once the history is loaded (the copy key outside scroll mode)
}

func (s *scrollState) load(m HistoryMsg) {
	s.loading, s.lines = false, m.Lines
	if m.Err != nil {
		s.err = m.Err.Error()
	}
	s.top = len(s.lines) // the bottom: fit clamps
	if s.openUp > 0 {
		s.top = len(s.lines) - s.rows - s.openUp
	}
	s.search()
}

// page is how far a page key moves: a window less one line, kept for context.
func (s *scrollState) page() int { return max(s.rows-1, 1) }

// motion is where a scroll key moves a line position (the window's top, or copy
// mode's caret): a line or a page up or down, or the first line or last.
func (s *scrollState) motion(k tea.KeyPressMsg, km KeyMap, pos, last int) (int, bool) {
	switch {
	case key.Matches(k, km.ScrollUp):
		return pos - 1, true
	case key.Matches(k, km.ScrollDown):
		return pos + 1, true
	case key.Matches(k, km.PageUp):
		return pos - s.page(), true
	case key.Matches(k, km.PageDown):
		return pos + s.page(), true
	case key.Matches(k, km.Top):
		return 0, true
	case key.Matches(k, km.Bottom):
		return last, true
	}
	return pos, false
}

// search finds the query's lines and goes to the newest match.
func (s *scrollState) search() {
	s.matches, s.cur = s.matches[:0], -1
	if s.query == "" {
		return
	}
	fold := s.query == strings.ToLower(s.query) // smart case
	for i, l := range s.lines {
		if matchAt(l.Text, s.query, fold) >= 0 {
			s.matches = append(s.matches, i)
		}
	}
	if len(s.matches) > 0 {
		s.goTo(len(s.matches) - 1)
	}
}

func matchAt(text, q string, fold bool) int {
	if fold {
		text = strings.ToLower(text)
	}
	return strings.Index(text, q)
}

func (s *scrollState) goTo(i int) {
	s.cur = i
	s.top = s.matches[i] - s.rows/2
	s.clamp()
}

// fit sets the window's height to the pane's.
func (s *scrollState) fit(_, rows int) {
	s.rows = max(rows, 1)
	if s.cur >= 0 {
		s.goTo(s.cur)
	}
	s.clamp()
}

func (s *scrollState) clamp() { s.top = max(min(s.top, len(s.lines)-s.rows), 0) }

// messageBody is one line of text, wrapped, at the top of an empty pane.
func messageBody(msg string, iw, ih int) []string {
	out := make([]string, 0, ih)
	for _, l := range strings.Split(ansi.Wrap(common.Clean(msg), max(iw-2, 1), ""), "\n") {
		if len(out) == ih {
			break
		}
		out = append(out, common.Fit(" "+l, iw))
	}
	for len(out) < ih {
		out = append(out, strings.Repeat(" ", iw))
	}
	return out
}

func errorBody(msg string, iw, ih int) []string {
	return messageBody(msg+" — this pane failed to render; Corral and the run go on", iw, ih)
}

// logTailBytes is how much of a log to convert to fill a pane: generous for wrapped
// and overwritten lines, bounded so a 200 KB log costs little per frame.
func logTailBytes(iw, ih int) int { return min(max(iw*ih*4, 4096), 256<<10) }

// tailOutput keeps the last n bytes of a log's chunks.
func tailOutput(o runs.Output, n int) runs.Output {
	out := runs.Output{Total: o.Total}
	for i := len(o.Chunks) - 1; i >= 0 && n > 0; i-- {
		c := o.Chunks[i]
		if len(c.Data) > n {
			c.Data = c.Data[len(c.Data)-n:]
		}
		n -= len(c.Data)
		out.Chunks = append(out.Chunks, c)
	}
	for i, j := 0, len(out.Chunks)-1; i < j; i, j = i+1, j-1 {
		out.Chunks[i], out.Chunks[j] = out.Chunks[j], out.Chunks[i]
	}
	return out
}
