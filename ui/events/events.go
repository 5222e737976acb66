// Package events is the events pane: the structured event stream of the runs, newest
// last, with what the UI did and learned, under a title that carries the supervisor's
// counters (metrics.go). Its keys scroll it older or newer (KeyMap).
package events

import (
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/ui/common"
)

// maxEvents caps the events pane (oldest dropped).
const maxEvents = 500

// Events is the events pane: the structured event stream, newest last, under a title
// that carries the counters (metrics.go).
type Events struct {
	c     *common.Common
	keys  *KeyMap
	lines []evLine
	w, h  int
	back  int          // lines scrolled back from the newest (0: follows the newest)
	pairs []metricPair // the counters as drawn; nil until the first SetMetrics

	metrics runs.Metrics
	escaped int // escaped processes of the listed runs (the ⚠N of their rows)

	ver   uint64
	cache *common.ViewCache[eventsKey]
}

type evLine struct {
	at    time.Time
	text  string
	style common.Style
}

type eventsKey struct {
	ver  uint64
	w, h int
}

// KeyMap is the events pane's keys: scroll a page older or newer.
type KeyMap struct {
	EventsUp, EventsDown key.Binding
}

// DefaultKeyMap returns the events pane's default keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{EventsUp: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "events: older")),
		EventsDown: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "events: newer"))}
}

// New returns an empty events pane. keys is read at each key press, so overrides
// made after New apply.
func New(c *common.Common, keys *KeyMap) Events {
	return Events{c: c, keys: keys, cache: &common.ViewCache[eventsKey]{}}
}

// SetSize sets the pane's outer size.
func (e *Events) SetSize(w, h int) { e.w, e.h = w, h; e.ver++ }

// Update adds a line for a run's lifecycle event (a runs.Event), scrolls a page older
// or newer on the pane's keys and a line on a wheel notch (the root sends the pane
// the wheel events over it).
func (e Events) Update(msg tea.Msg) (Events, tea.Cmd) {
	switch msg := msg.(type) {
	case runs.Event:
		if text, style, ok := e.describe(msg); ok {
			e.Add(msg.Time, text, style)
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, e.keys.EventsUp):
			e.scrollBy(e.Page())
		case key.Matches(msg, e.keys.EventsDown):
			e.scrollBy(-e.Page())
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			e.scrollBy(1)
		case tea.MouseWheelDown:
			e.scrollBy(-1)
		}
	}
	return e, nil
}

// Version moves whenever what the pane draws changes (its view is cached by it).
func (e Events) Version() uint64 { return e.ver }

// Metrics is the counters shown (SetMetrics).
func (e *Events) Metrics() runs.Metrics { return e.metrics }

// SetMetrics shows the counters in the title. Counters that draw what is shown leave
// the pane's version alone, so the once-a-second refresh of an idle Corral draws nothing.
func (e *Events) SetMetrics(m runs.Metrics) {
	e.metrics = m
	e.setPairs()
}

// SetEscaped counts the escaped processes of the listed runs and unlisted more (those
// of runs not listed yet: runlist.List.Unlisted), so the title's count
// agrees with the rows' ⚠N (the title said "escapes 0" beside ⚠5,
// counting this Corral's escape events where the rows count processes).
func (e *Events) SetEscaped(listed []runs.Info, unlisted int) {
	n := unlisted
	for _, i := range listed {
		n += i.Escapees
	}
	if n != e.escaped {
		e.escaped = n
		e.setPairs()
	}
}

func (e *Events) setPairs() {
	pairs := metricPairs(e.metrics)
	if e.escaped > 0 {
		pairs = slices.Insert(pairs, 2, metricPair{text: fmt.Sprintf("escaped procs %d", e.escaped), opens: true, warn: true})
	}
	if e.pairs != nil && slices.Equal(pairs, e.pairs) {
		return
	}
	e.pairs = pairs
	e.ver++
}

// Len is how many lines the pane holds.
func (e Events) Len() int { return len(e.lines) }

// Line returns line i as plain text (for tests and the quit progress).
func (e Events) Line(i int) string { return e.lines[i].text }

// Add adds a line in a style.
func (e *Events) Add(at time.Time, text string, style common.Style) {
	e.lines = append(e.lines, evLine{at: at, text: common.Clean(text), style: style})
	if e.back > 0 {
		e.back++ // scrolled back: the lines shown stay put
	}
	if len(e.lines) > 2*maxEvents {
		e.lines = append(e.lines[:0:0], e.lines[len(e.lines)-maxEvents:]...)
	}
	e.ver++
}

// scrollBy scrolls n lines older (negative: newer), within the lines held.
func (e *Events) scrollBy(n int) {
	back := min(max(e.back+n, 0), e.maxBack())
	if back != e.back {
		e.back = back
		e.ver++
	}
}

// Page is how far the events keys scroll: the pane's height less one line.
func (e Events) Page() int { return max(e.h-3, 1) }

func (e Events) maxBack() int { return max(len(e.lines)-max(e.h-2, 0), 0) }

// window is the first line shown and the line after the last.
func (e Events) window() (int, int) {
	ih := max(e.h-2, 0)
	to := len(e.lines) - min(e.back, e.maxBack())
	return max(to-ih, 0), to
}

// View renders the lines of the window: the newest that fit unless scrolled back.
func (e Events) View() string {
	return e.cache.Get(eventsKey{ver: e.ver, w: e.w, h: e.h}, func() string { return common.JoinLines(e.render()) })
}

func (e Events) render() []string {
	iw, ih := max(e.w-2, 0), max(e.h-2, 0)
	from, to := e.window()
	body := make([]string, 0, ih)
	for _, l := range e.lines[from:to] {
		stamp := e.c.Styles.Muted.Render(" " + l.at.Format(time.TimeOnly) + " ")
		body = append(body, common.Fit(stamp+l.style.Render(common.Trunc(l.text, max(iw-10, 0))), iw))
	}
	return common.Box(e.c.Styles.Border, e.title(), body, e.w, e.h)
}

// title is "Events · " and the counters, cut to what the top edge holds (box keeps
// "┌─" and "─┐" of it).
func (e Events) title() string {
	name := "Events" + e.position()
	return e.c.Styles.Title.Render(name) + metricsLine(e.c.Styles, " · ", e.pairs, e.w-4-common.WidthOf(name))
}

// position is where the window is when not every line fits: " 12–17/40", with
// "↑" while scrolled back from the newest (new lines then do not move it).
func (e Events) position() string {
	from, to := e.window()
	if from == 0 && to == len(e.lines) {
		return ""
	}
	mark := ""
	if to < len(e.lines) {
		mark = "↑"
	}
	return fmt.Sprintf(" %s%d–%d/%d", mark, from+1, to, len(e.lines))
}
