package terminal

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/ui/common"
)

// The terminal pane in scroll mode: the transcript window, its search and its keys
// (scrollState, scroll.go, holds the window).

// KeyMap is the terminal pane's keys in scroll mode: scrolling the transcript,
// its search's matches, and copy mode (caret, mark, yank to the clipboard), the pager,
// a file.
type KeyMap struct {
	ScrollUp, ScrollDown, PageUp, PageDown, Top, Bottom, NextMatch, PrevMatch, Live key.Binding
	CopyMode, Mark, Yank, Pager, Save                                               key.Binding
}

// DefaultKeyMap returns the scroll mode's default keys.
func DefaultKeyMap() KeyMap {
	bind := common.Bind
	return KeyMap{
		ScrollUp: bind("scroll up", "up", "k"), ScrollDown: bind("scroll down", "down", "j"),
		PageUp: bind("page up", "pgup", "ctrl+b"), PageDown: bind("page down", "pgdown", "ctrl+f"),
		Top: bind("oldest", "g", "home"), Bottom: bind("newest", "G", "end"),
		NextMatch: bind("next match (older)", "n"), PrevMatch: bind("previous match (newer)", "N"),
		Live:     bind("back to live", "esc", "q"),
		CopyMode: bind("copy mode", "c"), Mark: bind("copy: mark/unmark", "v", "space"),
		Yank:  bind("copy: to clipboard", "y", "enter"),
		Pager: bind("open in $PAGER", "o"), Save: bind("save to a file", "w"),
	}
}

// Scroll enters scroll mode on the run's history (loading: a HistoryMsg will bring
// it), searching for query if it is not empty.
func (t *Terminal) Scroll(query string) {
	t.scroll = &scrollState{loading: true, query: query, cur: -1}
	t.scroll.fit(t.InnerSize())
	t.ver++
}

// ScrollPage enters scroll mode one page above the live screen: the scrollback key
// scrolls at its first press, as a terminal's Shift+PgUp does.
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

// scrollKey moves the window or between matches. n goes to the next match upward
// (older), as a search that starts at the newest line continues; N back down.
func (t *Terminal) scrollKey(k tea.KeyPressMsg) {
	s, km := t.scroll, *t.keys
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
	mode := " SCROLL — " + t.keys.Live.Help().Key + " for live "
	if s.copy.on {
		mode = " COPY — " + common.FirstKey(t.keys.Mark) + " mark · " + common.FirstKey(t.keys.Yank) + " copy "
	}
	out := st.Focus.Render(mode) + " " + st.Title.Render(common.Clean(t.info.Name))
	if len(s.lines) > 0 {
		out += st.Muted.Render(fmt.Sprintf(" lines %d–%d of %d", s.top+1, min(s.top+s.rows, len(s.lines)), len(s.lines)))
	}
	if s.query != "" {
		n := "no match"
		if s.cur >= 0 {
			n = fmt.Sprintf("%d/%d", len(s.matches)-s.cur, len(s.matches))
		}
		out += " " + st.Warn.Render("/"+common.Clean(s.query)+" "+n)
	}
	return out
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
		return gutter + common.Fit(t.c.Styles.Match.Render(common.Trunc(l.Text, iw-1)), iw-1)
	case s.query != "" && matchAt(l.Text, s.query, fold) >= 0:
		return gutter + common.Fit(t.highlight(common.Trunc(l.Text, iw-1), s.query, fold), iw-1)
	}
	return gutter + common.Fit(common.Trunc(l.Styled(), iw-1), iw-1)
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

// Window is scroll mode's window: its first line and how many it shows (0, 0 outside
// scroll mode).
func (t Terminal) Window() (top, rows int) {
	if t.scroll == nil {
		return 0, 0
	}
	return t.scroll.top, t.scroll.rows
}

// Page is how far a page key moves in scroll mode: a window less one line.
func (t Terminal) Page() int {
	if t.scroll == nil {
		return 0
	}
	return t.scroll.page()
}
