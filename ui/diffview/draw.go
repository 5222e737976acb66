package diffview

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"corral/ui/common"
)

// tabWidth is where git's pager puts tab stops.
const tabWidth = 8

// View draws the screen: the bar (run, branch, base, figures, where the window is), the
// window's lines, and the bottom line (the search being typed, a notice, or the keys).
// It reads only the lines shown.
func (m Model) View() string {
	return m.cache.Get(viewKey{ver: m.ver, w: m.w, h: m.h}, func() string { return common.JoinLines(m.render()) })
}

func (m Model) render() []string {
	if m.w <= 0 || m.h <= 0 {
		return nil
	}
	out := make([]string, 0, m.h)
	out = append(out, m.bar())
	out = append(out, m.body()...)
	if m.h > 1 {
		out = append(out, m.bottom())
	}
	return out[:m.h]
}

// bar is the top line.
func (m Model) bar() string {
	st := m.st
	name := st.Current.Render(" DIFF ") + " " + st.Bar.Render(common.Clean(m.name))
	branch, against, figures, files := "", "", "", ""
	if m.wt.Branch != "" {
		branch = st.Muted.Render(" " + common.Clean(m.wt.Branch))
		against = st.Muted.Render(" against " + m.base())
	}
	if m.doc != nil {
		figures = " " + st.Add.Render(fmt.Sprintf("+%d", m.stat.Added)) + " " + st.Del.Render(fmt.Sprintf("−%d", m.stat.Removed))
		files = st.Muted.Render(fmt.Sprintf(" in %d files", m.stat.Files))
	}
	right := ""
	if m.doc.Len() > 0 {
		right = st.Muted.Render(m.position() + " ")
	}
	if m.query != "" && !m.typing {
		right = st.Warn.Render(m.matchText()) + " " + right
	}
	rw := common.WidthOf(right)
	// A narrow bar leaves out whole words, the least needed first (the file count,
	// the base, the branch), before it cuts what is left.
	left := name + branch + against + figures + files
	for _, l := range []string{name + branch + against + figures, name + branch + figures, name + figures} {
		if common.WidthOf(left)+rw+1 <= m.w {
			break
		}
		left = l
	}
	lw := common.WidthOf(left)
	switch {
	case rw+10 > m.w: // too narrow for where the window is
		return common.Fit(left, m.w)
	case lw+rw+1 > m.w: // where the window is comes first
		return common.Fit(left, m.w-rw-1) + " " + right
	}
	return left + spaces(m.w-lw-rw) + right
}

// base is the base as the bar and the empty view say it: "main (1a2b3c4)".
func (m Model) base() string {
	short := m.wt.Base
	if len(short) > 7 {
		short = short[:7]
	}
	switch {
	case m.wt.BaseRef != "" && short != "":
		return common.Clean(m.wt.BaseRef) + " (" + short + ")"
	case short != "":
		return short
	}
	return "its base"
}

// matchText is "/query 2/7" or "/query no match".
func (m Model) matchText() string {
	n := "no match"
	if len(m.matches) > 0 && m.cur >= 0 {
		n = fmt.Sprintf("%d/%d", m.cur+1, len(m.matches))
	} else if len(m.matches) > 0 {
		n = fmt.Sprintf("%d matches", len(m.matches))
	}
	return "/" + common.Clean(m.query) + " " + n
}

// body is the window's lines, or what stands in for them.
func (m Model) body() []string {
	rows := m.h - 2
	if rows <= 0 {
		return nil
	}
	switch {
	case m.doc == nil && m.err != "":
		return message(m.st.Warn, "diff: "+m.err, m.w, rows)
	case m.doc == nil:
		return message(m.st.Muted, "reading the diff…", m.w, rows)
	case m.doc.Len() == 0:
		return message(m.st.Muted, "no changes against "+m.base(), m.w, rows)
	}
	out := make([]string, 0, rows)
	cur := -1
	if m.cur >= 0 {
		cur = m.matches[m.cur]
	}
	for i := m.top; i < m.doc.Len() && len(out) < rows; i++ {
		out = append(out, m.line(i, i == cur))
	}
	blank := strings.Repeat(" ", m.w)
	for len(out) < rows {
		out = append(out, blank)
	}
	return out
}

// message is one line of text, at the top of an otherwise blank window.
func message(st common.Style, text string, w, rows int) []string {
	out := common.BlankLines(w, rows)
	out[0] = common.Fit(st.Render(" "+common.Trunc(text, max(w-1, 0))), w)
	return out
}

// line draws diff line i in the window's columns, coloured by its kind, its matches
// marked (in the current match's style on the current match's line).
func (m Model) line(i int, current bool) string {
	seg, cols, more := visible(m.doc.line(i), m.x, m.w)
	st := m.kindStyle(m.doc.kinds[i])
	var text string
	if m.query != "" {
		hl := m.st.Match
		if current {
			hl = m.st.Current
		}
		text = highlight(seg, m.query, st, hl)
	} else {
		text = st.Render(seg)
	}
	if more {
		return text + m.st.Cut.Render("…")
	}
	return text + spaces(m.w-cols)
}

func (m Model) kindStyle(k kind) common.Style {
	switch k {
	case kindFile:
		return m.st.File
	case kindPath:
		return m.st.Path
	case kindMeta:
		return m.st.Meta
	case kindHunk:
		return m.st.Hunk
	case kindAdd:
		return m.st.Add
	case kindDel:
		return m.st.Del
	case kindNote:
		return m.st.Note
	}
	return common.Style{}
}

// highlight draws seg in st with every occurrence of q in hl.
func highlight(seg, q string, st, hl common.Style) string {
	hay := seg
	if fold(q) {
		hay = string(lowerASCII([]byte(seg)))
	}
	var b strings.Builder
	for {
		i := strings.Index(hay, q)
		if i < 0 {
			break
		}
		b.WriteString(st.Render(seg[:i]))
		b.WriteString(hl.Render(seg[i : i+len(q)]))
		seg, hay = seg[i+len(q):], hay[i+len(q):]
	}
	b.WriteString(st.Render(seg))
	return b.String()
}

// visible is the part of line l from column from that fits in w columns, as printable
// text: tabs expanded, control characters shown as ^X, invalid bytes as �. more says
// the line goes on past the window; the text is then w-1 columns wide, for a mark.
// It reads l only up to the window's right edge, so a line a megabyte long costs
// what a short one does.
func visible(l []byte, from, w int) (string, int, bool) {
	if w < 1 {
		return "", 0, false
	}
	buf := make([]byte, 0, w+8)
	col, shown, fit, fitCols := 0, 0, 0, 0
	for i := 0; i < len(l); {
		piece, pw, n := cell(l[i:], col)
		i += n
		switch {
		case col+pw <= from: // left of the window
		case col < from: // a tab or a wide character cut by the window's left edge
			n := min(col+pw-from, w)
			buf = append(buf, spaces(n)...)
			shown += n
		case shown+pw > w:
			return string(append(buf[:fit], spaces(w-1-fitCols)...)), w - 1, true
		default:
			buf = append(buf, piece...)
			shown += pw
		}
		col += pw
		if shown <= w-1 {
			fit, fitCols = len(buf), shown
		}
	}
	return string(buf), shown, false
}

// cell is the first character of b as drawn at column col: its text, its width and
// the bytes it takes.
func cell(b []byte, col int) (string, int, int) {
	c := b[0]
	switch {
	case c == '\t':
		n := tabWidth - col%tabWidth
		return blanks[:n], n, 1
	case c < 0x20 || c == 0x7f:
		return caret[c&0x7f], 2, 1
	case c < 0x80:
		return ascii[c], 1, 1
	}
	r, n := utf8.DecodeRune(b)
	switch {
	case r == utf8.RuneError:
		return "�", 1, n
	case r < 0xa0: // C1 controls
		return "^?", 2, n
	}
	s := string(b[:n])
	return s, ansi.StringWidth(s), n
}

var (
	blanks = strings.Repeat(" ", tabWidth)
	ascii  [0x80]string
	caret  [0x80]string
)

func init() {
	for c := range 0x80 {
		ascii[c] = string(rune(c))
		caret[c] = "^" + string(rune(c^0x40))
	}
}

// bottom is the last line: the search being typed, a notice, or the keys.
func (m Model) bottom() string {
	st, km := m.st, m.km
	switch {
	case m.typing:
		text, _ := m.input.View(max(m.w-10, 1))
		return common.Fit(st.Warn.Render(" search: ")+text, m.w)
	case m.notice != "":
		return common.Fit(st.Warn.Render(" "+m.notice), m.w)
	case m.err != "" && m.doc != nil:
		return common.Fit(st.Warn.Render(" diff: "+m.err+" (the diff shown is the last read)"), m.w)
	case m.loading && m.doc != nil:
		return common.Fit(st.Muted.Render(" reading the diff again…"), m.w)
	}
	// Keys are left out whole from the right when the line is too narrow, but close
	// always shows: the one key a user who opened the view by mistake needs.
	item := func(keys, desc string) string {
		return " " + st.BarKey.Render(keys) + " " + st.Muted.Render(desc) + " "
	}
	closing := item(km.DiffClose.Help().Key, "close")
	room := m.w - common.WidthOf(closing)
	var b strings.Builder
	for _, k := range []struct{ keys, desc string }{
		{common.HelpKeys([]string{common.FirstKey(km.DiffDown), common.FirstKey(km.DiffUp)}), "scroll"},
		{pair(common.FirstKey(km.DiffHalfDown), common.FirstKey(km.DiffHalfUp)), "half page"},
		{pair(common.FirstKey(km.DiffNextFile), common.FirstKey(km.DiffPrevFile)), "file"},
		{pair(common.FirstKey(km.DiffNextHunk), common.FirstKey(km.DiffPrevHunk)), "hunk"},
		{common.FirstKey(km.DiffSearch), "search"},
		{pair(common.FirstKey(km.DiffNextMatch), common.FirstKey(km.DiffPrevMatch)), "match"},
		{common.FirstKey(km.DiffRefresh), "refresh"},
	} {
		it := item(k.keys, k.desc)
		if room -= common.WidthOf(it); room < 0 {
			break
		}
		b.WriteString(it)
	}
	return common.Fit(b.String()+closing, m.w)
}

func pair(a, b string) string { return a + "/" + b }

// spaces is n spaces (none for n ≤ 0).
func spaces(n int) string { return strings.Repeat(" ", max(n, 0)) }
