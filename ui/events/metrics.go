package events

import (
	"fmt"
	"slices"
	"strings"

	"corral/runs"
	"corral/ui/common"
)

// The supervisor's counters (this Corral's, as Core.Metrics reports them) drawn as
// one line in the events pane's title:
//
//	spawned 12 · escape events 1 · escaped procs 3 · steals 0 · orphans reaped 0 · kills term 3 kill 1 · timeouts overall 1 · exits exit 5 manual-cancel 2
//
// The order is fixed: the single counters first, the rare and alarming ones right
// after spawned so a narrow pane still shows them, then the groups by their longest
// possible length, so a cut takes the exit reasons (each run's row shows its own)
// before anything else. Within a group keys keep their closed order (reasons as in
// runs.Reason), zero counts are left out and a group with none is left out whole.

// metricPair is one "label N" of the line; opens says it starts a new "·" item (a
// single counter, or a group whose label is in text).
type metricPair struct {
	text  string
	opens bool
	warn  bool
}

// The keys of each group in their order, read-only. runs counts kills by the signal
// that ended the process (the run's stop signal, then SIGKILL: countCleanup) and
// timeouts by deadline (countExit).
var (
	killModes    = []string{"term", "kill"}
	timeoutTypes = []string{"overall", "no-output"}
	exitReasons  = reasonNames()
)

// reasonNames is the closed set of runs.Reason names in order, read from runs itself
// (every reason whose name reads back as itself), so a reason added there is
// ordered here too.
func reasonNames() []string {
	var names []string
	for r := runs.Exit; ; r++ {
		var back runs.Reason
		if back.UnmarshalText([]byte(r.String())) != nil || back != r {
			return names
		}
		names = append(names, r.String())
	}
}

// metricPairs lays the counters out in the line's order.
func metricPairs(m runs.Metrics) []metricPair {
	ps := []metricPair{
		{text: fmt.Sprintf("spawned %d", m.SpawnTotal), opens: true},
		// Escape events (detections) of this Corral, not processes: a run's row counts
		// its escaped processes (⚠N), which the title sums as "escaped procs".
		{text: fmt.Sprintf("escape events %d", m.OwnershipEscapeTotal), opens: true, warn: m.OwnershipEscapeTotal > 0},
		{text: fmt.Sprintf("steals %d", m.LeaseStealTotal), opens: true, warn: m.LeaseStealTotal > 0},
		{text: fmt.Sprintf("orphans reaped %d", m.ReconcileOrphansTotal), opens: true, warn: m.ReconcileOrphansTotal > 0},
	}
	// A SIGKILL means something ignored its stop signal; the stop signal is every cancel's.
	ps = appendGroup(ps, "kills", m.CleanupKillTotal, killModes, "kill")
	ps = appendGroup(ps, "timeouts", m.TimeoutTotal, timeoutTypes, "")
	return appendGroup(ps, "exits", m.ExitTotal, exitReasons, "")
}

// appendGroup adds a group's non-zero counts: the known keys in their order, then any
// other key sorted. The pair of key warn ("" for none) is drawn as a warning.
func appendGroup(ps []metricPair, label string, counts map[string]int64, known []string, warn string) []metricPair {
	keys := slices.DeleteFunc(slices.Clone(known), func(k string) bool { return counts[k] == 0 })
	var other []string
	for k, n := range counts {
		if n != 0 && !slices.Contains(known, k) {
			other = append(other, k)
		}
	}
	slices.Sort(other)
	for i, k := range append(keys, other...) {
		text := fmt.Sprintf("%s %d", common.Clean(k), counts[k])
		if i == 0 {
			text = label + " " + text
		}
		ps = append(ps, metricPair{text: text, opens: i == 0, warn: warn != "" && k == warn})
	}
	return ps
}

// metricsLine draws pairs, after lead, in at most w columns ("" if none fits). When
// they do not all fit it stops between two pairs, never inside one (a cut number would
// read as another count), and ends with " …".
func metricsLine(st common.Styles, lead string, ps []metricPair, w int) string {
	seps := make([]string, len(ps))
	total := 0
	for i, p := range ps {
		switch {
		case i == 0:
			seps[i] = lead
		case p.opens:
			seps[i] = " · "
		default:
			seps[i] = " "
		}
		total += common.WidthOf(seps[i]) + common.WidthOf(p.text)
	}
	n := len(ps)
	if total > w {
		n = 0
		for used := 0; n < len(ps); n++ {
			if used += common.WidthOf(seps[n]) + common.WidthOf(ps[n].text); used > w-2 { // room for " …"
				break
			}
		}
	}
	if n == 0 {
		return ""
	}
	var b, muted strings.Builder // muted text is drawn in runs, not one span per pair
	for i, p := range ps[:n] {
		muted.WriteString(seps[i])
		if p.warn {
			b.WriteString(st.Muted.Render(muted.String()) + st.Warn.Render(p.text))
			muted.Reset()
		} else {
			muted.WriteString(p.text)
		}
	}
	if n < len(ps) {
		muted.WriteString(" …")
	}
	b.WriteString(st.Muted.Render(muted.String()))
	return b.String()
}
