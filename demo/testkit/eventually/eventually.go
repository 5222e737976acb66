// Package eventually waits, in tests, for what a real process, PTY, server or UI
// makes true in its own time: a condition is polled until a deadline, or read again
// on each event the process under test publishes (events.go), and the test fails
// naming what it waited for. Nothing sleeps a guessed duration; the deadline
// is only how long a loaded 2-core machine may take.
package eventually

import (
	"testing"
	"time"
)

// Poll intervals: short at first, so a condition that is nearly true costs little,
// then longer, so a slow one does not spin.
const (
	firstPoll = time.Millisecond
	maxPoll   = 50 * time.Millisecond
)

// True polls cond until it holds and fails the test if it has not within limit.
func True(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	Value(t, limit, what, func() (struct{}, bool) { return struct{}{}, cond() })
}

// Value polls get until its second result is true and returns its first; it fails
// the test if that has not happened within limit, naming what and the last value.
func Value[T any](t testing.TB, limit time.Duration, what string, get func() (T, bool)) T {
	t.Helper()
	v, ok := Within(limit, get)
	if !ok {
		t.Fatalf("timed out after %s waiting for %s (last: %+v)", limit, what, v)
	}
	return v
}

// Within polls get until its second result is true or limit has passed, and
// returns the last value and whether it came true: for a caller that decides itself
// what a timeout means (a helper goroutine, a wait that may legitimately fail).
func Within[T any](limit time.Duration, get func() (T, bool)) (T, bool) {
	deadline := time.Now().Add(limit)
	for pause := firstPoll; ; pause = min(2*pause, maxPoll) {
		v, ok := get()
		if ok || time.Now().After(deadline) {
			return v, ok
		}
		time.Sleep(pause)
	}
}
