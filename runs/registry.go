package runs

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"corral/config"
	"corral/reaper"
)

// Record is one run as stored durably in <state>/runs/<runId>.json (DESIGN §5). It is
// what lets a later Corral explain, reap or adopt a run whose owner died.
type Record struct {
	RunID           string             `json:"run_id"`
	Name            string             `json:"name"`
	Backend         Kind               `json:"backend"`
	Spec            Spec               `json:"spec"`
	PID             int                `json:"pid"`
	PGID            int                `json:"pgid"`
	SID             int                `json:"sid"`
	Fingerprint     reaper.Fingerprint `json:"fingerprint"`
	State           State              `json:"state"`
	Reason          Reason             `json:"reason,omitempty"`
	ExitCode        *int               `json:"exit_code"`
	Signal          int                `json:"signal,omitempty"`
	CreatedAt       time.Time          `json:"created_at"`
	UpdatedAt       time.Time          `json:"updated_at"`
	LastOutputAt    time.Time          `json:"last_output_at"`
	OwnerInstanceID string             `json:"owner_instance_id"`
	LeaseEpoch      uint64             `json:"lease_epoch"`
	LeaseExpiresAt  time.Time          `json:"lease_expires_at"`
	CleanupMode     string             `json:"cleanup_mode"` // how ownership is bounded: "session"
	Cleanup         Cleanup            `json:"cleanup"`
	Logs            []string           `json:"logs,omitempty"`
	Adopted         bool               `json:"adopted,omitempty"`
	Escapees        []Escapee          `json:"escapees,omitempty"` // with argv, reaped by a reconcile like the session
	Detail          string             `json:"detail,omitempty"`   // why it ended, when a reconcile closed it
}

// Registry is the state directory shared by every Corral process of a user: one JSON
// record per run, written atomically; registry.lock serialises every read-modify-write
// across processes; each instance holds instances/<id>.lock for its whole life, so a
// free instance lock means its owner is dead.
type Registry struct {
	dir      string
	instance string
	lock     *fileLock // instances/<instance>.lock, held until Close
	cfg      config.Defaults
	now      func() time.Time
	events   *eventLog
	warnings []string
	mu       sync.Mutex // in-process half of withLock: flock orders processes, not goroutines
	dirty    bool       // a record was renamed into runs/ under the current lock: sync the dir

	metricsMu    sync.Mutex
	savedMetrics []byte // the counters last saved, under metricsMu

	// writeFault, when set (tests only), makes each record write fail with the errno
	// it returns: a full disk without filling one (issue 15 item 11).
	writeFault func(Record) error
}

// OpenRegistry opens (creating) the registry in dir and registers a new instance.
// Leftover temp files are removed and corrupt records moved aside; neither is fatal:
// both are reported by Warnings.
func OpenRegistry(dir string, cfg config.Defaults) (*Registry, error) {
	for _, sub := range []string{"", "runs", "instances", "metrics", "logs"} {
		if err := config.EnsureStateDir(filepath.Join(dir, sub)); err != nil {
			return nil, err
		}
	}
	r := &Registry{dir: dir, cfg: cfg, now: time.Now, instance: "i" + newID()[1:]}
	lock, err := lockFile(r.instancePath(r.instance), false)
	if err != nil {
		return nil, fmt.Errorf("registry: instance lock: %w", err)
	}
	r.lock = lock
	if r.events, err = openEventLog(filepath.Join(dir, "events.jsonl"), r.instance); err != nil {
		r.Close()
		return nil, err
	}
	if err := r.withLock(r.sweep); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Instance is this process's instance id.
func (r *Registry) Instance() string { return r.instance }

// emit writes one event to events.jsonl: msg is the event type, attrs alternate key
// and value. A nil registry (a supervisor that persists nothing) drops it.
func (r *Registry) emit(msg string, attrs ...any) {
	if r != nil {
		r.events.emit(msg, attrs...)
	}
}

// Dir is the state directory.
func (r *Registry) Dir() string { return r.dir }

// Warnings lists what opening had to repair (corrupt records moved aside, …).
func (r *Registry) Warnings() []string { return r.warnings }

// Close releases the instance lock. Records stay; a later reconcile judges them.
func (r *Registry) Close() error {
	r.events.close()
	if r.lock == nil {
		return nil
	}
	os.Remove(r.instancePath(r.instance))
	return r.lock.release()
}

func (r *Registry) instancePath(id string) string {
	return filepath.Join(r.dir, "instances", id+".lock")
}

func (r *Registry) recordPath(id string) string {
	return filepath.Join(r.dir, "runs", id+".json")
}

// withLock runs fn holding registry.lock exclusively.
func (r *Registry) withLock(fn func() error) error { return r.locked(true, fn) }

// locked runs fn holding registry.lock; without block, a lock held elsewhere (in this
// process or another) returns errLocked at once instead of waiting for it.
func (r *Registry) locked(block bool, fn func() error) error {
	if block {
		r.mu.Lock()
	} else if !r.mu.TryLock() {
		return errLocked
	}
	defer r.mu.Unlock()
	l, err := lockFile(filepath.Join(r.dir, "registry.lock"), block)
	if errors.Is(err, errLocked) {
		return err
	}
	if err != nil {
		return fmt.Errorf("registry lock: %w", err)
	}
	defer l.release()
	err = fn()
	// One directory fsync per locked section makes every rename in it durable before
	// the lock is released (and so before any signal a steal leads to), instead of
	// one per record: reconciling 1,000 records writes hundreds.
	if r.dirty {
		r.dirty = false
		if serr := syncDir(filepath.Join(r.dir, "runs")); err == nil {
			err = serr
		}
	}
	return err
}

// sweep removes temp files a crashed writer left and moves corrupt records aside.
// Called under the registry lock, so no live writer has a temp file open.
func (r *Registry) sweep() error {
	entries, err := os.ReadDir(filepath.Join(r.dir, "runs"))
	if err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	for _, e := range entries {
		path := filepath.Join(r.dir, "runs", e.Name())
		switch {
		case strings.HasSuffix(e.Name(), ".tmp"):
			os.Remove(path)
		case strings.HasSuffix(e.Name(), ".json"):
			if _, err := readRecord(path); err != nil {
				r.setAside(path, err)
			}
		}
	}
	return nil
}

// setAside moves a corrupt record to runs/corrupt/ and remembers a warning.
func (r *Registry) setAside(path string, cause error) {
	dir := filepath.Join(r.dir, "runs", "corrupt")
	os.MkdirAll(dir, 0o700)
	dst := filepath.Join(dir, fmt.Sprintf("%s.%d", filepath.Base(path), r.now().UnixNano()))
	if err := os.Rename(path, dst); err != nil {
		r.warnings = append(r.warnings, fmt.Sprintf("corrupt record %s (%v) could not be moved aside: %v", path, cause, err))
		return
	}
	r.warnings = append(r.warnings, fmt.Sprintf("corrupt record %s moved to %s: %v", filepath.Base(path), dst, cause))
}

func readRecord(path string) (Record, error) {
	var rec Record
	b, err := readState(path, recordCap)
	if err != nil {
		return rec, err
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return rec, fmt.Errorf("%w: %v", ErrCorruptRecord, err)
	}
	if rec.RunID == "" || rec.RunID+".json" != filepath.Base(path) {
		return rec, fmt.Errorf("%w: id %q does not match the file name", ErrCorruptRecord, rec.RunID)
	}
	// Every id read from disk is checked before any path is built from it: an owner
	// "../../x" made `corral ls` delete a file outside the state dir (issue 15 item 5).
	err = checkID(rec.RunID)
	if err == nil && rec.OwnerInstanceID != "" { // no owner: never written by an instance
		err = checkID(rec.OwnerInstanceID)
	}
	if err != nil {
		return rec, fmt.Errorf("%w: %v", ErrCorruptRecord, err)
	}
	return rec, nil
}

// list reads every record, oldest first. Corrupt ones found now are set aside.
func (r *Registry) list() ([]Record, error) {
	paths, err := filepath.Glob(filepath.Join(r.dir, "runs", "*.json"))
	if err != nil {
		return nil, err
	}
	recs := make([]Record, 0, len(paths))
	for _, p := range paths {
		rec, err := readRecord(p)
		if errors.Is(err, os.ErrNotExist) {
			continue // removed meanwhile
		}
		if err != nil {
			r.setAside(p, err)
			continue
		}
		recs = append(recs, rec)
	}
	slices.SortFunc(recs, func(a, b Record) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return recs, nil
}

// List returns every record, oldest first, read under the registry lock.
func (r *Registry) List() ([]Record, error) {
	var recs []Record
	err := r.withLock(func() (err error) {
		recs, err = r.list()
		return err
	})
	return recs, err
}

// write stores rec atomically: temp file in the same directory, fsync, rename; the
// directory is synced when the registry lock is released. A crash leaves the old
// record or the new one, never half of one. Callers hold the registry lock, so the
// temp name needs no randomness: no other writer can be using it.
func (r *Registry) write(rec Record) error { return r.store(rec, true) }

// store is write, with the fsyncs optional. Only lease renewals skip them: a renewal
// changes nothing but the lease expiry and the last output time; if Corral dies the
// page cache still holds it, and if the OS dies every record is from another boot and
// is closed at the next reconciliation whatever its lease says. The rename keeps it
// atomic for every reader either way.
func (r *Registry) store(rec Record, durable bool) error {
	rec.UpdatedAt = r.now()
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	path := r.recordPath(rec.RunID)
	tmp := path + "." + r.instance + ".tmp"
	os.Remove(tmp) // O_EXCL below: a planted file or link in its place is replaced, never written through
	f, err := openState(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("registry write %s: %w", rec.RunID, err)
	}
	if r.writeFault != nil {
		if ferr := r.writeFault(rec); ferr != nil {
			f.Close()
			os.Remove(tmp)
			return fmt.Errorf("registry write %s: %w", rec.RunID, &os.PathError{Op: "write", Path: tmp, Err: ferr})
		}
	}
	if _, err = f.Write(b); err == nil && durable {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("registry write %s: %w", rec.RunID, err)
	}
	r.dirty = r.dirty || durable
	return nil
}

func syncDir(dir string) error {
	d, err := os.OpenFile(dir, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// update reads, changes and writes one record under the registry lock. fn sees the
// stored record; it is fenced: a record owned by another instance, or by this one
// under a different epoch, is not ours to change (ErrLeaseLost).
func (r *Registry) update(id string, epoch uint64, fn func(*Record)) error {
	return r.updateLock(true, id, epoch, fn)
}

// updateLock is update; without block it returns errLocked rather than wait.
func (r *Registry) updateLock(block bool, id string, epoch uint64, fn func(*Record)) error {
	return r.locked(block, func() error {
		rec, err := readRecord(r.recordPath(id))
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
			rec, err := readRecord(r.recordPath(id))
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
	l, err := tryLockFile(r.instancePath(id))
	if errors.Is(err, errLocked) {
		return true
	}
	if err == nil {
		os.Remove(r.instancePath(id)) // its owner is dead: tidy up while holding it
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
		err := os.Remove(r.recordPath(id))
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	})
}
