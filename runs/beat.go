package runs

import (
	"context"
	"os"
	"slices"
	"sync"
	"time"
)

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

// background runs the lease heartbeat (and, when enabled, the escape scan) until
// Close. One goroutine: both are short and neither may overlap itself.
func (s *Supervisor) background(ctx context.Context) {
	beat := time.NewTimer(s.cfg.LeaseHeartbeat)
	defer beat.Stop()
	var scan <-chan time.Time
	chld := make(chan os.Signal, 1)
	switch {
	case s.escapes != nil && s.escapes.contained: // reap orphans as children end
		defer notifyChildExits(chld)()
		// and look for what left a run's cgroup on the heartbeat's ticks the pacer finds
		// due: only a move out of the cgroup (root's, rare) is looked for, and a timer of
		// its own, twice a second, tripled an idle server's CPU (0.03 % → 0.1 %).
	case s.escapes != nil:
		t := time.NewTicker(s.cfg.EscapeScan)
		defer t.Stop()
		scan = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-beat.C:
			s.heartbeat()
			if s.escapes != nil && s.escapes.contained {
				s.escapes.tick()
			}
			beat.Reset(s.nextBeat())
		case <-scan:
			s.escapes.tick()
		case <-chld:
			if !s.shuttingDown.Load() { // a shutdown's thousand exits: its runs reap their own, then it reaps the rest once
				s.escapes.reapOrphans()
			}
		}
	}
}

// nextBeat is how long the heartbeat sleeps: until its lease is due for renewal (half
// of it left, and a millisecond, so the tick renews it), at least LeaseHeartbeat (a
// failed renewal is tried again then) and at most half a lease. With the defaults an
// idle server wakes every 5 s, renewing at each wake with 5 s of its 10 s lease left,
// where a fixed 2 s tick woke five times per two renewals (at 4 s left). What a beat
// does besides has work only when something ran: the output events (one per run per
// beat at most) and the counters; the cgroup backend's escape look, which rides the
// beat, finds a process a root moved out of an idle run's cgroup at the next wake,
// 5 s at most (the move changes no file the kernel notifies of: cgroup.events says
// only populated and frozen, which such a move need not change), or at the run's end.
func (s *Supervisor) nextBeat() time.Duration {
	s.beatMu.Lock()
	defer s.beatMu.Unlock()
	d := s.cfg.LeaseHeartbeat
	if s.reg == nil || s.leaseErr || s.leased.IsZero() {
		return d
	}
	half := s.cfg.LeaseExpiry/2 + time.Millisecond
	due := s.leased.Round(0).Sub(s.reg.now().Round(0)) - half + 2*time.Millisecond
	return min(max(d, due), max(d, half))
}

// heartbeat renews this instance's lease and persists its counters.
//
// The lease — every run's at once, instances/<id>.lease (registry_lease.go) — is
// renewed only once less than half of it is left (with the defaults, a 2 s tick and a
// 10 s lease: every third tick, at 3–5 s left), not on every tick; a steal needs the
// lease expired *and* this instance's lock free, so while Corral lives the margin only
// has to cover a stalled tick, and half a lease is 2.5 ticks of it. With it, the
// records of runs that printed since their record was last written get the time of
// their last output; a quiet run's record is not rewritten at all.
func (s *Supervisor) heartbeat() {
	if s.reg == nil {
		return
	}
	s.beatMu.Lock()
	defer s.beatMu.Unlock()
	live := s.liveRuns()
	for _, r := range live {
		r.outputHeartbeat()
	}
	// Wall clock (Round(0) drops the monotonic reading): the lease's expiry is
	// wall-clock time, and after a suspend the monotonic clock lags it.
	if s.leased.Round(0).Sub(s.reg.now().Round(0)) < s.cfg.LeaseExpiry/2 {
		s.renew(live)
	}
	s.reg.saveMetrics(s.counters.snapshot()) // best effort: counters are not records
	s.beats.fire()
}

// renew renews this instance's lease, shows the new expiry on its runs, and writes the
// last output time of those that printed since their record was written.
func (s *Supervisor) renew(runs []*run) {
	until, err := s.reg.renewInstance()
	if err != nil {
		// Once, not on every tick that retries it: a full disk would otherwise fill
		// the log with the same line (if it can be written at all). The lease file
		// says it too, for corral ls, as far as it can be written.
		if !s.leaseErr {
			s.leaseErr = true
			s.reg.emit("lease-not-renewed", "err", err.Error())
			s.reg.noteLeaseFailure(err)
		}
		noteNotRenewed(runs, err.Error()) // every try: a run started since has it too
		return
	}
	if s.leaseErr {
		s.leaseErr = false
		s.reg.emit("lease-renewed", "until", until)
		noteNotRenewed(runs, "")
	}
	s.leased = until
	// A shutdown's runs are all ending, each to write its last output with its exited
	// record: a beat meanwhile writes no record. Its locked section would fold the
	// shutdown's batch of final records into a file each (registry_batch.go), a
	// thousand of them at once.
	ending := s.shuttingDown.Load()
	printed := map[string]heartbeatRun{}
	for _, r := range runs {
		r.mu.Lock()
		if r.epoch > 0 {
			r.info.LeaseExpiresAt = until // shown live; not an event of its own
			if out := r.wd.State().LastOutput; !ending && out.After(r.outputSaved) {
				printed[r.id] = heartbeatRun{epoch: r.epoch, lastOutput: out}
			}
		}
		r.mu.Unlock()
	}
	if len(printed) == 0 {
		return
	}
	written, lost, err := s.reg.heartbeat(printed, until)
	for _, r := range runs {
		if slices.Contains(written, r.id) {
			r.mu.Lock()
			if out := printed[r.id].lastOutput; out.After(r.outputSaved) {
				r.outputSaved = out
			}
			r.mu.Unlock()
		}
	}
	if err != nil {
		s.reg.emit("registry-error", "err", err.Error())
	}
	for _, id := range lost {
		s.reg.emit("lease-lost", "run_id", id)
	}
}

// noteNotRenewed shows on each run why its lease was not renewed ("": it was again),
// for the details pane. Not an event of its own, as the lease's expiry is not: a
// viewer's snapshot carries the runs it looks at.
func noteNotRenewed(runs []*run, why string) {
	for _, r := range runs {
		r.mu.Lock()
		if r.epoch > 0 {
			r.info.LeaseNotRenewed = why
		}
		r.mu.Unlock()
	}
}

// outputSavedLocked is the run's last output time, as the record being built will
// say it.
func (r *run) outputSavedLocked() time.Time {
	if out := r.wd.State().LastOutput; out.After(r.outputSaved) {
		r.outputSaved = out
	}
	return r.outputSaved
}

// liveRuns returns the runs not yet exited.
func (s *Supervisor) liveRuns() []*run {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*run
	for _, r := range s.runs {
		select {
		case <-r.done:
		default:
			out = append(out, r)
		}
	}
	return out
}

// outputHeartbeat logs how much a run printed since the last heartbeat: one event per
// run per lease interval at most, so a chatty run cannot flood events.jsonl.
func (r *run) outputHeartbeat() {
	total := r.out.total()
	if prev := r.outLogged.Swap(total); total > prev {
		r.sup.reg.emit("output", "run_id", r.id, "bytes", total-prev, "total", total)
	}
}
