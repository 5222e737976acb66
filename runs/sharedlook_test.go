package runs

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// A caller of a shared look gets a look that began after it asked: one asking while
// a look runs waits for the next, which every caller asking meanwhile shares.
func TestSharedLookBeganAfterAsked(t *testing.T) {
	var looks atomic.Int64
	started := make(chan struct{})
	release := make(chan struct{})
	l := newSharedLook(func() int64 {
		n := looks.Add(1)
		if n == 1 {
			close(started)
			<-release // the first look is under way while the others ask
		}
		return n
	})
	first := make(chan int64)
	go func() { first <- l.get() }()
	<-started
	var wg sync.WaitGroup
	got := make([]int64, 20)
	for i := range got {
		wg.Go(func() { got[i] = l.get() })
	}
	// A later caller is queued for the next round before the first look ends.
	eventually.True(t, 10*time.Second, "a caller queued", func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.next != nil
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
