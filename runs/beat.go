package runs

import "sync"

// beatSignal wakes whoever waits for the supervisor's next heartbeat. An attached
// UI's stream waits on it (runs/server) and pushes what moved since the last beat
// without an event — the lease's new expiry, the looked-at runs' usage, the
// counters — so an idle UI has nothing to ask: it read them every 8 s before, two
// round trips and two wake-ups of each process for nothing new.
type beatSignal struct {
	mu sync.Mutex
	c  chan struct{}
}

// next is a channel closed at the next beat.
func (b *beatSignal) next() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.c == nil {
		b.c = make(chan struct{})
	}
	return b.c
}

// fire closes the channel of those waiting, if any.
func (b *beatSignal) fire() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.c != nil {
		close(b.c)
		b.c = nil
	}
}

// Beat returns a channel closed at the supervisor's next heartbeat (after its lease
// renewal, when one was due): what a viewer's snapshot shows that moves without an
// event (a run's usage, its lease) is worth looking at then and only then. A
// supervisor without a registry has no heartbeat: the channel is never closed.
func (s *Supervisor) Beat() <-chan struct{} { return s.beats.next() }
