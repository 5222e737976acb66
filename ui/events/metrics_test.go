package events

import (
	"slices"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"corral/runs"
	"corral/ui/common"
)

func TestExitReasonsAreTheClosedSetInOrder(t *testing.T) {
	want := []string{"exit", "signal", "manual-cancel", "overall-timeout", "no-output-timeout",
		"spawn-error", "ownership-escape", "supervisor-shutdown", "orphan-reaped", "lost", "setup-error",
		"alive-failed", "manual-restart", "dependency-failed", "dependency-lost"}
	if !slices.Equal(exitReasons, want) {
		t.Errorf("exit reasons %q, want %q", exitReasons, want)
	}
}

func TestMetricsLine(t *testing.T) {
	st := testCommon().Styles
	full := "spawned 12 · escape events 1 · steals 2 · orphans reaped 3 · kills term 3 kill 1 · " +
		"timeouts overall 1 no-output 1 · exits exit 5 manual-cancel 2 overall-timeout 1 zz-new 1"
	for _, c := range []struct {
		name string
		m    runs.Metrics
		w    int
		want string
	}{
		{"zero: single counters only", runs.Metrics{}, 100, "spawned 0 · escape events 0 · steals 0 · orphans reaped 0"},
		{"zero counts and empty groups left out", runs.Metrics{SpawnTotal: 1,
			ExitTotal: map[string]int64{"exit": 0}, CleanupKillTotal: map[string]int64{"term": 0, "kill": 2}}, 100,
			"spawned 1 · escape events 0 · steals 0 · orphans reaped 0 · kills kill 2"},
		{"everything, in order", testMetrics(), 200, full},
		{"exactly wide enough", testMetrics(), len([]rune(full)), full},
		{"one short: cut between pairs", testMetrics(), len([]rune(full)) - 1,
			"spawned 12 · escape events 1 · steals 2 · orphans reaped 3 · kills term 3 kill 1 · " +
				"timeouts overall 1 no-output 1 · exits exit 5 manual-cancel 2 overall-timeout 1 …"},
		{"never inside a pair", testMetrics(), 20, "spawned 12 …"},
		{"nothing fits", testMetrics(), 11, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			line := metricsLine(st, "", metricPairs(c.m), c.w)
			if got := ansi.Strip(line); got != c.want {
				t.Errorf("w %d:\n got %q\nwant %q", c.w, got, c.want)
			}
			if n := common.WidthOf(line); n > c.w {
				t.Errorf("%d columns, more than %d", n, c.w)
			}
		})
	}
}

// sameMetrics reports whether a and b draw the same line: what SetMetrics compares.
func sameMetrics(a, b runs.Metrics) bool { return slices.Equal(metricPairs(a), metricPairs(b)) }

func TestSameMetrics(t *testing.T) {
	a := testMetrics()
	b := testMetrics()
	b.ExitTotal["signal"] = 0 // a zero count draws nothing
	if !sameMetrics(a, b) || !sameMetrics(b, a) {
		t.Error("equal counters (one with an extra zero) differ")
	}
	if sameMetrics(runs.Metrics{}, runs.Metrics{TimeoutTotal: map[string]int64{"overall": 0}}) != true {
		t.Error("nil and zero maps differ")
	}
	for _, change := range []func(*runs.Metrics){
		func(m *runs.Metrics) { m.SpawnTotal++ },
		func(m *runs.Metrics) { m.OwnershipEscapeTotal++ },
		func(m *runs.Metrics) { m.LeaseStealTotal++ },
		func(m *runs.Metrics) { m.ReconcileOrphansTotal++ },
		func(m *runs.Metrics) { m.ExitTotal["lost"]++ },
		func(m *runs.Metrics) { m.TimeoutTotal["overall"]++ },
		func(m *runs.Metrics) { m.CleanupKillTotal["kill"]++ },
	} {
		b := testMetrics()
		change(&b)
		if sameMetrics(a, b) || sameMetrics(b, a) {
			t.Errorf("a change was not seen: %+v", b)
		}
	}
}
