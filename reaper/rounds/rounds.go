// Package rounds shares one look at the system among every caller asking at about the
// same time: a caller gets the result of a look that began after it asked, so it sees
// all its own look would have, and callers asking while one runs share the next.
//
// Ending many runs at once (a shutdown) made each take its own look: a thousand runs
// ended each with a scan of /proc of two thousand processes (200 runs took 23 s), and
// a thousand session escalations scanned /proc again every poll (200 runs took 17 s
// of CPU). Shared, they take a few. Both the supervisor (package runs) and the
// escalations of package reaper share their looks through it, so it sits below both.
package rounds

import (
	"sync"
	"time"
)

// Shared is a look at the system (a /proc scan, Corral's children) that the callers
// of Get asking at about the same time share.
type Shared[T any] struct {
	look    func() T
	gap     time.Duration // least time between the starts of two looks of one run of rounds
	mu      sync.Mutex
	next    *round[T] // the round callers asking now wait for; nil: none asked yet
	running bool      // a goroutine is taking rounds
}

type round[T any] struct {
	done chan struct{}
	v    T
}

// Option sets up a Shared.
type Option func(*options)

type options struct{ gap time.Duration }

// WithGap makes rounds taken back to back (a caller asked while the last one ran) at
// least gap apart, start to start; a caller asking when no round runs gets one at
// once. Callers asking as each round ends (many escalations, each polling on its own
// phase) kept one /proc scan running back to back, a core's worth of reads through
// every grace. A caller waits no longer than gap, which should be the poll it would
// have slept anyway.
func WithGap(gap time.Duration) Option { return func(o *options) { o.gap = gap } }

// New is a Shared whose rounds call look once each.
func New[T any](look func() T, opts ...Option) *Shared[T] {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return &Shared[T]{look: look, gap: o.gap}
}

// Get is the result of a look that began after Get was called.
func (s *Shared[T]) Get() T {
	s.mu.Lock()
	if s.next == nil {
		s.next = &round[T]{done: make(chan struct{})}
	}
	r := s.next
	if !s.running {
		s.running = true
		go s.rounds()
	}
	s.mu.Unlock()
	<-r.done
	return r.v
}

// rounds takes the rounds asked for, one look each, until none is.
func (s *Shared[T]) rounds() {
	var last time.Time
	s.mu.Lock()
	for s.next != nil {
		if wait := s.gap - time.Since(last); wait > 0 { // see WithGap
			s.mu.Unlock()
			time.Sleep(wait)
			s.mu.Lock()
		}
		last = time.Now()
		r := s.next
		s.next = nil
		s.mu.Unlock()
		r.v = s.look()
		close(r.done)
		s.mu.Lock()
	}
	s.running = false
	s.mu.Unlock()
}
