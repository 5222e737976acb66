package server

import (
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// Limits bound what clients can make a server hold or wait for (60 connections each
// holding 7 MiB of a line without its newline took a server to 785 MB, never returned;
// 500 would have taken 4 GB). A connection over a limit is cut, with the reason in
// server.log and, where it still reads, in an error reply.
type Limits struct {
	// Conns is how many connections the server serves at once (an attached UI holds
	// three, every control verb one while it runs). One more takes the slot of an idle
	// connection, the oldest of the peer holding the most, or else one of Reserve.
	Conns int
	// Reserve is how many connections beyond Conns are served, for the control verbs
	// only (list, info, kill, stop, interrupt, shutdown), when none of Conns is idle;
	// one more is refused, told the server is busy and how many it serves.
	Reserve int
	// Buffered bounds the bytes of unfinished requests held over every connection
	// (one request is at most api.MaxMessage); a request that would pass it is refused.
	Buffered int64
	// Silent: a new connection's first request must be whole within this.
	Silent time.Duration
	// Slow: a request must be whole within this of its first byte, and a reply taken
	// within this of being sent.
	Slow time.Duration
}

// DefaultLimits are the limits of a server whose Options name none.
func DefaultLimits() Limits {
	return Limits{Conns: 256, Reserve: 8, Buffered: 32 << 20, Silent: 10 * time.Second, Slow: 30 * time.Second}
}

// budget is the server's count of bytes held for unfinished requests.
type budget struct {
	used atomic.Int64
	max  int64

	mu      sync.Mutex
	pending bool // a reclaim is scheduled
}

// take reserves n bytes, or reports false when that would pass the limit.
func (b *budget) take(n int64) bool {
	if b.used.Add(n) > b.max {
		b.used.Add(-n)
		return false
	}
	return true
}

// give returns n bytes. A large buffer given back schedules a reclaim: Go keeps
// freed heap for reuse, and after a flood a server would otherwise keep its peak.
func (b *budget) give(n int64) {
	b.used.Add(-n)
	if n >= reclaimAbove {
		b.reclaim()
	}
}

// reclaimAbove is the size of a request buffer whose release returns memory to the
// OS; reclaimEvery spaces the reclaims (each is a full collection).
const (
	reclaimAbove = 1 << 20
	reclaimEvery = time.Second
)

// reclaim returns freed memory to the OS soon, at most once per reclaimEvery.
func (b *budget) reclaim() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pending {
		return
	}
	b.pending = true
	time.AfterFunc(reclaimEvery, func() {
		b.mu.Lock()
		b.pending = false
		b.mu.Unlock()
		debug.FreeOSMemory()
	})
}

// refusals counts refused connections so that a flood of them is logged once a second,
// not once each.
type refusals struct {
	mu     sync.Mutex
	n      int
	logged time.Time
}

// add counts one refusal and returns how many to log now (0: not yet).
func (r *refusals) add() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	if time.Since(r.logged) < time.Second {
		return 0
	}
	n := r.n
	r.n, r.logged = 0, time.Now()
	return n
}
