package ui

import (
	"fmt"
	"strings"
	"testing"

	"corral/runs"
)

// A UI sizes the runs its list shows and the selected one, not every run: at a
// thousand runs, attaching sized a thousand. A run that comes into view (the
// selection moved to the end) is sized then, once.
func TestOnlyShownRunsSized(t *testing.T) {
	engine := newFake()
	var all []runs.Info
	for k := range 200 {
		all = append(all, liveRun(fmt.Sprintf("r%03d", k), fmt.Sprintf("run%03d", k), true))
	}
	engine.snap = all
	h := newHarness(t, engine, 120, 30, all...)
	sized := func() []string {
		var ids []string
		for _, c := range h.engine.called("Resize") {
			ids = append(ids, strings.Fields(c)[1])
		}
		return ids
	}
	first := sized()
	if len(first) == 0 || len(first) > 30 || first[0] != "r000" {
		t.Fatalf("attached with 200 runs, %d sized: %q", len(first), first)
	}
	for _, id := range first {
		if id >= "r030" {
			t.Errorf("run %s sized, not on the rows shown", id)
		}
	}
	h.key("G") // the last run
	after := sized()[len(first):]
	if len(after) == 0 || len(after) > 30 || !contains(after, "r199") || contains(after, "r100") {
		t.Fatalf("after moving to the last run, %d more sized: %q", len(after), after)
	}
	h.key("g") // back to the first: those were sized already
	if again := sized()[len(first)+len(after):]; len(again) != 0 {
		t.Errorf("back to the top, sized again: %q", again)
	}
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
