package ui

import (
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// maxEvents caps the events pane (oldest dropped).
const maxEvents = 500

// Events is the events pane: the structured event stream, newest last, under a title
// that carries the counters (metrics.go).
type Events struct {
	c     *Common
	lines []evLine
	w, h  int
	pairs []metricPair // the counters as drawn; nil until the first SetMetrics

	ver   uint64
	cache *viewCache[eventsKey]
}

type evLine struct {
	at    time.Time
	text  string
	style Style
}

type eventsKey struct {
	ver  uint64
	w, h int
}

// NewEvents returns an empty events pane.
func NewEvents(c *Common) Events { return Events{c: c, cache: &viewCache[eventsKey]{}} }

// SetSize sets the pane's outer size.
func (e *Events) SetSize(w, h int) { e.w, e.h = w, h; e.ver++ }

// Update adds a line for each lifecycle event.
func (e Events) Update(msg tea.Msg) (Events, tea.Cmd) {
	if m, ok := msg.(EventMsg); ok {
		if text, style, ok := e.describe(m.Event); ok {
			e.add(m.Event.Time, text, style)
		}
	}
	return e, nil
}

// SetMetrics shows the counters in the title. Counters that draw what is shown leave
// the pane's version alone, so the once-a-second refresh of an idle Corral draws nothing.
func (e *Events) SetMetrics(m runs.Metrics) {
	pairs := metricPairs(m)
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

func (e *Events) add(at time.Time, text string, style Style) {
	e.lines = append(e.lines, evLine{at: at, text: clean(text), style: style})
	if len(e.lines) > 2*maxEvents {
		e.lines = append(e.lines[:0:0], e.lines[len(e.lines)-maxEvents:]...)
	}
	e.ver++
}

// AddError records a failed command.
func (e *Events) AddError(at time.Time, op, name string, err error) {
	text := "error: " + op
	if name != "" {
		text += " " + name
	}
	e.add(at, text+": "+err.Error(), e.c.Styles.Danger)
}

// AddNote records something the UI did or learned.
func (e *Events) AddNote(at time.Time, text string) { e.add(at, text, Style{}) }

// AddDecision records one reconciliation decision.
func (e *Events) AddDecision(at time.Time, d runs.Decision) {
	text := fmt.Sprintf("reconcile %s %s: %s", d.Name, d.ID, d.Decision)
	if d.PID != 0 {
		text += fmt.Sprintf(" pid %d", d.PID)
	}
	if d.Detail != "" {
		text += " · " + d.Detail
	}
	style := Style{}
	if d.Decision != "kept" && d.Decision != "left-alone" {
		style = e.c.Styles.Warn
	}
	e.add(at, text, style)
}

// describe turns a core event into a line; resizes and output are not shown.
func (e Events) describe(ev runs.Event) (string, Style, bool) {
	st, i := e.c.Styles, ev.Run
	name := i.Name + " " + i.ID
	switch ev.Type {
	case runs.EventSpawn:
		if ev.Detail == "adopted" {
			return fmt.Sprintf("adopted %s pid %d", name, i.PID), st.Warn, true
		}
		return fmt.Sprintf("spawn %s (%s)", name, ev.Detail), Style{}, true
	case runs.EventState:
		if ev.Detail == "resize" || i.State == runs.Exited { // the exit event says more
			return "", Style{}, false
		}
		return fmt.Sprintf("%s → %s%s", name, i.State, pidSuffix(i)), Style{}, true
	case runs.EventCancel:
		return fmt.Sprintf("%s stop: %s", name, ev.Detail), st.Warn, true
	case runs.EventPause:
		if i.Paused {
			return name + " paused", st.Warn, true
		}
		return name + " resumed", Style{}, true
	case runs.EventCleanup:
		return fmt.Sprintf("%s cleanup: %s", name, ev.Detail), Style{}, true
	case runs.EventExit:
		how := i.Reason.String() + exitText(i, " · exit ", " · signal ")
		if i.Reason == runs.Exit {
			how = "exit" + exitText(i, " ", " by signal ")
		}
		return name + " exited: " + how, badgeStyle(st, i), true
	case runs.EventEscape:
		line := fmt.Sprintf("%s ⚠ escape: %d processes left the session", name, i.Escapees)
		if ev.Detail != "" {
			line += ": " + clean(ev.Detail) // which ones, by pid and command line (issue 14.1)
		}
		return line, st.Warn, true
	case runs.EventWatchdog:
		return fmt.Sprintf("%s watchdog: %s", name, ev.Detail), st.Warn, true
	}
	return "", Style{}, false
}

func pidSuffix(i runs.Info) string {
	if i.PID == 0 || i.State != runs.Running {
		return ""
	}
	return fmt.Sprintf(" pid %d", i.PID)
}

// View renders the newest lines that fit.
func (e Events) View() string {
	return e.cache.get(eventsKey{ver: e.ver, w: e.w, h: e.h}, func() string { return joinLines(e.render()) })
}

func (e Events) render() []string {
	iw, ih := max(e.w-2, 0), max(e.h-2, 0)
	from := max(len(e.lines)-ih, 0)
	body := make([]string, 0, ih)
	for _, l := range e.lines[from:] {
		stamp := e.c.Styles.Muted.Render(" " + l.at.Format(time.TimeOnly) + " ")
		body = append(body, fit(stamp+l.style.Render(trunc(l.text, max(iw-10, 0))), iw))
	}
	return box(e.c.Styles.Border, e.title(), body, e.w, e.h)
}

// title is "Events · " and the counters, cut to what the top edge holds (box keeps
// "┌─" and "─┐" of it).
func (e Events) title() string {
	const name = "Events"
	return e.c.Styles.Title.Render(name) + metricsLine(e.c.Styles, " · ", e.pairs, e.w-4-len(name))
}
