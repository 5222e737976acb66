package runs

import (
	"context"
	"sync"
	"time"
)

// Reconciling without holding anyone up. Ending orphans takes up to their grace each; a
// Corral that starts must not wait for that before it shows its UI or runs its command,
// and SIGINT in the meantime must not leave stolen records half done. And a run left
// alone because its dead owner's lease had not expired yet must be reaped once it has,
// without anyone pressing a key.

// later is the supervisor's background reconciliation: passes started by
// ReconcileInBackground or by a lease's expiry, tracked so that Shutdown finishes
// them, and the one timer for the next expiry.
type later struct {
	mu     sync.Mutex
	ctx    context.Context // cancelled by Shutdown: a pass still ending orphans hurries
	cancel context.CancelFunc
	wg     sync.WaitGroup
	timer  *time.Timer
	at     time.Time   // when timer fires
	daily  *time.Timer // the pass of a Corral that runs for days (logSweepEvery)
	report func([]Decision, error)
	// listeners are told every pass too while they listen (ReconcileAndWait), beside
	// report: a restore in a server waits for its passes without taking the server's
	// or a UI's report away.
	listeners map[*func([]Decision, error)]struct{}
	closed    bool
}

// retryMargin is how long after a lease's expiry the pass that may steal it runs: the
// steal needs the lease expired on the registry's clock, which may lag ours a little.
const retryMargin = 100 * time.Millisecond

// ReconcileInBackground reconciles on a goroutine of its own and calls report with the
// decisions (nil report: none). report is also called for every later pass this
// supervisor makes when a lease it left alone expires. Shutdown waits for a pass in
// progress, so what it stole is either closed or ended.
func (s *Supervisor) ReconcileInBackground(report func([]Decision, error)) {
	l := &s.later
	l.mu.Lock()
	l.report = report
	if l.daily == nil && !l.closed {
		var again func()
		again = func() {
			s.reconcileLater()
			l.mu.Lock()
			if !l.closed {
				l.daily = time.AfterFunc(logSweepEvery, again)
			}
			l.mu.Unlock()
		}
		l.daily = time.AfterFunc(logSweepEvery, again)
	}
	l.mu.Unlock()
	s.reconcileLater()
}

// reconcileLater starts one background pass unless the supervisor is shutting down.
func (s *Supervisor) reconcileLater() {
	l := &s.later
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	if l.ctx == nil {
		l.ctx, l.cancel = context.WithCancel(context.Background())
	}
	ctx, report := l.ctx, l.report
	l.wg.Go(func() {
		ds, err := s.Reconcile(ctx)
		if report != nil {
			report(ds, err)
		}
		l.mu.Lock()
		fs := make([]func([]Decision, error), 0, len(l.listeners))
		for f := range l.listeners {
			fs = append(fs, *f)
		}
		l.mu.Unlock()
		for _, f := range fs {
			f(ds, err)
		}
	})
}

// listen adds f to what every background pass is told until stop is called; false
// when the supervisor is shutting down (no pass will come).
func (s *Supervisor) listen(f func([]Decision, error)) (stop func(), ok bool) {
	l := &s.later
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, false
	}
	if l.listeners == nil {
		l.listeners = map[*func([]Decision, error)]struct{}{}
	}
	key := &f
	l.listeners[key] = struct{}{}
	return func() {
		l.mu.Lock()
		delete(l.listeners, key)
		l.mu.Unlock()
	}, true
}

// retryWhenLeasesExpire schedules a pass for when the leases among ds that were left
// alone only because they had not expired yet (their owners are dead) have all expired:
// the latest of them, not the earliest, so that a dead owner's orphans are stolen and
// ended in one pass, their graces run together. Their expiries differ by when each
// record was last renewed (up to a heartbeat and the writes of one, more on a loaded
// machine); a pass at the earliest found the rest unexpired, and they were ended a
// grace later, one batch after another (seen in CI). A lease is never trusted to run
// longer than the lease length from now: a record's expiry may be forged, or written by
// a clock that was ahead.
func (s *Supervisor) retryWhenLeasesExpire(ds []Decision) {
	wait, n := s.LeaseWait(ds)
	if n == 0 {
		return
	}
	due := time.Now().Add(wait)
	l := &s.later
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.timer != nil && !l.at.After(due) {
		return
	}
	if l.timer != nil {
		l.timer.Stop()
	}
	l.at = due
	l.timer = time.AfterFunc(wait, func() {
		l.mu.Lock()
		l.timer = nil
		l.mu.Unlock()
		s.reconcileLater()
	})
}

// stopLater stops the timer, hurries a pass in progress and waits for it.
func (s *Supervisor) stopLater() {
	l := &s.later
	l.mu.Lock()
	l.closed = true
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	if l.daily != nil {
		l.daily.Stop()
	}
	if l.cancel != nil {
		l.cancel()
	}
	l.mu.Unlock()
	l.wg.Wait()
}

// LeaseWait is how long to wait until every lease ds left alone because its dead
// owner's lease had not expired yet has expired (at most the lease length, and the
// margin a steal needs), and how many they are.
func (s *Supervisor) LeaseWait(ds []Decision) (time.Duration, int) {
	var wait time.Duration
	n := 0
	for _, d := range ds {
		if d.RetryAt.IsZero() {
			continue
		}
		n++
		wait = max(wait, min(time.Until(d.RetryAt)+retryMargin, s.cfg.LeaseExpiry+retryMargin))
	}
	return wait, n
}
