// Package lineinput is a one-line text editor: the dialogs' prompts and fields and
// the run list's filter. Its keys are bindings named as bubbles' textinput names them,
// but it is not textinput: textinput's sanitizer turns every newline and tab into a
// space ("\r\n" into two), and a paste or submit prompt keeps them (shown ⏎ and →) and
// sends them as they were; its ctrl+v reads the system clipboard (another module,
// a clipboard program run), where a terminal's paste comes as a paste; and its word
// moves on alt keys would take keys that today fall through (the run list's filter
// moves the selection on a key the editor does not use).
package lineinput

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"corral/ui/common"
)

// keyMap is the editing keys (named as bubbles' textinput names them).
type keyMap struct {
	CharacterForward, CharacterBackward, LineStart, LineEnd   key.Binding
	DeleteCharacterBackward, DeleteCharacterForward           key.Binding
	DeleteBeforeCursor, DeleteAfterCursor, DeleteWordBackward key.Binding
}

// keys is every editor's keys: the arrows, home and end, and Emacs's. They are not
// configurable, so the zero Model edits.
var keys = keyMap{
	CharacterForward:        key.NewBinding(key.WithKeys("right", "ctrl+f")),
	CharacterBackward:       key.NewBinding(key.WithKeys("left", "ctrl+b")),
	LineStart:               key.NewBinding(key.WithKeys("home", "ctrl+a")),
	LineEnd:                 key.NewBinding(key.WithKeys("end", "ctrl+e")),
	DeleteCharacterBackward: key.NewBinding(key.WithKeys("backspace", "ctrl+h")),
	DeleteCharacterForward:  key.NewBinding(key.WithKeys("delete", "ctrl+d")),
	DeleteBeforeCursor:      key.NewBinding(key.WithKeys("ctrl+u")),
	DeleteAfterCursor:       key.NewBinding(key.WithKeys("ctrl+k")),
	DeleteWordBackward:      key.NewBinding(key.WithKeys("ctrl+w")),
}

// Model is a one-line text editor; the zero Model is an empty one. Multi-line values
// (pastes) are kept whole and shown with ⏎ for each newline.
type Model struct {
	value     []rune
	pos       int
	multiline bool // keep newlines (a paste prompt); otherwise they become spaces
}

// New returns an empty editor; a multi-line one keeps newlines.
func New(multiline bool) Model { return Model{multiline: multiline} }

// Key edits on a key press and reports whether it used the key.
func (in *Model) Key(k tea.KeyPressMsg) bool {
	km := keys
	switch {
	case key.Matches(k, km.CharacterBackward):
		in.pos = max(in.pos-1, 0)
	case key.Matches(k, km.CharacterForward):
		in.pos = min(in.pos+1, len(in.value))
	case key.Matches(k, km.LineStart):
		in.pos = 0
	case key.Matches(k, km.LineEnd):
		in.CursorEnd()
	case key.Matches(k, km.DeleteCharacterBackward):
		if in.pos > 0 {
			in.value = append(in.value[:in.pos-1], in.value[in.pos:]...)
			in.pos--
		}
	case key.Matches(k, km.DeleteCharacterForward):
		if in.pos < len(in.value) {
			in.value = append(in.value[:in.pos], in.value[in.pos+1:]...)
		}
	case key.Matches(k, km.DeleteBeforeCursor):
		in.value, in.pos = append([]rune(nil), in.value[in.pos:]...), 0
	case key.Matches(k, km.DeleteAfterCursor):
		in.value = in.value[:in.pos]
	case key.Matches(k, km.DeleteWordBackward):
		in.deleteWord()
	default:
		if k.Text == "" || k.Mod&(tea.ModCtrl|tea.ModAlt) != 0 {
			return false
		}
		in.Insert(k.Text)
	}
	return true
}

// CursorEnd moves the cursor after the last character.
func (in *Model) CursorEnd() { in.pos = len(in.value) }

func (in *Model) deleteWord() {
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
func (in *Model) Insert(s string) {
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

// Value is the text.
func (in Model) Value() string { return string(in.value) }

// SetValue replaces the text, with the cursor at its end.
func (in *Model) SetValue(s string) { in.value, in.pos = nil, 0; in.Insert(s) }

// View shows the value in w columns, scrolled so the cursor is visible, and returns
// the cursor's column.
func (in Model) View(w int) (string, int) {
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
