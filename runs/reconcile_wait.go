package runs

import "time"

// ReconcileAndWait reconciles (corral reconcile, a restore); a run whose owner is dead
// but whose lease has not expired yet may not be stolen (ARCHITECTURE.md, "Leases"),
// but its owner is certainly dead, so it waits for the pass the supervisor makes itself
// when that lease expires (at most the lease length away; waiting is told n and the
// wait first), rather than leave the orphan to someone who may never come.
func (s *Supervisor) ReconcileAndWait(waiting func(n int, wait time.Duration)) ([]Decision, error) {
	return s.reconcileAndWait(waiting, false)
}

// reconcileAndWait is ReconcileAndWait; with noWait it returns after the first pass,
// waiting told what it would have waited for.
func (s *Supervisor) reconcileAndWait(waiting func(n int, wait time.Duration), noWait bool) ([]Decision, error) {
	type pass struct {
		ds  []Decision
		err error
	}
	passes, done := make(chan pass, 8), make(chan struct{})
	stop, ok := s.listen(func(ds []Decision, err error) {
		select {
		case passes <- pass{ds, err}:
		case <-done: // returned already: a pass after it is not its news
		}
	})
	if !ok {
		return nil, ErrShutdown
	}
	defer func() {
		close(done)
		stop()
	}()
	s.reconcileLater()
	p := <-passes
	if p.err != nil {
		return p.ds, p.err
	}
	all := p.ds
	wait, n := s.LeaseWait(all)
	if n == 0 {
		return all, nil
	}
	waiting(n, wait)
	if noWait {
		return all, nil
	}
	limit := time.After(wait + time.Minute) // the lease, then the orphans' grace
	for n > 0 {
		select {
		case p := <-passes:
			if p.err != nil {
				return all, p.err
			}
			all = mergeDecisions(all, p.ds)
			_, n = s.LeaseWait(all)
		case <-limit:
			return all, nil
		}
	}
	return all, nil
}

// mergeDecisions is first's decisions with those of later in place of any for the
// same run (kept aside).
func mergeDecisions(first, later []Decision) []Decision {
	byID := map[string]Decision{}
	for _, d := range later {
		if d.Decision != VerdictKept { // a run this pass stole and another ended: not news
			byID[d.ID] = d
		}
	}
	out := make([]Decision, 0, len(first))
	for _, d := range first {
		if l, ok := byID[d.ID]; ok {
			if !d.Final() { // passes report in any order; what closed a run stands
				d = l
			}
			delete(byID, d.ID)
		}
		out = append(out, d)
	}
	for _, d := range later {
		if _, ok := byID[d.ID]; ok {
			out = append(out, d)
		}
	}
	return out
}

// Notable are the decisions other than kept and left alone: what a command says it
// did to other instances' runs. A run left to a keeper whose server is down is said
// too: that server's absence is news, and it is why nothing reaps the run.
func Notable(ds []Decision) []Decision {
	var out []Decision
	for _, d := range ds {
		if (d.Decision != VerdictLeftAlone && d.Decision != VerdictKept) || d.Keeper != 0 {
			out = append(out, d)
		}
	}
	return out
}
