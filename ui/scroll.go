package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"corral/runs"
)

// scrollState is the terminal pane's scroll mode: the run's history as text lines,
// the window on it and the search.
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

// Scroll enters scroll mode on the run's history (loading: a HistoryMsg will bring
// it), searching for query if it is not empty.
func (t *Terminal) Scroll(query string) {
	t.scroll = &scrollState{loading: true, query: query, cur: -1}
	t.scroll.fit(t.InnerSize())
	t.ver++
}

// ScrollPage enters scroll mode one page above the live screen: the scrollback key
// scrolls at its first press (issue 14.9), as a terminal's Shift+PgUp does.
func (t *Terminal) ScrollPage() {
	t.Scroll("")
	t.scroll.openUp = t.scroll.page()
}

// ScrollUp enters scroll mode n lines above the live screen (a wheel notch).
func (t *Terminal) ScrollUp(n int) {
	t.Scroll("")
	t.scroll.openUp = n
}

// ScrollCopy enters scroll mode with copy mode's caret on the last line once the
// history is loaded: the copy key pressed outside scroll mode.
func (t *Terminal) ScrollCopy() {
	t.Scroll("")
	t.scroll.copyNow = true
}

// ScrollBy moves the scroll window n lines (negative: older).
func (t *Terminal) ScrollBy(n int) {
	if s := t.scroll; s != nil && !s.loading {
		s.top += n
		s.clamp()
		t.ver++
	}
}

// Scrolling reports whether the pane is in scroll mode.
func (t Terminal) Scrolling() bool { return t.scroll != nil }

// Live leaves scroll mode.
func (t *Terminal) Live() { t.scroll = nil; t.ver++ }

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

// scrollKey moves the window or between matches. n goes to the next match upward
// (older), as a search that starts at the newest line continues; N back down.
func (t *Terminal) scrollKey(k tea.KeyPressMsg) {
	s, km := t.scroll, t.c.Keys
	if s.copy.on {
		t.copyMove(k)
		return
	}
	if top, ok := s.motion(k, km, s.top, len(s.lines)); ok {
		s.top = top
		s.clamp()
		t.ver++
		return
	}
	switch {
	case key.Matches(k, km.NextMatch) && len(s.matches) > 0:
		s.goTo((s.cur - 1 + len(s.matches)) % len(s.matches))
	case key.Matches(k, km.PrevMatch) && len(s.matches) > 0:
		s.goTo((s.cur + 1) % len(s.matches))
	default:
		return
	}
	s.clamp()
	t.ver++
}

func (t Terminal) scrollTitle() string {
	st, s := t.c.Styles, t.scroll
	mode := " SCROLL — " + t.c.Keys.Live.Help().Key + " for live "
	if s.copy.on {
		mode = " COPY — " + firstKey(t.c.Keys.Mark) + " mark · " + firstKey(t.c.Keys.Yank) + " copy "
	}
	out := st.Focus.Render(mode) + " " + st.Title.Render(clean(t.info.Name))
	if len(s.lines) > 0 {
		out += st.Muted.Render(fmt.Sprintf(" lines %d–%d of %d", s.top+1, min(s.top+s.rows, len(s.lines)), len(s.lines)))
	}
	if s.query != "" {
		n := "no match"
		if s.cur >= 0 {
			n = fmt.Sprintf("%d/%d", len(s.matches)-s.cur, len(s.matches))
		}
		out += " " + st.Warn.Render("/"+clean(s.query)+" "+n)
	}
	return out
}

// firstKey is a binding's first key, for titles too narrow for them all.
func firstKey(b key.Binding) string {
	if ks := b.Keys(); len(ks) > 0 {
		return ks[0]
	}
	return ""
}

func (t Terminal) scrollBody(iw, ih int) []string {
	s := t.scroll
	switch {
	case s.loading:
		return messageBody("reading the transcript…", iw, ih)
	case s.err != "":
		return messageBody("transcript: "+s.err, iw, ih)
	case len(s.lines) == 0:
		return messageBody("no output yet", iw, ih)
	}
	out := make([]string, 0, ih)
	for i := s.top; i < len(s.lines) && len(out) < ih; i++ {
		out = append(out, t.scrollLine(i, iw))
	}
	for len(out) < ih {
		out = append(out, strings.Repeat(" ", iw))
	}
	return out
}

// scrollLine draws history line i in colour, or, when it holds a search match, in
// plain text with the matches marked; in copy mode the caret and the selection show.
func (t Terminal) scrollLine(i, iw int) string {
	s, l := t.scroll, t.scroll.lines[i]
	cur := -1
	if s.cur >= 0 {
		cur = s.matches[s.cur]
	}
	fold := s.query == strings.ToLower(s.query)
	gutter := t.gutter(l.Err, i == cur || s.copy.on && i == s.copy.caret)
	switch {
	case s.copy.selected(i):
		return gutter + fit(t.c.Styles.Match.Render(trunc(l.Text, iw-1)), iw-1)
	case s.query != "" && matchAt(l.Text, s.query, fold) >= 0:
		return gutter + fit(t.highlight(trunc(l.Text, iw-1), s.query, fold), iw-1)
	}
	return gutter + fit(trunc(l.Styled(), iw-1), iw-1)
}

// highlight marks every occurrence of q in a plain text line.
func (t Terminal) highlight(text, q string, fold bool) string {
	if q == "" {
		return text
	}
	var b strings.Builder
	for {
		i := matchAt(text, q, fold)
		if i < 0 {
			break
		}
		b.WriteString(text[:i])
		b.WriteString(t.c.Styles.Match.Render(text[i : i+len(q)]))
		text = text[i+len(q):]
	}
	b.WriteString(text)
	return b.String()
}

// messageBody is one line of text, wrapped, at the top of an empty pane.
func messageBody(msg string, iw, ih int) []string {
	out := make([]string, 0, ih)
	for _, l := range strings.Split(ansi.Wrap(clean(msg), max(iw-2, 1), ""), "\n") {
		if len(out) == ih {
			break
		}
		out = append(out, fit(" "+l, iw))
	}
	for len(out) < ih {
		out = append(out, strings.Repeat(" ", iw))
	}
	return out
}

func errorBody(msg string, iw, ih int) []string {
	return messageBody(msg+" — this pane failed to render; Corral and the run go on", iw, ih)
}

// wrapText cuts plain text into lines of at most w columns.
func wrapText(s string, w int) []string {
	if ansi.StringWidth(s) <= w {
		return []string{s}
	}
	return strings.Split(ansi.Hardwrap(s, w, true), "\n")
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
