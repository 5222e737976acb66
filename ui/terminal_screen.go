package ui

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
// disagree (a resize on its way, a replay at its recording's size).
//
// A screen taller than the pane (a replay of a bigger recording) shows the rows
// around its cursor, where its newest output is: from the top while the cursor is in
// the first ih rows, then the ih rows ending at the cursor's.
func (t Terminal) screenBody(st screen.ScreenState, iw, ih int) []string {
	lines := strings.Split(t.screen.Render(), "\n")
	cols, _ := t.screen.Size()
	if len(lines) > ih {
		top := screenTop(len(lines), ih, st.CursorY)
		lines = lines[top : top+ih]
	}
	if cols != iw {
		for i := range lines {
			lines[i] = fitScreenLine(lines[i], cols, iw)
		}
	}
	for len(lines) < ih {
		lines = append(lines, strings.Repeat(" ", iw))
	}
	return lines
}

// screenTop is the first of a screen's rows a pane ih rows high shows.
func screenTop(rows, ih, cursorY int) int {
	return min(max(cursorY-ih+1, 0), max(rows-ih, 0))
}

// fitScreenLine makes a line of Render, cols columns wide, exactly w columns. The
// Screen counts columns rune by rune, as a terminal does (screen.RuneWidth), so a
// cluster like 👍🏽 or 👨‍👩‍👧 is as wide as its parts; so does Bubble Tea's renderer
// on a terminal without grapheme clustering (mode 2027). widthOf and fit count such a
// cluster as one wide character, which would pad or cut the line to the wrong width
// and push the pane's right edge (issue 10 item 6), so a screen line is padded by
// what it is known to lack, and cut rune by rune.
func fitScreenLine(line string, cols, w int) string {
	if cols < w {
		return line + strings.Repeat(" ", w-cols)
	}
	var b strings.Builder
	n := 0
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
	_, rows := t.screen.Size()
	y := st.CursorY - screenTop(rows, ih, st.CursorY)
	if st.CursorX >= iw || y >= ih {
		return nil
	}
	c := tea.NewCursor(st.CursorX+1, y+1)
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
