package runs

import "fmt"

// commitStart writes the run's first record, in state running, before the run (or
// its program) goes on: a Corral that crashes after this point leaves a record the
// next one can reconcile. Written without mu held, so a cancel meanwhile never waits
// on registry.lock. A run whose record could not be written, or that was cancelled
// meanwhile, is moved to exiting and not to be released; only a failed write is an
// error.
func (r *run) commitStart(rec Record, epoch uint64) (release bool, err error) {
	err = r.commitRunning(rec, epoch)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		// Not committed: a run no later Corral could reconcile must not go on, and no
		// later record is written for it: each would fail as this one did, and the
		// write-behind's retries held corral run for 11 s.
		r.unrecorded = true
		r.moveLocked(Exiting, func(i *Info) {
			i.Reason, i.SpawnErr, i.RecordErr = SpawnError, "registry: "+err.Error(), err.Error()
		})
		r.cancel(cause{SpawnError})
		return false, fmt.Errorf("%w: %w", ErrRegistry, err)
	}
	r.committedLocked()
	return !r.exitIfCancelledLocked(), nil
}

// exitIfCancelledLocked moves a run cancelled while starting to exiting.
func (r *run) exitIfCancelledLocked() bool {
	if r.ctx.Err() == nil {
		return false
	}
	r.moveLocked(Exiting, nil)
	return true
}
