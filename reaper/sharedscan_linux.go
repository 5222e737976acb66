package reaper

import (
	"context"
	"sync/atomic"
	"time"

	"corral/reaper/rounds"
)

// fullScans counts the full scans of /proc taken (scanner.each): what a test of the
// shared scans counts.
var fullScans atomic.Int64

// sharedScan is a full /proc scan that many escalations share: the session targets
// of one TerminateMany. Each escalation scanned /proc itself, as it began and again
// and again while it waited for its session to empty: a shutdown of a thousand
// session runs made thousands of scans of two thousand processes (200 runs took 17 s
// of CPU). A caller of each gets a scan that began after it asked, so it sees all its
// own scan would have; callers asking while one runs share the next (package rounds),
// at most one per roundGap.
type sharedScan struct {
	rounds *rounds.Shared[scan]
}

// scan is one shared scan of /proc.
type scan struct {
	procs []Proc
	bySID map[int][]int // indexes in procs by session: what most callers look at
	err   error
}

func newSharedScan() *sharedScan {
	return &sharedScan{rounds.New(scanAll, rounds.WithGap(roundGap))}
}

// each calls fn for every process of a scan that began after each was called (as
// scanner.each does; fn gets a copy of each process and no comm bytes).
func (s *sharedScan) each(fn func(p *Proc, comm []byte)) error {
	r := s.rounds.Get()
	for _, p := range r.procs {
		fn(&p, nil)
	}
	return r.err
}

// session is each for the members of session sid only.
func (s *sharedScan) session(sid int, fn func(p *Proc, comm []byte)) error {
	r := s.rounds.Get()
	for _, i := range r.bySID[sid] {
		p := r.procs[i]
		fn(&p, nil)
	}
	return r.err
}

// scanAll is one scan of /proc, indexed by session.
func scanAll() scan {
	sc := getScanner()
	defer putScanner(sc)
	var r scan
	r.err = sc.each(func(p *Proc, _ []byte) { r.procs = append(r.procs, *p) })
	r.bySID = make(map[int][]int)
	for i, p := range r.procs {
		r.bySID[p.SID] = append(r.bySID[p.SID], i)
	}
	return r
}

// roundGap is the least time between the starts of two shared scans taken back to
// back: the poll of an escalation. Callers asking as each scan ends (every escalation
// polls on its own phase) kept one scan running back to back, a core's worth of /proc
// reads through every grace; a caller waits no longer than the poll it would have
// slept anyway.
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
