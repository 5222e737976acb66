package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/agentstate"
)

// manyRuns are n runs r00, r01, … named by kind in turn (build-0, test-unit-1,
// test-e2e-2, agent-3, web-4, build-5, …); every third has ended.
func manyRuns(n int) []runs.Info {
	kinds := []string{"build", "test-unit", "test-e2e", "agent", "web"}
	out := make([]runs.Info, n)
	for i := range out {
		id, name := fmt.Sprintf("r%02d", i), fmt.Sprintf("%s-%d", kinds[i%len(kinds)], i)
		out[i] = liveRun(id, name, i%2 == 0)
		if i%3 == 2 {
			out[i] = endedRun(id, name)
		}
	}
	return out
}

func scaleHarness(t *testing.T, n, w, h int) *harness {
	t.Helper()
	rs := manyRuns(n)
	return newHarness(t, newFake(rs...), w, h, rs...)
}

// listTitle is the run list's title line as drawn (its frame's top edge).
func (h *harness) listTitle() string {
	return string([]rune(strings.Split(h.view(), "\n")[0])[:h.m.lay.list.w])
}

// drawn are the keys of the rows the list draws, top to bottom (a 120-column list
// cuts names: the drawing itself is the goldens').
func (h *harness) drawn() []string {
	l := h.m.list
	var out []string
	for y := 1; y < h.m.lay.list.h-1; y++ {
		if k, ok := l.RowAt(y); ok {
			out = append(out, k)
		}
	}
	return out
}

// drawnNames are the names of the runs drawn.
func (h *harness) drawnNames() string {
	var out []string
	for _, k := range h.drawn() {
		i, _ := h.m.list.Run(k)
		out = append(out, i.Name)
	}
	return strings.Join(out, " ")
}

// With sixty runs the list moves by more than a row: to either end, a page at a time,
// and the selection stays drawn.
func TestListAtScaleKeys(t *testing.T) {
	h := scaleHarness(t, 60, 120, 40)
	rows := h.m.lay.list.h - 2
	for _, c := range []struct {
		key  string
		want string // the selected run
	}{
		{"G", "r59"}, {"g", "r00"}, {"end", "r59"}, {"home", "r00"},
		{"ctrl+f", fmt.Sprintf("r%02d", rows)}, {"ctrl+d", fmt.Sprintf("r%02d", 2*rows)},
		{"ctrl+b", fmt.Sprintf("r%02d", rows)}, {"ctrl+u", "r00"}, {"ctrl+u", "r00"},
		{"G", "r59"}, {"ctrl+f", "r59"}, {"k", "r58"},
	} {
		h.key(c.key)
		sel := h.m.list.SelectedKey()
		if sel != c.want {
			t.Fatalf("%s: selected %s, want %s", c.key, sel, c.want)
		}
		if !slices.Contains(h.drawn(), sel) {
			t.Fatalf("%s: the selected %s is not drawn: %q", c.key, sel, h.drawn())
		}
		if h.m.details.ID() != sel {
			t.Fatalf("%s: details show %s, not the selection %s", c.key, h.m.details.ID(), sel)
		}
	}
	// A page moves the view by a page too: ctrl+f from the top shows the next rows.
	h.key("g", "ctrl+f")
	if first, want := h.drawn()[0], manyRuns(60)[rows].ID; first != want {
		t.Errorf("after a page down the first row drawn is %s, want %s (%d rows a page)", first, want, rows)
	}
}

// The filter is typed in the list's title and filters as it is typed, by name or id
// and case-insensitively; the selection goes to the first match and the arrows move
// among the matches; enter keeps it, the list's keys move within it, esc clears it.
func TestListFilterIncremental(t *testing.T) {
	h := scaleHarness(t, 60, 120, 40)
	h.key("j", "j") // r02
	h.key("/")
	if h.m.mode != modeFilter || !strings.Contains(h.listTitle(), "Runs 60 /") {
		t.Fatalf("/ did not open the filter: mode %d, title %q", h.m.mode, h.listTitle())
	}
	h.typeText("E2")
	if !strings.Contains(h.listTitle(), "Runs 12 of 60 /E2") {
		t.Errorf("title %q, want 12 of 60 for E2", h.listTitle())
	}
	if got := h.m.list.SelectedKey(); got != "r02" {
		t.Errorf("the selection %s moved though it matches", got)
	}
	h.typeText("e-1") // "E2e-1": test-e2e-12, -17
	if got := h.drawnNames(); got != "test-e2e-12 test-e2e-17" {
		t.Errorf("rows %q, want test-e2e-12 and -17", got)
	}
	if got := h.m.list.SelectedKey(); got != "r12" || h.m.details.ID() != "r12" {
		t.Errorf("selection %s (details %s), want the first match r12", got, h.m.details.ID())
	}
	h.key("down")
	if got := h.m.list.SelectedKey(); got != "r17" || h.m.mode != modeFilter {
		t.Errorf("down while typing: selection %s, mode %d", got, h.m.mode)
	}
	if c := h.m.View().Cursor; c == nil || c.Y != 0 || c.X != 2+len("Runs 2 of 60 /E2e-1") {
		t.Errorf("the cursor %+v is not after the filter in the title", c)
	}
	h.key("enter")
	if h.m.mode != modeBrowse || !strings.Contains(h.listTitle(), "Runs 2 of 60 /E2e-1") || h.m.View().Cursor != nil {
		t.Fatalf("enter did not keep the filter: mode %d, title %q", h.m.mode, h.listTitle())
	}
	h.key("k", "k", "G")
	if got := h.m.list.SelectedKey(); got != "r17" {
		t.Errorf("k k G within the filter: selection %s, want r17", got)
	}
	h.key("/", "backspace", "backspace", "backspace", "backspace", "backspace")
	h.typeText("r4") // ids r40-r49
	if got := h.drawn(); len(got) != 10 || got[0] != "r40" {
		t.Errorf("r4 shows %q, want r40-r49 by id", got)
	}
	h.key("down", "enter", "esc")
	if h.m.list.Filtered() || len(h.drawn()) != h.m.lay.list.h-2 || !strings.HasPrefix(h.listTitle(), "┌─Runs 60─") {
		t.Errorf("esc did not clear the filter: title %q", h.listTitle())
	}
	if got := h.m.list.SelectedKey(); got != "r41" || !slices.Contains(h.drawn(), "r41") {
		t.Errorf("clearing moved the selection to %s, want r41 kept and drawn", got)
	}

	h.key("/")
	h.typeText("nothing-is-called-this") // test-unit-41 holds "n"; nothing holds "no"
	if v := h.view(); !strings.Contains(v, "no run matches") || h.m.list.SelectedKey() != "r41" {
		t.Errorf("no match: selection %s, list:\n%s", h.m.list.SelectedKey(), v)
	}
	h.key("esc")
	if h.m.mode != modeBrowse || h.m.list.Filtered() {
		t.Errorf("esc while typing did not drop the filter (mode %d)", h.m.mode)
	}
	h.key("/")
	h.send(tea.PasteMsg{Content: "web 3"})
	if got := h.drawnNames(); got != "web-34 web-39" {
		t.Errorf("a pasted filter of two words shows %q", got)
	}
}

// Next waiting and next unseen go among the runs the filter shows, and say how many
// it hides.
func TestListFilterWaitingUnseen(t *testing.T) {
	rs := manyRuns(20)
	for _, i := range []int{3, 8} { // agent-3, agent-8 wait; agent-3 longer
		rs[i].Agent, rs[i].AgentState = "claude", agentstate.Waiting
		rs[i].AgentStateSince = t0.Add(-time.Duration(10-i) * time.Minute)
	}
	h := newHarness(t, newFake(rs...), 120, 40, rs...)
	h.m.list.SetAttention("r05", true) // build-5
	h.m.list.SetAttention("r06", true) // test-unit-6
	h.key("/")
	h.typeText("agent-8")
	h.key("enter", "w")
	if got := h.m.list.SelectedKey(); got != "r08" {
		t.Errorf("w within the filter selected %s", got)
	}
	h.key("w") // agent-3 waits longer but is hidden: the one shown again
	if got := h.m.list.SelectedKey(); got != "r08" {
		t.Errorf("w went to %s, hidden by the filter", got)
	}
	h.key("u")
	if !strings.Contains(h.m.flash, "no run the filter shows is unseen; 2 it hides (esc clears it)") {
		t.Errorf("u with every unseen run hidden: flash %q", h.m.flash)
	}
	h.key("esc", "u")
	if got := h.m.list.SelectedKey(); got != "r05" {
		t.Errorf("u without the filter selected %s, want r05", got)
	}
}

// A run that arrives while the list is filtered is counted; it shows if it matches.
// A run started here that the filter hides is selected with the filter cleared.
func TestListFilterArrivals(t *testing.T) {
	h := scaleHarness(t, 10, 120, 40)
	h.key("/")
	h.typeText("web")
	h.key("enter")
	if !strings.Contains(h.listTitle(), "Runs 2 of 10 /web") {
		t.Fatalf("title %q", h.listTitle())
	}
	for _, r := range []runs.Info{liveRun("r90", "db", false), liveRun("r91", "web-new", false)} {
		h.send(EventMsg{Event: runs.Event{Type: runs.EventSpawn, Run: r, Time: t0}})
	}
	if !strings.Contains(h.listTitle(), "Runs 3 of 12 /web") || h.drawnNames() != "web-4 web-9 web-new" {
		t.Errorf("arrivals while filtered: title %q, rows %q", h.listTitle(), h.drawnNames())
	}

	h.engine.spawnID = "r92"
	h.key("n")
	h.typeText("make db")
	h.key("enter")
	h.send(EventMsg{Event: runs.Event{Type: runs.EventSpawn, Run: liveRun("r92", "make-db", false), Time: t0}})
	if got := h.m.list.SelectedKey(); got != "r92" || h.m.list.Filtered() || h.m.details.ID() != "r92" {
		t.Errorf("a run started here under a filter hiding it: selection %s, filtered %v", got, h.m.list.Filtered())
	}
}

// The filter can be opened only where the list is drawn: zoomed, it says so.
func TestListFilterZoomed(t *testing.T) {
	h := scaleHarness(t, 5, 120, 40)
	h.key("z", "/")
	if h.m.mode != modeBrowse || !strings.Contains(h.m.flash, "hidden while zoomed") {
		t.Errorf("/ zoomed: mode %d, flash %q", h.m.mode, h.m.flash)
	}
}

// Sixty runs at 120×40: the list scrolled to its end, and filtered.
func TestListAtScaleGolden(t *testing.T) {
	h := scaleHarness(t, 60, 120, 40)
	h.key("G")
	goldenView(t, "frame_runs60_end", h.m.View().Content, 120)
	h.key("/")
	h.typeText("test")
	goldenView(t, "frame_runs60_filtering", h.m.View().Content, 120)
	h.key("enter", "j", "j")
	goldenView(t, "frame_runs60_filtered", h.m.View().Content, 120)
}
