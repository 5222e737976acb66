package runs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"corral/runs/internal/statefile"
)

// The registry's fenced operations: a run's record created and updated under its
// lease, leases renewed, instances judged alive, records removed.

// update reads, changes and writes one record under the registry lock. fn sees the
// stored record; it is fenced: a record owned by another instance, or by this one
// under a different epoch, is not ours to change (ErrLeaseLost).
func (r *Registry) update(id string, epoch uint64, fn func(*Record)) error {
	return r.updateLock(true, id, epoch, fn)
}

// updateLock is update; without block it returns statefile.ErrLocked rather than wait.
func (r *Registry) updateLock(block bool, id string, epoch uint64, fn func(*Record)) error {
	return r.updateStore(block, true, id, epoch, fn)
}

// updateStore is updateLock, with the fsyncs optional (store).
func (r *Registry) updateStore(block, durable bool, id string, epoch uint64, fn func(*Record)) error {
	return r.locked(block, func() error { return r.updateIn(durable, id, epoch, fn) })
}

// updateIn is updateStore's locked section.
func (r *Registry) updateIn(durable bool, id string, epoch uint64, fn func(*Record)) error {
	rec, ok, err := r.groupRecord(id + ".json")
	if !ok { // as the file holds it now: the fence is never checked against a kept copy
		rec, err = r.readFresh(id + ".json")
	}
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
	r.updating = true
	defer func() { r.updating = false }()
	return r.store(rec, durable)
}

// create stores a new record owned by this instance with a fresh lease.
func (r *Registry) create(rec Record) error { return r.createLock(true, rec) }

// createLock is create; without block it returns statefile.ErrLocked rather than wait.
func (r *Registry) createLock(block bool, rec Record) error {
	return r.locked(block, func() error { return r.createIn(rec) })
}

// createIn is createLock's locked section.
func (r *Registry) createIn(rec Record) error {
	rec.OwnerInstanceID, rec.LeaseEpoch = r.instance, 1
	rec.LeaseExpiresAt = r.now().Add(r.cfg.LeaseExpiry)
	return r.write(rec)
}

// An instance renews the leases of all its runs at once: instances/<id>.lease says
// until when it holds every record it owns (LeaseExpiry), so an idle Corral rewrites
// one small file per renewal, not every record. (Renewing 50 idle runs' records every
// 6 s was the whole of a detached server's idle CPU: 0.2 % of a core, 0 % without.)
// A record's own lease_expires_at is what it was given when last written (created,
// stolen, or rewritten with new output); the instance lease extends it while it lasts.

// instanceLease is the content of instances/<id>.lease.
type instanceLease struct {
	InstanceID     string    `json:"instance_id"`
	LeaseExpiresAt time.Time `json:"lease_expires_at"`
	// NotRenewed is why the last renewal failed (noteLeaseFailure); a renewal that
	// succeeds writes the file anew, without it.
	NotRenewed string `json:"not_renewed,omitempty"`
}

// leaseCap bounds what is read of a lease file (it may have been replaced by anything).
const leaseCap = 4 << 10

// renewInstance extends the lease of every record this instance owns to LeaseExpiry
// from now, and returns that time. Not fsynced, like a record's renewal: after an OS
// crash every record is from another boot, whatever its lease says.
func (r *Registry) renewInstance() (time.Time, error) {
	until := r.now().Add(r.cfg.LeaseExpiry)
	b, err := json.Marshal(instanceLease{InstanceID: r.instance, LeaseExpiresAt: until})
	if err == nil {
		name := r.instance + ".lease"
		err = r.instances.Swap(name, name+leaseSpare, padLease(b))
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("registry: renew lease: %w", err)
	}
	return until, nil
}

// padLease pads a lease's JSON with spaces (which JSON allows after a value) to a
// multiple of leaseWidth bytes, so each renewal writes as many bytes as the one
// before it (the time's nanoseconds drop trailing zeros): statefile.Dir.swap then
// overwrites the spare's bytes and never cuts its file.
func padLease(b []byte) []byte {
	n := (len(b) + leaseWidth - 1) / leaseWidth * leaseWidth
	return append(b, bytes.Repeat([]byte{' '}, n-len(b))...)
}

// leaseWidth is what a lease's length is rounded up to (padLease).
const leaseWidth = 128

// leaseSpare ends the name of the lease file's spare (statefile.Dir.swap): the lease as it
// was before the last renewal, rewritten by the next. Nothing reads it. The name the
// temp file of a renewal had: what is in its place (a file left by an older Corral,
// something planted) is written over or, if it cannot be, replaced as that was.
const leaseSpare = ".tmp"

// noteLeaseFailure writes why the lease could not be renewed into the lease file, for
// corral ls, keeping the expiry it had. In place, over the file's own bytes: a full
// disk refuses the temp file a renewal writes, but a file's blocks already allocated
// can still be overwritten (on most file systems). Best effort: a file that ends up
// unreadable extends no lease, which matters only once its owner is dead.
func (r *Registry) noteLeaseFailure(cause error) {
	name := r.instance + ".lease"
	l := instanceLease{InstanceID: r.instance, LeaseExpiresAt: r.instanceLease(r.instance), NotRenewed: cause.Error()}
	if len(l.NotRenewed) > leaseWhyCap {
		l.NotRenewed = l.NotRenewed[:leaseWhyCap] + "…"
	}
	b, err := json.Marshal(l)
	if err != nil {
		return
	}
	f, err := r.instances.Open(name, os.O_WRONLY|os.O_CREATE, 0o600) // none yet: its first renewal failed
	if err != nil {
		return
	}
	defer f.Close()
	if _, err := f.WriteAt(b, 0); err == nil {
		f.Truncate(int64(len(b)))
	}
}

// leaseWhyCap bounds the reason noteLeaseFailure writes (a path may be long).
const leaseWhyCap = 300

// LeaseProblem is why instance id last failed to renew its lease, as its lease file
// says, or "" (renewed since, or never failed).
func (r *Registry) LeaseProblem(id string) string { return leaseProblem(r.instances, id) }

// LeaseProblemIn is LeaseProblem read from the state dir at dir without opening a
// registry (corral doctor, which must not become an instance of the state dir, nor
// make one of its directories).
func LeaseProblemIn(dir, id string) string {
	root, err := statefile.Open(dir)
	if err != nil {
		return ""
	}
	defer root.Close()
	instances, err := root.Subdir("instances")
	if err != nil {
		return ""
	}
	defer instances.Close()
	return leaseProblem(instances, id)
}

func leaseProblem(instances *statefile.Dir, id string) string {
	if checkID(id) != nil {
		return ""
	}
	b, err := instances.Read(id+".lease", leaseCap)
	var l instanceLease
	if err != nil || json.Unmarshal(b, &l) != nil || l.InstanceID != id {
		return ""
	}
	return l.NotRenewed
}

// LeaseExpiry is until when rec's lease holds: its own expiry, or its owner's instance
// lease when that is later. A lease file that is missing, unreadable or names another
// instance extends nothing.
func (r *Registry) LeaseExpiry(rec Record) time.Time {
	if l := r.instanceLease(rec.OwnerInstanceID); l.After(rec.LeaseExpiresAt) {
		return l
	}
	return rec.LeaseExpiresAt
}

// instanceLease is until when instance id's lease holds (zero: none to be read).
func (r *Registry) instanceLease(id string) time.Time {
	if checkID(id) != nil {
		return time.Time{} // no such instance could exist; and no path is built from it
	}
	b, err := r.instances.Read(id+".lease", leaseCap)
	var l instanceLease
	if err != nil || json.Unmarshal(b, &l) != nil || l.InstanceID != id {
		return time.Time{}
	}
	return l.LeaseExpiresAt
}

// heartbeat rewrites the records of this instance's runs given (id → epoch) with their
// last output time and the lease until expires. It returns the ids it wrote and the ids
// whose lease this instance no longer holds; after an error only those written before
// it were.
func (r *Registry) heartbeat(live map[string]heartbeatRun, expires time.Time) (renewed, lost []string, err error) {
	err = r.withLock(func() error {
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
	return renewed, lost, err
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
	l, err := r.instances.TryLock(id + ".lock")
	if errors.Is(err, statefile.ErrLocked) {
		return true
	}
	if err == nil {
		// Its owner is dead: tidy up while holding it. The lease file goes only once it
		// has expired: until then it is what keeps the dead owner's runs from a steal.
		if r.instanceLease(id).Before(r.now()) {
			r.instances.Remove(id + ".lease")
		}
		r.instances.Remove(id + ".lease" + leaseSpare)
		r.instances.Remove(id + ".lock")
		l.Release()
	}
	return false
}

// remove deletes a finished record (TTL passed or removed by the operator).
func (r *Registry) remove(id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	return r.withLock(func() error {
		err := r.runs.Remove(id + ".json")
		r.cache.forget(id + ".json")
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	})
}
