package terminal

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"corral/ptyhost/screen"
)

// The terminal pane showing a live screen: the rendering fitted to the pane, the
// real cursor, the screen's state for input.

// screenBody is the screen's rendering fitted to the pane: lines are already exactly
// the screen's width, so they are only cut or padded when the pane and the screen
// disagree (a resize on its way, a replay at its recording's size, a run another
// attached UI sized larger: runs/viewers.go).
//
// A screen larger than the pane shows the part its cursor is in, where its newest
// output is: from the top while the cursor is in the first ih rows, then the ih rows
// ending at the cursor's; across, from the left while the cursor is in the first iw
// columns, then the iw columns ending at the cursor's (screenOrigin).
func (t Terminal) screenBody(st screen.ScreenState, iw, ih int) []string {
	lines := strings.Split(t.screen.Render(), "\n")
	cols, _ := t.screen.Size()
	left, top := screenOrigin(cols, len(lines), iw, ih, st)
	if len(lines) > ih {
		lines = lines[top : top+ih]
	}
	if cols != iw || left > 0 {
		for i := range lines {
			lines[i] = fitScreenLine(lines[i], left, cols, iw)
		}
	}
	for len(lines) < ih {
		lines = append(lines, strings.Repeat(" ", iw))
	}
	return lines
}

// screenOrigin is the screen's cell at the pane's top left corner: a screen of cols ×
// rows in a pane of iw × ih shows the part its cursor is in.
func screenOrigin(cols, rows, iw, ih int, st screen.ScreenState) (left, top int) {
	return screenTop(cols, iw, st.CursorX), screenTop(rows, ih, st.CursorY)
}

// screenTop is the first of a screen's rows a pane ih rows high shows (or the first
// of its columns, across).
func screenTop(rows, ih, cursorY int) int {
	return min(max(cursorY-ih+1, 0), max(rows-ih, 0))
}

// fitScreenLine makes a line of Render, cols columns wide, exactly the w columns from
// column left (the pens of the columns skipped still apply). The
// Screen counts columns rune by rune, as a terminal does (screen.RuneWidth), so a
// cluster like 👍🏽 or 👨‍👩‍👧 is as wide as its parts; so does Bubble Tea's renderer
// on a terminal without grapheme clustering (mode 2027). widthOf and fit count such a
// cluster as one wide character, which would pad or cut the line to the wrong width
// and push the pane's right edge, so a screen line is padded by
// what it is known to lack, and cut rune by rune.
func fitScreenLine(line string, left, cols, w int) string {
	if cols < w && left == 0 {
		return line + strings.Repeat(" ", w-cols)
	}
	var b strings.Builder
	n, skip := 0, left
	for i := 0; i < len(line); {
		if line[i] == 0x1b { // Render writes SGR sequences only: ESC [ … m
			end := strings.IndexByte(line[i:], 'm') + 1
			if end == 0 {
				break
			}
			b.WriteString(line[i : i+end])
			i += end
			continue
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		if skip > 0 { // left of the pane: a wide character cut in two leaves a blank
			if skip -= screen.RuneWidth(r); skip < 0 {
				b.WriteByte(' ')
				n = -skip
				skip = 0
			}
			i += size
			continue
		}
		if n += screen.RuneWidth(r); n > w {
			n -= screen.RuneWidth(r) // a wide character that does not fit
			break
		}
		b.WriteString(line[i : i+size])
		i += size
	}
	return b.String() + strings.Repeat(" ", w-n) + "\x1b[0m"
}

// Cursor is where the app's cursor is, relative to the pane's top left corner, when
// the pane is focused on a live screen and the app shows its cursor.
func (t Terminal) Cursor() *tea.Cursor {
	st := t.cache.state
	if !t.focused || t.screen == nil || t.scroll != nil || !st.CursorVisible {
		return nil
	}
	iw, ih := t.InnerSize()
	cols, rows := t.screen.Size()
	left, top := screenOrigin(cols, rows, iw, ih, st)
	x, y := st.CursorX-left, st.CursorY-top
	if x >= iw || y >= ih {
		return nil
	}
	c := tea.NewCursor(x+1, y+1)
	c.Shape, c.Blink = cursorShape(st.CursorShape)
	return c
}

// cursorShape maps DECSCUSR Ps to a shape and blinking: 0–2 block, 3–4 underline,
// 5–6 bar; odd (and 0) blink.
func cursorShape(ps int) (tea.CursorShape, bool) {
	blink := ps == 0 || ps%2 == 1
	switch ps {
	case 3, 4:
		return tea.CursorUnderline, blink
	case 5, 6:
		return tea.CursorBar, blink
	}
	return tea.CursorBlock, blink
}

// ReadState is the screen's state now (zero without a screen), for the keys, pastes
// and mouse events sent to it. It is read, not rendered (ScreenState is the state of
// the last rendering), so a panicking screen yields the zero state.
func (t Terminal) ReadState() (st screen.ScreenState) {
	if t.screen == nil {
		return st
	}
	defer func() { _ = recover() }()
	return t.screen.State()
}
