package rounds

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// A caller of a shared look gets a look that began after it asked: one asking while
// a look runs waits for the next, which every caller asking meanwhile shares.
func TestSharedBeganAfterAsked(t *testing.T) {
	var looks atomic.Int64
	started := make(chan struct{})
	release := make(chan struct{})
	s := New(func() int64 {
		n := looks.Add(1)
		if n == 1 {
			close(started)
			<-release // the first look is under way while the others ask
		}
		return n
	})
	first := make(chan int64)
	go func() { first <- s.Get() }()
	<-started
	var wg sync.WaitGroup
	got := make([]int64, 20)
	for i := range got {
		wg.Go(func() { got[i] = s.Get() })
	}
	// Every later caller is queued for the next round before the first look ends.
	eventually.True(t, 10*time.Second, "a caller queued", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.next != nil
	})
	close(release)
	if n := <-first; n != 1 {
		t.Errorf("the first caller got look %d, want 1", n)
	}
	wg.Wait()
	for i, n := range got {
		if n < 2 {
			t.Errorf("caller %d got look %d, which began before it asked", i, n)
		}
	}
	if n := looks.Load(); n >= 21 {
		t.Errorf("%d looks for 21 callers: none shared", n)
	}
}

// Callers asking while a round runs get the next at least the gap after it began,
// start to start, and each still a look that began after it asked.
func TestSharedGap(t *testing.T) {
	const gap = 50 * time.Millisecond
	var starts []time.Time // the look's own: rounds are one at a time
	started := make(chan struct{})
	release := make(chan struct{})
	s := New(func() int {
		starts = append(starts, time.Now())
		started <- struct{}{}
		<-release // the next caller asks while this round runs
		return len(starts)
	}, WithGap(gap))
	const asks = 4
	got := make(chan int, asks)
	go func() { got <- s.Get() }()
	<-started
	for range asks - 1 {
		go func() { got <- s.Get() }()
		eventually.True(t, 10*time.Second, "a caller queued", func() bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.next != nil
		})
		release <- struct{}{}
		<-started
	}
	release <- struct{}{}
	seen := map[int]bool{}
	for range asks {
		seen[<-got] = true
	}
	if len(seen) != asks {
		t.Errorf("%d callers, one after another, got looks %v: want one each", asks, seen)
	}
	for i := 1; i < len(starts); i++ {
		if d := starts[i].Sub(starts[i-1]); d < gap {
			t.Errorf("looks %d and %d began %v apart, want at least %v", i, i+1, d, gap)
		}
	}
}

// Without a gap a caller asking as a round ends gets the next look at once.
func TestSharedNoGap(t *testing.T) {
	var looks atomic.Int64
	s := New(func() int64 { return looks.Add(1) })
	for i := range int64(3) {
		if n := s.Get(); n != i+1 {
			t.Errorf("ask %d got look %d, want %d", i, n, i+1)
		}
	}
}
