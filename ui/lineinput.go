package ui

import (
	"corral/ui/common"
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// lineInput is a one-line text editor for prompts and the form (bubbles' textinput
// would pull in a clipboard module the build does not have). Multi-line values
// (pastes) are kept whole and shown with ⏎ for each newline.
type lineInput struct {
	value     []rune
	pos       int
	multiline bool // keep newlines (a paste prompt); otherwise they become spaces
}

// key edits on a key press and reports whether it used the key.
func (in *lineInput) key(k tea.KeyPressMsg) bool {
	switch k.Keystroke() {
	case "left", "ctrl+b":
		in.pos = max(in.pos-1, 0)
	case "right", "ctrl+f":
		in.pos = min(in.pos+1, len(in.value))
	case "home", "ctrl+a":
		in.pos = 0
	case "end", "ctrl+e":
		in.pos = len(in.value)
	case "backspace", "ctrl+h":
		if in.pos > 0 {
			in.value = append(in.value[:in.pos-1], in.value[in.pos:]...)
			in.pos--
		}
	case "delete", "ctrl+d":
		if in.pos < len(in.value) {
			in.value = append(in.value[:in.pos], in.value[in.pos+1:]...)
		}
	case "ctrl+u":
		in.value, in.pos = append([]rune(nil), in.value[in.pos:]...), 0
	case "ctrl+k":
		in.value = in.value[:in.pos]
	case "ctrl+w":
		in.deleteWord()
	default:
		if k.Text == "" || k.Mod&(tea.ModCtrl|tea.ModAlt) != 0 {
			return false
		}
		in.insert(k.Text)
	}
	return true
}

func (in *lineInput) deleteWord() {
	i := in.pos
	for i > 0 && unicode.IsSpace(in.value[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(in.value[i-1]) {
		i--
	}
	in.value = append(in.value[:i], in.value[in.pos:]...)
	in.pos = i
}

// insert adds text at the cursor, dropping control characters (and newlines unless
// multi-line).
func (in *lineInput) insert(s string) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var rs []rune
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r':
			if in.multiline {
				rs = append(rs, '\n')
			} else {
				rs = append(rs, ' ')
			}
		case r == '\t':
			rs = append(rs, r)
		case !common.IsControl(r):
			rs = append(rs, r)
		}
	}
	tail := append(rs, in.value[in.pos:]...)
	in.value = append(in.value[:in.pos], tail...)
	in.pos += len(rs)
}

func (in lineInput) Value() string { return string(in.value) }

func (in *lineInput) SetValue(s string) { in.value, in.pos = nil, 0; in.insert(s) }

// view shows the value in w columns, scrolled so the cursor is visible, and returns
// the cursor's column.
func (in lineInput) view(w int) (string, int) {
	shown := func(r rune) string {
		switch r {
		case '\n':
			return "⏎"
		case '\t':
			return "→"
		}
		return string(r)
	}
	cells := make([]string, len(in.value))
	for i, r := range in.value {
		cells[i] = shown(r)
	}
	start, col := 0, 0
	for i := range in.pos {
		col += ansi.StringWidth(cells[i])
	}
	for col >= w && start < in.pos {
		col -= ansi.StringWidth(cells[start])
		start++
	}
	return common.Trunc(strings.Join(cells[start:], ""), w), col
}
