package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"corral/runs"
)

// An override by action name reaches the KeyMap of the component that owns the key:
// the run list's (down), the dialogs' (yes), the scroll mode's (scroll_up). The new
// key acts there and the old one no longer does.
func TestOverridesReachComponentKeyMaps(t *testing.T) {
	engine := newFake()
	a, b := liveRun("r1", "claude", true), liveRun("r2", "tests", false)
	engine.snap = []runs.Info{a, b}
	engine.screens["r1"] = screenWith(80, 24, "$ ")
	var log strings.Builder
	for i := range 200 {
		fmt.Fprintf(&log, "line %d\r\n", i)
	}
	engine.logs["r2"] = runs.Output{Chunks: []runs.Chunk{{Data: []byte(log.String())}}}
	h := harnessWith(t, engine, Options{Initial: engine.snap,
		Keys: map[string][]string{"down": {"J"}, "yes": {"j"}, "scroll_up": {"u"}}}, 120, 30)
	km := h.m.c.Keys
	for name, got := range map[string][]string{"down": km.ListKeyMap.Down.Keys(), "yes": km.DialogKeyMap.Yes.Keys(),
		"scroll_up": km.ScrollKeyMap.ScrollUp.Keys()} {
		if len(got) != 1 {
			t.Errorf("%s: keys %q, want the override alone", name, got)
		}
	}

	h.key("j")
	if h.m.list.SelectedKey() != "r1" {
		t.Fatalf("j still moves the list down (selected %s)", h.m.list.SelectedKey())
	}
	h.key("J")
	if h.m.list.SelectedKey() != "r2" {
		t.Fatalf("J did not move the list down (selected %s)", h.m.list.SelectedKey())
	}

	h.key("x", "y") // y is no longer yes: the question closes as a no
	h.key("x", "j")
	if got := engine.called("Cancel"); !slices.Equal(got, []string{"Cancel r2"}) {
		t.Fatalf("cancel answered with y then j: calls %q, want one Cancel r2", got)
	}

	h.key("pgup")
	if h.m.mode != modeScroll || !h.m.term.Scrolling() || !historyLoaded(h.m.term) {
		t.Fatalf("pgup did not open the transcript (mode %v)", h.m.mode)
	}
	top := scrollTop(h.m.term)
	h.key("k")
	if scrollTop(h.m.term) != top {
		t.Fatalf("k still scrolls up (top %d → %d)", top, scrollTop(h.m.term))
	}
	h.key("u")
	if scrollTop(h.m.term) != top-1 {
		t.Fatalf("u did not scroll up a line (top %d → %d)", top, scrollTop(h.m.term))
	}
}
