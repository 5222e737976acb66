package common

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// LineInput is a one-line text editor for prompts, the form and the run list's filter (bubbles' textinput
// would pull in a clipboard module the build does not have). Multi-line values
// (pastes) are kept whole and shown with ⏎ for each newline.
type LineInput struct {
	value     []rune
	pos       int
	multiline bool // keep newlines (a paste prompt); otherwise they become spaces
}

// Key edits on a key press and reports whether it used the key.
func (in *LineInput) Key(k tea.KeyPressMsg) bool {
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
		in.Insert(k.Text)
	}
	return true
}

func (in *LineInput) deleteWord() {
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

// Insert adds text at the cursor, dropping control characters (and newlines unless
// multi-line).
func (in *LineInput) Insert(s string) {
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
		case !IsControl(r):
			rs = append(rs, r)
		}
	}
	tail := append(rs, in.value[in.pos:]...)
	in.value = append(in.value[:in.pos], tail...)
	in.pos += len(rs)
}

// Value is the text.
func (in LineInput) Value() string { return string(in.value) }

// SetValue replaces the text, the cursor at its start.
func (in *LineInput) SetValue(s string) { in.value, in.pos = nil, 0; in.Insert(s) }

// View shows the value in w columns, scrolled so the cursor is visible, and returns
// the cursor's column.
func (in LineInput) View(w int) (string, int) {
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
	return Trunc(strings.Join(cells[start:], ""), w), col
}

// NewLineInput is an editor that keeps newlines (a paste prompt's) when multiline;
// the zero LineInput turns them into spaces.
func NewLineInput(multiline bool) LineInput { return LineInput{multiline: multiline} }

// CursorEnd puts the cursor after the text.
func (in *LineInput) CursorEnd() { in.pos = len(in.value) }
