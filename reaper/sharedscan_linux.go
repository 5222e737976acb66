package reaper

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// fullScans counts the full scans of /proc taken (scanner.each): what a test of the
// shared scans counts.
var fullScans atomic.Int64

// sharedScan is a full /proc scan that many escalations share: the session targets
// of one TerminateMany. Each escalation scanned /proc itself, as it began and again
// and again while it waited for its session to empty: a shutdown of a thousand
// session runs made thousands of scans of two thousand processes (200 runs took 17 s
// of CPU). A caller of each gets a scan that began after it asked, so it sees all its
// own scan would have; callers asking while one runs share the next.
type sharedScan struct {
	mu      sync.Mutex
	next    *scanRound // the round callers asking now wait for; nil: none asked yet
	running bool       // a goroutine is taking rounds
}

type scanRound struct {
	done  chan struct{}
	procs []Proc
	bySID map[int][]int // indexes in procs by session: what most callers look at
	err   error
}

// each calls fn for every process of a scan that began after each was called (as
// scanner.each does; fn gets a copy of each process and no comm bytes).
func (s *sharedScan) each(fn func(p *Proc, comm []byte)) error {
	r := s.round()
	for _, p := range r.procs {
		fn(&p, nil)
	}
	return r.err
}

// session is each for the members of session sid only.
func (s *sharedScan) session(sid int, fn func(p *Proc, comm []byte)) error {
	r := s.round()
	for _, i := range r.bySID[sid] {
		p := r.procs[i]
		fn(&p, nil)
	}
	return r.err
}

// round is a scan that began after round was called.
func (s *sharedScan) round() *scanRound {
	s.mu.Lock()
	if s.next == nil {
		s.next = &scanRound{done: make(chan struct{})}
	}
	r := s.next
	if !s.running {
		s.running = true
		go s.rounds()
	}
	s.mu.Unlock()
	<-r.done
	return r
}

// rounds takes the rounds asked for, one scan each, until none is.
func (s *sharedScan) rounds() {
	sc := getScanner()
	defer putScanner(sc)
	var last time.Time
	s.mu.Lock()
	for s.next != nil {
		if wait := roundGap - time.Since(last); wait > 0 {
			// Rounds at most one per roundGap: callers asking as each round ends (every
			// escalation polls on its own phase) kept one scan running back to back, a
			// core's worth of /proc reads through every grace. A caller waits no longer
			// than the poll it would have slept anyway.
			s.mu.Unlock()
			time.Sleep(wait)
			s.mu.Lock()
		}
		last = time.Now()
		r := s.next
		s.next = nil
		s.mu.Unlock()
		r.err = sc.each(func(p *Proc, _ []byte) { r.procs = append(r.procs, *p) })
		r.bySID = make(map[int][]int)
		for i, p := range r.procs {
			r.bySID[p.SID] = append(r.bySID[p.SID], i)
		}
		close(r.done)
		s.mu.Lock()
	}
	s.running = false
	s.mu.Unlock()
}

// roundGap is the least time between the starts of two shared scans: the poll of
// an escalation.
const roundGap = defaultPoll

// terminateShared is Terminate of a session target whose scans are shared.
func terminateShared(ctx context.Context, t Target, shared *sharedScan) Report {
	return withRetries(ctx, t, func(ctx context.Context, t Target) Report {
		e := newEscalation(ctx, t)
		e.shared = shared
		defer e.release()
		e.run()
		return e.report()
	})
}

// sleep is pause for an escalation whose scans are shared: it waits without a thread
// of its own (no poll of its pidfds) for the next scan, at most Target.Poll, the
// deadline, or, when cancellable, ctx.
func (e *escalation) sleep(deadline time.Time, cancellable bool) {
	d := min(time.Until(deadline), e.t.Poll)
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	var done <-chan struct{}
	if cancellable {
		done = e.ctx.Done()
	}
	select {
	case <-t.C:
	case <-done:
	}
}
