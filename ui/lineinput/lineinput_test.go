package lineinput

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

func press(in *Model, keys ...tea.KeyPressMsg) {
	for _, k := range keys {
		in.Key(k)
	}
}

func typed(in *Model, s string) {
	for _, r := range s {
		in.Key(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }

// The editing keys: a word deleted backwards, the text before and after the cursor,
// moves; a control key that is not the editor's is not used.
func TestLineInputEditing(t *testing.T) {
	in := New(false)
	typed(&in, "one two three")
	press(&in, ctrl('w'))
	if in.Value() != "one two " {
		t.Fatalf("ctrl+w: %q", in.Value())
	}
	press(&in, tea.KeyPressMsg{Code: tea.KeyLeft}, tea.KeyPressMsg{Code: tea.KeyBackspace}, ctrl('a'), tea.KeyPressMsg{Code: tea.KeyDelete})
	if in.Value() != "ne tw " {
		t.Fatalf("left, backspace, home, delete: %q", in.Value())
	}
	press(&in, ctrl('e'), tea.KeyPressMsg{Code: tea.KeyLeft}, tea.KeyPressMsg{Code: tea.KeyLeft}, ctrl('k'))
	if in.Value() != "ne t" {
		t.Fatalf("ctrl+k: %q", in.Value())
	}
	press(&in, ctrl('u'))
	if in.Value() != "" {
		t.Fatalf("ctrl+u: %q", in.Value())
	}
	if in.Key(ctrl('x')) || in.Key(tea.KeyPressMsg{Code: 'b', Text: "b", Mod: tea.ModAlt}) {
		t.Fatal("a key that is not the editor's was used")
	}
}

// The view scrolls so the cursor stays visible in its width, and gives the cursor's
// column; newlines are kept only in a multi-line editor, shown ⏎, tabs shown →.
func TestLineInputViewAndNewlines(t *testing.T) {
	in := New(false)
	in.SetValue("abcdefghij")
	if text, col := in.View(5); text != "ghij" || col != 4 {
		t.Fatalf("view at the end: %q, column %d", text, col)
	}
	press(&in, ctrl('a'))
	if text, col := in.View(5); text != "abcd…" || col != 0 {
		t.Fatalf("view at the start: %q, column %d", text, col)
	}
	in.SetValue("a\r\nb\tc")
	if in.Value() != "a b\tc" {
		t.Fatalf("one-line: %q", in.Value())
	}
	ml := New(true)
	ml.Insert("a\r\nb\tc\x1b")
	if text, _ := ml.View(10); ml.Value() != "a\nb\tc" || text != "a⏎b→c" {
		t.Fatalf("multi-line: %q shown %q", ml.Value(), text)
	}
}
