package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"corral/reaper"
	"corral/runs"
	"corral/ui/internal/uitest"
)

var daemonArgv = uitest.DaemonArgv

// escapedAgent is a live agent whose two daemons left its session, its tree, and the
// two escape events the supervisor sent about them.
func escapedAgent() (runs.Info, []reaper.TreeProc, []EventMsg) {
	info := liveRun("r1", "codex", true)
	info.Escapees = 2
	tree := uitest.EscapedTree()
	var evs []EventMsg
	for i, p := range tree[1:] {
		e := info
		e.Escapees = i + 1
		evs = append(evs, EventMsg{Event: runs.Event{Type: runs.EventEscape, Run: e, Time: t0,
			Detail: fmt.Sprintf("pid %d %s", p.PID, strings.Join(p.Argv, " "))}})
	}
	return info, tree, evs
}

// At 120, 160 and 200 columns the process tree shows its MARK column whole and the
// escaped daemons' command lines in full (wrapped), and the events title's escape
// events agree with the escape lines it lists (at 160 the mark was cut to "esca", the
// command lines were not shown, and the title said "escape events 0" beside two).
func TestTreeAndEventsAtWidths(t *testing.T) {
	for _, sz := range [][2]int{{120, 40}, {160, 45}, {200, 50}} {
		info, tree, evs := escapedAgent()
		engine := newFake(info)
		engine.trees["r1"] = tree
		engine.metrics = runs.Metrics{SpawnTotal: 1, OwnershipEscapeTotal: 2}
		h := newHarness(t, engine, sz[0], sz[1], info)
		for _, ev := range evs {
			h.send(ev)
		}
		frame := h.m.View().Content
		details := paneLines(frame, h.m.lay.details)
		text := strings.Join(details, "\n")
		if n := strings.Count(text, " escaped "); n != 2 {
			t.Errorf("%d×%d: the mark \"escaped\" shows %d times, want 2:\n%s", sz[0], sz[1], n, text)
		}
		ws := words(details)
		for _, argv := range daemonArgv {
			for _, w := range argv {
				if !ws[w] {
					t.Errorf("%d×%d: %q of a daemon's command line is not shown:\n%s", sz[0], sz[1], w, text)
				}
			}
		}
		events := strings.Join(paneLines(frame, h.m.lay.events), "\n")
		title := strings.Split(stripANSI(frame), "\n")[h.m.lay.events.y]
		m := regexp.MustCompile(`escape events (\d+)`).FindStringSubmatch(title)
		if listed := strings.Count(events, "⚠ escape:"); m == nil || m[1] != fmt.Sprint(listed) {
			t.Errorf("%d×%d: title %q beside %d escape lines", sz[0], sz[1], title, listed)
		}
		goldenView(t, fmt.Sprintf("frame_tree_%dx%d", sz[0], sz[1]), frame, sz[0])
	}
}
