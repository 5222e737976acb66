package runs

import (
	"errors"
	"testing"
)

// The escape scan skips ticks while no pid has been handed out, never two in a row
// after a fork, never when the last pid is unreadable; and, quiet, it never scans.
func TestScanPacer(t *testing.T) {
	var p scanPacer
	steps := []struct {
		pid  int
		err  error
		want bool
	}{
		{100, nil, true},  // first tick: a change from nothing
		{100, nil, true},  // the trailing scan after a change
		{100, nil, false}, // quiet
		{100, nil, false},
		{101, nil, true}, // a fork
		{101, nil, true}, // its trailing scan (a setsid right after the fork)
		{101, nil, false},
		{0, errors.New("no /proc"), true}, // unreadable: scan
		{101, nil, true},                  // a change again (from the error)
		{101, nil, true},
	}
	for i, s := range steps {
		if got := p.due(s.pid, s.err); got != s.want {
			t.Fatalf("tick %d (pid %d): due = %v, want %v", i, s.pid, got, s.want)
		}
	}
	for i := range 100 {
		if p.due(101, nil) {
			t.Fatalf("quiet tick %d scanned: an idle Corral scans nothing", i)
		}
	}
}
