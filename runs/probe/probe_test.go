package probe

import (
	"context"
	"sync"
	"testing"
	"time"

	"corral/config"
	"corral/demo/testkit/eventually"
	"corral/watchdog"
)

// A monitor judges with its thresholds: passing after success checks in a row,
// failing after failure checks in a row, and reports each change once.
func TestMonitorThresholds(t *testing.T) {
	clk := watchdog.NewFakeClock(time.Unix(1000, 0))
	var mu sync.Mutex
	ok := false
	results := make(chan State, 100)
	var changes []State
	m := NewMonitor(config.Probe{Kind: config.ProbeTCP, Period: time.Second, Success: 2, Failure: 3},
		func(context.Context) Result { mu.Lock(); defer mu.Unlock(); return Result{OK: ok} }, clk,
		func(st State, _ Result) { results <- st },
		func(st State, _ Result) { changes = append(changes, st) })
	m.Start()
	step := func(want State) {
		t.Helper()
		// The next check is armed once the last one's report is out.
		eventually.True(t, 10*time.Second, "the next check armed", func() bool { return clk.Timers() > 0 })
		clk.Advance(2 * time.Second) // past the next aligned check
		select {
		case st := <-results:
			if st != want {
				t.Fatalf("state %s, want %s", st, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no check")
		}
	}
	step(Pending)
	step(Pending)
	step(Failing) // three failures in a row
	mu.Lock()
	ok = true
	mu.Unlock()
	step(Failing)
	step(Passing) // two successes in a row
	step(Passing)
	m.Stop()
	if len(changes) != 2 || changes[0] != Failing || changes[1] != Passing {
		t.Fatalf("changes %v", changes)
	}
}

// A log matcher finds a line split across reads, whole: never a part of it.
func TestLogMatcher(t *testing.T) {
	hits := 0
	m, err := NewLogMatcher(`^listening on [0-9]+$`, func() { hits++ })
	if err != nil {
		t.Fatal(err)
	}
	m.Feed([]byte("starting\r\nlisten"))
	if _, ok := m.Matched(); ok {
		t.Fatal("matched half a line")
	}
	m.Feed([]byte("ing on 80"))
	m.Feed([]byte("80\r\nmore\n"))
	if line, ok := m.Matched(); !ok || line != "listening on 8080" || hits != 1 {
		t.Fatalf("matched %q %v, %d calls", line, ok, hits)
	}
	p, _ := NewLogMatcher(`^ready$`, nil)
	p.Feed([]byte("ready"))
	if _, ok := p.Matched(); ok {
		t.Fatal("a line was matched before its end")
	}
}

func TestAligned(t *testing.T) {
	for _, c := range []struct {
		at   time.Duration // into the second
		want time.Duration
	}{{0, time.Second}, {100 * time.Millisecond, 900 * time.Millisecond}, {600 * time.Millisecond, 1400 * time.Millisecond}} {
		if got := aligned(time.Unix(50, int64(c.at)), time.Second); got != c.want {
			t.Errorf("at +%s: %s, want %s", c.at, got, c.want)
		}
	}
}
