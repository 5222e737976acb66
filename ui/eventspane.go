package ui

import (
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/ui/common"
)

// maxEvents caps the events pane (oldest dropped).
const maxEvents = 500

// Events is the events pane: the structured event stream, newest last, under a title
// that carries the counters (metrics.go).
type Events struct {
	c     *Common
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

// NewEvents returns an empty events pane.
func NewEvents(c *Common) Events { return Events{c: c, cache: &common.ViewCache[eventsKey]{}} }

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
	e.metrics = m
	e.setPairs()
}

// SetEscaped sets how many escaped processes the listed runs have, so the title's
// count agrees with the rows' ⚠N (issue 14.9: the title said "escapes 0" beside ⚠5,
// counting this Corral's escape events where the rows count processes).
func (e *Events) SetEscaped(n int) {
	if n != e.escaped {
		e.escaped = n
		e.setPairs()
	}
}

// escapedProcs sums the escaped processes of runs.
func escapedProcs(rs []runs.Info) int {
	n := 0
	for _, i := range rs {
		n += i.Escapees
	}
	return n
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

func (e *Events) add(at time.Time, text string, style common.Style) {
	e.lines = append(e.lines, evLine{at: at, text: common.Clean(text), style: style})
	if e.back > 0 {
		e.back++ // scrolled back: the lines shown stay put
	}
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

// ReportErr adds a failed operation's error (none: nothing) on the run named.
func (e *Events) ReportErr(at time.Time, op, name string, err error) {
	if err != nil {
		e.AddError(at, op, name, err)
	}
}

// AddReconciled adds a reconcile's decisions, or its error.
func (e *Events) AddReconciled(at time.Time, ds []runs.Decision, err error) {
	switch {
	case err != nil:
		e.AddError(at, "reconcile", "", err)
		return
	case len(ds) == 0:
		e.AddNote(at, "reconcile: no open records")
	}
	for _, d := range ds {
		e.AddDecision(at, d)
	}
}

// AddHistory adds an event from before the UI attached (the state dir's log), marked
// as history: "earlier · " (with the day when it was not today) and muted. An event the live pane leaves out stays out; one
// the pane has no words for (a reconcile decision, an escalation step, an error)
// reads "type name id: its fields".
func (e *Events) AddHistory(ev runs.Event) {
	text, _, ok := e.describe(ev)
	if !ok && lifecycleEvent(ev.Type) {
		return
	}
	if !ok {
		text = string(ev.Type)
		if ev.Run.ID != "" {
			text += " " + runName(ev.Run)
		}
		if ev.Detail != "" {
			text += ": " + ev.Detail
		}
	}
	// The log's times are UTC; the pane's are local, and the line says the day when
	// it was not today.
	at := ev.Time.Local()
	mark := "earlier · "
	if y, m, d := at.Date(); !sameDay(y, m, d, e.c.Now().Local()) {
		mark = "earlier " + at.Format("Jan 2") + " · "
	}
	e.add(at, mark+text, e.c.Styles.Muted)
}

// runName names a run in an event line: its name and id, and over several hosts
// (ids are unique per host only) its host.
func runName(i runs.Info) string {
	if i.Host != "" {
		return i.Name + " " + i.ID + "@" + i.Host
	}
	return i.Name + " " + i.ID
}

func sameDay(y int, m time.Month, d int, t time.Time) bool {
	ty, tm, td := t.Date()
	return y == ty && m == tm && d == td
}

// lifecycleEvent reports whether t is one of a run's lifecycle events (describe's,
// and those it leaves out on purpose).
func lifecycleEvent(t runs.EventType) bool {
	switch t {
	case runs.EventSpawn, runs.EventState, runs.EventCancel, runs.EventPause, runs.EventCleanup, runs.EventExit,
		runs.EventOutput, runs.EventWatchdog, runs.EventEscape, runs.EventAgent, runs.EventNotify, runs.EventShared,
		runs.EventRemoved:
		return true
	}
	return false
}

// AddOnce adds a line unless it is the newest already (the keys of one burst typed
// while the server is lost fail one write at a time: one line says it).
func (e *Events) AddOnce(at time.Time, text string, style common.Style) {
	if n := len(e.lines); n > 0 && e.lines[n-1].text == common.Clean(text) {
		return
	}
	e.add(at, text, style)
}

// AddNote records something the UI did or learned.
func (e *Events) AddNote(at time.Time, text string) { e.add(at, text, common.Style{}) }

// AddDecision records one reconciliation decision.
func (e *Events) AddDecision(at time.Time, d runs.Decision) {
	text := fmt.Sprintf("reconcile %s %s: %s", d.Name, d.ID, d.Decision)
	if d.PID != 0 {
		text += fmt.Sprintf(" pid %d", d.PID)
	}
	if d.Detail != "" {
		text += " · " + d.Detail
	}
	style := common.Style{}
	if d.Decision != runs.VerdictKept && d.Decision != runs.VerdictLeftAlone {
		style = e.c.Styles.Warn
	}
	e.add(at, text, style)
}

// describe turns a core event into a line; resizes and output are not shown.
func (e Events) describe(ev runs.Event) (string, common.Style, bool) {
	st, i := e.c.Styles, ev.Run
	name := runName(i)
	switch ev.Type {
	case runs.EventSpawn:
		if i.Adopted {
			return fmt.Sprintf("adopted %s pid %d", name, i.PID), st.Warn, true
		}
		return fmt.Sprintf("spawn %s (%s)", name, ev.Detail), common.Style{}, true
	case runs.EventState:
		if ev.Detail == runs.DetailResize || i.State == runs.Exited { // the exit event says more
			return "", common.Style{}, false
		}
		return fmt.Sprintf("%s → %s%s", name, i.State, pidSuffix(i)), common.Style{}, true
	case runs.EventCancel:
		return fmt.Sprintf("%s stop: %s", name, ev.Detail), st.Warn, true
	case runs.EventPause:
		if i.Paused {
			return name + " paused", st.Warn, true
		}
		return name + " resumed", common.Style{}, true
	case runs.EventCleanup:
		return fmt.Sprintf("%s cleanup: %s", name, ev.Detail), common.Style{}, true
	case runs.EventExit:
		how := i.Reason.String() + exitText(i, " · exit ", " · signal ")
		if i.Reason == runs.Exit {
			how = "exit" + exitText(i, " ", " by signal ")
		}
		if i.SpawnErr != "" { // why it could not start: the program not found, …
			how += ": " + common.Clean(i.SpawnErr)
		}
		return name + " exited: " + how, badgeStyle(st, i), true
	case runs.EventEscape:
		line := fmt.Sprintf("%s ⚠ escape: %d processes left the session", name, i.Escapees)
		if ev.Detail != "" {
			line += ": " + common.Clean(ev.Detail) // which ones, by pid and command line (issue 14.1)
		}
		return line, st.Warn, true
	case runs.EventWatchdog:
		return fmt.Sprintf("%s watchdog: %s", name, ev.Detail), st.Warn, true
	case runs.EventAgent:
		return fmt.Sprintf("%s agent: %s", name, common.Clean(ev.Detail)), stateStyle(st, i), true
	case runs.EventNotify:
		return fmt.Sprintf("%s notified: %s", name, common.Clean(ev.Detail)), st.Attention, true
	}
	return "", common.Style{}, false
}

func pidSuffix(i runs.Info) string {
	if i.PID == 0 || i.State != runs.Running {
		return ""
	}
	return fmt.Sprintf(" pid %d", i.PID)
}

// ScrollBy scrolls n lines older (negative: newer), within the lines held.
func (e *Events) ScrollBy(n int) {
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
