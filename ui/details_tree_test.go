package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"corral/reaper"
	"corral/runs"
)

// daemonArgv is what a codex-like agent's two escaped daemons run (issue 14.1).
var daemonArgv = [][]string{
	{"/tmp/ctmux1234567890/corral", "agent-daemon", "app-server", "--managed-daemon"},
	{"/tmp/ctmux1234567890/corral", "agent-daemon", "pid-update-loop"},
}

// escapedAgent is a live agent whose two daemons left its session, its tree, and the
// two escape events the supervisor sent about them.
func escapedAgent() (runs.Info, []reaper.TreeProc, []EventMsg) {
	info := liveRun("r1", "codex", true)
	info.Escapees = 2
	tree := []reaper.TreeProc{
		{Proc: reaper.Proc{PID: 1234567, PPID: 1, PGID: 1234567, SID: 1234567, State: 'S', Comm: "corral", RSS: 12 << 20},
			Mark: reaper.MarkRoot, CPU: 1500 * time.Millisecond},
		{Proc: reaper.Proc{PID: 1234590, PPID: 1234567, PGID: 1234590, SID: 1234590, State: 'S', Comm: "corral", RSS: 8 << 20},
			Mark: reaper.MarkEscaped, Depth: 1, Argv: daemonArgv[0]},
		{Proc: reaper.Proc{PID: 1234591, PPID: 1234567, PGID: 1234591, SID: 1234591, State: 'S', Comm: "corral", RSS: 7 << 20},
			Mark: reaper.MarkEscaped, Depth: 1, Argv: daemonArgv[1]},
	}
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
		core := newFake(info)
		core.trees["r1"] = tree
		core.metrics = runs.Metrics{SpawnTotal: 1, OwnershipEscapeTotal: 2}
		h := newHarness(t, core, sz[0], sz[1], info)
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

// The columns drop the least needed first and never the mark.
func TestTreeColumnsByWidth(t *testing.T) {
	_, tree, _ := escapedAgent()
	for _, c := range []struct {
		w    int
		want treeCols
	}{
		{34, treeCols{pid: 7, mark: 7}},
		{46, treeCols{pid: 7, state: 1, cpu: 5, mark: 7}},
		{58, treeCols{pid: 7, sid: 7, state: 1, cpu: 5, rss: 5, mark: 7}},
		{80, treeCols{pid: 7, pgid: 7, sid: 7, state: 1, cpu: 5, rss: 5, mark: 7}},
	} {
		if got := treeColumns(tree, c.w); got != c.want {
			t.Errorf("%d columns: %+v, want %+v", c.w, got, c.want)
		}
	}
}
