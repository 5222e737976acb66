package runlist

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/ui/common"
)

// press is the key press of a key's name (a rune, or ctrl+ one).
func press(name string) tea.KeyPressMsg {
	special := map[string]tea.Key{"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape},
		"down": {Code: tea.KeyDown}, "ctrl+f": {Code: 'f', Mod: tea.ModCtrl}, "ctrl+b": {Code: 'b', Mod: tea.ModCtrl}}
	if k, ok := special[name]; ok {
		return tea.KeyPressMsg(k)
	}
	return tea.KeyPressMsg{Code: []rune(name)[0], Text: name}
}

// The list's Update is its own keys, without the root: a row, a page, either end, a
// wheel notch, the filter typed (accept keeps it, dismiss drops it); a key rebound in
// the root's KeyMap after New is the one the list reads.
func TestListUpdateKeys(t *testing.T) {
	rs := make([]runs.Info, 10)
	for i := range rs {
		rs[i] = liveRun(fmt.Sprintf("r%d", i), fmt.Sprintf("job-%d", i), true)
	}
	keys := DefaultKeyMap()
	l := New(common.New(nil), &keys, FilterKeys{Accept: &filterKeys.accept, Dismiss: &filterKeys.dismiss}, rs)
	l.SetSize(40, 6) // four rows a page
	step := func(what string, msg tea.Msg, want string) {
		t.Helper()
		l, _ = l.Update(msg)
		if got := l.SelectedKey(); got != want {
			t.Fatalf("%s: selected %s, want %s", what, got, want)
		}
	}
	step("j", press("j"), "r1")
	step("ctrl+f", press("ctrl+f"), "r5")
	step("G", press("G"), "r9")
	step("wheel up", tea.MouseWheelMsg{Button: tea.MouseWheelUp}, "r8")
	step("wheel down", tea.MouseWheelMsg{Button: tea.MouseWheelDown}, "r9")
	step("g", press("g"), "r0")
	step("/", press("/"), "r0")
	if !l.Filtering() {
		t.Fatal("/ did not open the filter")
	}
	step("typing 7", press("7"), "r7")             // the first match
	step("down while typing", press("down"), "r7") // the only match
	step("j while typing: text", press("j"), "r7")
	if !l.Filtered() || l.Matches("r7") {
		t.Fatalf("the filter 7j: filtered %v, r7 shown %v", l.Filtered(), l.Matches("r7"))
	}
	step("backspace", tea.KeyPressMsg{Code: tea.KeyBackspace}, "r7")
	step("enter", press("enter"), "r7")
	if l.Filtering() || !l.Filtered() {
		t.Fatalf("enter: filtering %v, filtered %v", l.Filtering(), l.Filtered())
	}
	step("esc", press("esc"), "r7")
	if l.Filtered() {
		t.Fatal("esc did not clear the filter")
	}
	keys.Down = common.Bind("select down", "x")
	step("x rebound after New", press("x"), "r8")
	step("j unbound", press("j"), "r8")
}
