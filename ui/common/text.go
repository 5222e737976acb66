package common

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Clean drops control characters (C0, DEL, C1) from text a run or a user chose (names,
// titles, commands), so none reaches the host terminal as a control.
func Clean(s string) string {
	ok := true
	for _, r := range s {
		if IsControl(r) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if !IsControl(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func IsControl(r rune) bool { return r < 0x20 || (r >= 0x7f && r < 0xa0) || r == utf8.RuneError }

// Fit makes a styled line exactly w columns: cut, or padded with spaces.
func Fit(line string, w int) string {
	n := WidthOf(line)
	switch {
	case n == w:
		return line
	case n < w:
		return line + strings.Repeat(" ", w-n)
	}
	line = ansi.Truncate(line, w, "")
	if n = WidthOf(line); n < w { // a wide character did not Fit
		line += strings.Repeat(" ", w-n)
	}
	return line + "\x1b[0m"
}

// Trunc cuts plain text to w columns, marking the cut with "…".
func Trunc(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if WidthOf(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// Pad is plain text cut or padded to exactly w columns.
func Pad(s string, w int) string { return Fit(Trunc(s, w), w) }

// PadLeft right-aligns plain text in w columns.
func PadLeft(s string, w int) string {
	s = Trunc(s, w)
	return strings.Repeat(" ", max(w-WidthOf(s), 0)) + s
}

// Field is one column of a row: Text in a Style, padded to W columns (right-aligned
// in -W columns when W < 0).
type Field struct {
	Text  string
	Style Style
	W     int
}

func (f Field) cell() string {
	if f.W < 0 {
		return PadLeft(f.Text, -f.W)
	}
	return Pad(f.Text, f.W)
}

// FieldsWidth is the width of joined fields.
func FieldsWidth(fs []Field) int {
	n := len(fs) - 1
	for _, f := range fs {
		n += max(f.W, -f.W)
	}
	return n
}

// PlainFields joins fields with one space, unstyled (for a row drawn in one style).
func PlainFields(fs []Field) string {
	var b strings.Builder
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.cell())
	}
	return b.String()
}

// StyledFields joins fields with one space, each in its style.
func StyledFields(fs []Field) string {
	var b strings.Builder
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.Style.Render(f.cell()))
	}
	return b.String()
}

// ViewCache memoises a rendering by what it depends on. View has a value receiver,
// so components hold a pointer to it; a stale entry is never returned because the
// key names everything the rendering reads.
type ViewCache[K comparable] struct {
	key K
	ok  bool
	val string
	// Changes is when a figure the rendering drew against a clock changes (render
	// notes it): GetAt renders again from then on, and the UI's clock wakes for it.
	Changes Changes
}

func (c *ViewCache[K]) Get(k K, render func() string) string {
	if !c.ok || c.key != k {
		c.Changes = Changes{}
		c.key, c.ok, c.val = k, true, render()
	}
	return c.val
}

// GetAt is Get for a rendering drawn against the clock at now: it is rendered again
// also once a figure it noted in Changes has changed.
func (c *ViewCache[K]) GetAt(k K, now time.Time, render func() string) string {
	if c.ok && !c.Changes.at.IsZero() && !now.Before(c.Changes.at) {
		c.ok = false
	}
	return c.Get(k, render)
}

// Box draws a frame of w×h columns and lines around body, whose lines must already be
// exactly w-2 columns (missing lines are blank). The title sits in the top edge. Every
// line is exactly w columns and leaves no style open, so panes join by concatenation.
func Box(border Style, title string, body []string, w, h int) []string {
	if w < 2 || h < 2 {
		return BlankLines(max(w, 0), max(h, 0))
	}
	out := make([]string, 0, h)
	tw := WidthOf(title)
	if tw > w-4 {
		title, tw = ansi.Truncate(title, max(w-4, 0), "…")+"\x1b[0m", min(tw, max(w-4, 0))
	}
	if tw > 0 {
		out = append(out, border.Render("┌─")+title+border.Render(strings.Repeat("─", w-3-tw)+"┐"))
	} else {
		out = append(out, border.Render("┌"+strings.Repeat("─", w-2)+"┐"))
	}
	bar := border.Render("│")
	blank := strings.Repeat(" ", w-2)
	for i := range h - 2 {
		line := blank
		if i < len(body) {
			line = body[i]
		}
		out = append(out, bar+line+bar)
	}
	return append(out, border.Render("└"+strings.Repeat("─", w-2)+"┘"))
}

// BlankLines is h lines of w spaces.
func BlankLines(w, h int) []string {
	out := make([]string, h)
	blank := strings.Repeat(" ", w)
	for i := range out {
		out[i] = blank
	}
	return out
}

// JoinLines joins lines with "\n" into one string, sized up front.
func JoinLines(lines []string) string {
	n := len(lines)
	for _, l := range lines {
		n += len(l)
	}
	var b strings.Builder
	b.Grow(n)
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	return b.String()
}

// FmtLeft is a countdown: "4:59", "1h02m".
func FmtLeft(d time.Duration) string {
	d = max(d, 0).Truncate(time.Second)
	if d >= time.Hour {
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}

// FmtAge is a short age: "12s", "5m", "3h", "2d".
func FmtAge(d time.Duration) string {
	switch d = max(d, 0); {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// FmtBytes is a short size: "812K", "4.2M".
func FmtBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%dB", n)
	case n < 1<<20:
		return fmt.Sprintf("%dK", n>>10)
	case n < 1<<30:
		return fmt.Sprintf("%.1fM", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1fG", float64(n)/(1<<30))
}

// WidthOf is the display width of a styled string. Most of what the panes draw is
// ASCII between SGR sequences, which is counted here directly; anything else goes to
// ansi.StringWidth (grapheme clusters, East Asian widths: what the renderer uses),
// which costs ten times more.
func WidthOf(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			i += 2
			for i < len(s) && (s[i] < 0x40 || s[i] > 0x7e) {
				i++
			}
		case c < 0x20 || c >= 0x7f:
			return ansi.StringWidth(s)
		default:
			n++
		}
	}
	return n
}
