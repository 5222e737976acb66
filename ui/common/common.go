// Package common is what every pane of the UI reads and none changes: the styles, the
// clock, and the text helpers that draw rows and frames (cut, pad, box, widths, ages,
// wrapping), and a run's state, badge and countdowns as every pane draws them.
// The root builds one Common and passes the pointer down; each pane has its own keys.
package common

import (
	"strings"
	"time"

	"charm.land/lipgloss/v2"
)

// Common is the styles and the clock, built once by the root model.
type Common struct {
	Styles Styles
	// Now is the clock countdowns and ages are computed with; tests fix it.
	Now func() time.Time
}

// New builds a Common with the default styles; now nil is the wall clock.
func New(now func() time.Time) *Common {
	if now == nil {
		now = time.Now
	}
	return &Common{Styles: DefaultStyles(), Now: now}
}

// Style is a lipgloss style compiled once to the SGR text around a span, so drawing a
// row of a pane costs string concatenation instead of a lipgloss render per field
// (lipgloss.Style.Render costs microseconds; a frame draws hundreds of spans). Only
// inline attributes count: colours, bold, faint, reverse, underline.
type Style struct {
	pre, post string
}

// NewStyle compiles a lipgloss style.
func NewStyle(st lipgloss.Style) Style {
	r := st.Render("x")
	i := strings.Index(r, "x")
	return Style{pre: r[:i], post: r[i+1:]}
}

// Render draws text in the style.
func (s Style) Render(text string) string {
	if text == "" || s.pre == "" {
		return text
	}
	return s.pre + text + s.post
}

// Styles are the UI's colours, on the ANSI 16-colour palette (see the package doc).
type Styles struct {
	Border      Style // pane frames
	BorderFocus Style // the frame of the pane keys go to
	Title       Style // pane titles
	TitleFocus  Style
	Focus       Style // the FOCUS indicator
	Selected    Style // the selected run's row
	Muted       Style // secondary text
	Warn        Style // a deadline in its last 20%, escapes
	Danger      Style // errors, failed runs
	OK          Style // clean exits, verified cleanups
	Attention   Style // the attention marker
	Running     Style // live state
	ErrGutter   Style // the stderr mark of a log line
	Match       Style // a search match
	Key         Style // a key in the status line
	Desc        Style // its description
	Dialog      Style // prompt labels
	// An agent's state: waiting (blocked on the user) is the loudest thing on screen.
	AgentWaiting Style
	AgentWorking Style
	AgentIdle    Style
}

// DefaultStyles returns the default palette.
func DefaultStyles() Styles {
	c := func(n int) lipgloss.ANSIColor { return lipgloss.ANSIColor(n) }
	s := func() lipgloss.Style { return lipgloss.NewStyle() }
	n := NewStyle
	return Styles{
		Border:      n(s().Faint(true)),
		BorderFocus: n(s().Foreground(c(3)).Bold(true)),
		Title:       n(s().Bold(true)),
		TitleFocus:  n(s().Bold(true).Foreground(c(3))),
		Focus:       n(s().Bold(true).Reverse(true).Foreground(c(3))),
		Selected:    n(s().Reverse(true).Bold(true)),
		Muted:       n(s().Faint(true)),
		Warn:        n(s().Foreground(c(3)).Bold(true)),
		Danger:      n(s().Foreground(c(1)).Bold(true)),
		OK:          n(s().Foreground(c(2))),
		Attention:   n(s().Foreground(c(5)).Bold(true)),
		Running:     n(s().Foreground(c(6))),
		ErrGutter:   n(s().Foreground(c(1))),
		Match:       n(s().Reverse(true).Foreground(c(3))),
		Key:         n(s().Bold(true)),
		Desc:        n(s().Faint(true)),
		Dialog:      n(s().Bold(true).Foreground(c(6))),

		AgentWaiting: n(s().Bold(true).Reverse(true).Foreground(c(3))),
		AgentWorking: n(s().Foreground(c(6))),
		AgentIdle:    n(s().Foreground(c(2))),
	}
}
