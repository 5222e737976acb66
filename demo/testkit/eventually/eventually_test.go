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
