package runs

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// The registry's fenced operations: a run's record created and updated under its
// lease, leases renewed, instances judged alive, records removed.

// update reads, changes and writes one record under the registry lock. fn sees the
// stored record; it is fenced: a record owned by another instance, or by this one
// under a different epoch, is not ours to change (ErrLeaseLost).
func (r *Registry) update(id string, epoch uint64, fn func(*Record)) error {
	return r.updateLock(true, id, epoch, fn)
}

// updateLock is update; without block it returns errLocked rather than wait.
func (r *Registry) updateLock(block bool, id string, epoch uint64, fn func(*Record)) error {
	return r.locked(block, func() error {
		rec, err := r.record(id)
		if err != nil {
			return err
		}
		if rec.OwnerInstanceID != r.instance || rec.LeaseEpoch != epoch {
			return fmt.Errorf("%w: %s is held by %s epoch %d", ErrLeaseLost, id, rec.OwnerInstanceID, rec.LeaseEpoch)
		}
		if rec.State == Exited {
			return nil // finalized exactly once
		}
		fn(&rec)
		return r.write(rec)
	})
}

// create stores a new record owned by this instance with a fresh lease.
func (r *Registry) create(rec Record) error { return r.createLock(true, rec) }

// createLock is create; without block it returns errLocked rather than wait.
func (r *Registry) createLock(block bool, rec Record) error {
	rec.OwnerInstanceID, rec.LeaseEpoch = r.instance, 1
	rec.LeaseExpiresAt = r.now().Add(r.cfg.LeaseExpiry)
	return r.locked(block, func() error { return r.write(rec) })
}

// heartbeat renews the leases of this instance's live runs (id → epoch) and records
// their last output time. It returns the ids it renewed, the expiry it wrote, and the
// ids whose lease this instance no longer holds; after an error only those renewed
// before it were written.
func (r *Registry) heartbeat(live map[string]heartbeatRun) (renewed, lost []string, expires time.Time, err error) {
	err = r.withLock(func() error {
		expires = r.now().Add(r.cfg.LeaseExpiry)
		for id, hb := range live {
			rec, err := r.record(id)
			if err != nil || rec.OwnerInstanceID != r.instance || rec.LeaseEpoch != hb.epoch {
				lost = append(lost, id)
				continue
			}
			if rec.State == Exited {
				continue
			}
			rec.LeaseExpiresAt = expires
			if hb.lastOutput.After(rec.LastOutputAt) {
				rec.LastOutputAt = hb.lastOutput
			}
			if err := r.store(rec, false); err != nil {
				return err
			}
			renewed = append(renewed, id)
		}
		return nil
	})
	return renewed, lost, expires, err
}

type heartbeatRun struct {
	epoch      uint64
	lastOutput time.Time
}

// InstanceAlive reports whether instance id still holds its lock. A free lock, or no
// lock file, means the process that held it is gone (the kernel drops flocks on exit).
func (r *Registry) InstanceAlive(id string) bool {
	if id == r.instance {
		return true
	}
	if checkID(id) != nil {
		return false // no such instance could exist; and no path is built from it
	}
	l, err := tryLockFile(r.instances, id+".lock")
	if errors.Is(err, errLocked) {
		return true
	}
	if err == nil {
		r.instances.remove(id + ".lock") // its owner is dead: tidy up while holding it
		l.release()
	}
	return false
}

// remove deletes a finished record (TTL passed or removed by the operator).
func (r *Registry) remove(id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	return r.withLock(func() error {
		err := r.runs.remove(id + ".json")
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	})
}
