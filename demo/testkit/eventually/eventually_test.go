package eventually

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// recorder is a testing.TB that records a failure instead of ending the test.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

func TestTrueWaitsForTheCondition(t *testing.T) {
	var n atomic.Int32
	go func() {
		for range 5 {
			n.Add(1)
		}
	}()
	r := &recorder{TB: t}
	True(r, 10*time.Second, "five", func() bool { return n.Load() == 5 })
	if r.failed != "" {
		t.Fatalf("failed: %s", r.failed)
	}
}

func TestTrueFailsNamingWhat(t *testing.T) {
	r := &recorder{TB: t}
	start := time.Now()
	True(r, 30*time.Millisecond, "the impossible", func() bool { return false })
	if !strings.Contains(r.failed, "the impossible") {
		t.Fatalf("failure %q does not name what it waited for", r.failed)
	}
	if time.Since(start) < 30*time.Millisecond {
		t.Fatalf("gave up after %s, before its limit", time.Since(start))
	}
}

func TestValueReturnsTheValueThatCameTrue(t *testing.T) {
	calls := 0
	got := Value(t, 10*time.Second, "the third call", func() (int, bool) { calls++; return calls, calls == 3 })
	if got != 3 {
		t.Fatalf("got %d, want 3", got)
	}
	if v, ok := Within(20*time.Millisecond, func() (string, bool) { return "last", false }); ok || v != "last" {
		t.Fatalf("Within = %q, %v; want the last value and false", v, ok)
	}
}

// Woken reads again on each event, on its own tick when asked (a change no event
// announces), and once more at the deadline.
func TestWokenReadsOnEachEvent(t *testing.T) {
	wake := make(chan int)
	var n atomic.Int32
	go func() {
		for range 3 {
			n.Add(1)
			wake <- 0
		}
	}()
	if v, ok := Woken(10*time.Second, 0, wake, func() (int32, bool) { return n.Load(), n.Load() == 3 }); !ok || v != 3 {
		t.Fatalf("Woken = %d, %v; want 3 after the third event", v, ok)
	}
	start := time.Now()
	ticks := 0
	if _, ok := Woken(time.Minute, time.Millisecond, make(chan int), func() (int, bool) { ticks++; return ticks, ticks == 5 }); !ok {
		t.Fatal("no tick without events")
	}
	if time.Since(start) > 30*time.Second {
		t.Fatalf("the tick took %s", time.Since(start))
	}
	reads := 0
	if v, ok := Woken(20*time.Millisecond, 0, make(chan int), func() (int, bool) { reads++; return reads, false }); ok || v != 2 {
		t.Fatalf("Woken = %d, %v; want a read at once, one at the deadline and false", v, ok)
	}
	closed := make(chan int)
	close(closed)
	polls := 0
	if _, ok := Woken(10*time.Second, 0, closed, func() (int, bool) { polls++; return polls, polls == 3 }); !ok {
		t.Fatal("a closed wake stopped the reads")
	}
}

// Event returns the first event that matches, passing others by; it gives up at its
// limit or when the events end.
func TestEventPassesOthersBy(t *testing.T) {
	events := make(chan string, 3)
	events <- "spawn"
	events <- "output"
	events <- "exit"
	if e, ok := Event(10*time.Second, events, func(e string) bool { return e == "exit" }); !ok || e != "exit" {
		t.Fatalf("Event = %q, %v", e, ok)
	}
	if _, ok := Event(20*time.Millisecond, events, func(string) bool { return true }); ok {
		t.Fatal("an event where none came")
	}
	close(events)
	if _, ok := Event(10*time.Second, events, func(string) bool { return true }); ok {
		t.Fatal("an event from closed events")
	}
}
