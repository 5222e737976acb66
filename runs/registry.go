package runs

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"corral/config"
	"corral/runs/internal/statefile"
)

// Registry is the state directory shared by every Corral process of a user: one JSON
// record per run, written atomically; registry.lock serialises every read-modify-write
// across processes; each instance holds instances/<id>.lock for its whole life, so a
// free instance lock means its owner is dead.
type Registry struct {
	dir      string
	instance string
	identity string          // the state dir's identity (registry_identity.go), stamped on every record
	lock     *statefile.Lock // instances/<instance>.lock, held until Close
	cfg      config.Defaults
	clock    func() time.Time // the wall clock (tests set it)
	events   *eventLog
	warnings []string
	mu       sync.Mutex // in-process half of withLock: flock orders processes, not goroutines
	dirty    bool       // a record was renamed into runs/ under the current lock: sync the dir

	// The state dir and its directories, held open: every file is reached from these
	// handles, never by a path a planted link could redirect (statefile.Dir).
	root, runs, instances, metrics *statefile.Dir

	cache  recordCache // the records as last written or read (registry_cache.go)
	listed listedDir   // the runs directory's names as last listed (registry_listed.go)

	// Group commit of record writes (registry_group.go): the writers queued, and the
	// group being run (under mu).
	groupMu sync.Mutex
	queue   []*groupSection
	group   *groupWrites

	// A shutdown's final records in one file (registry_batch.go): whether updates go
	// there now, the batch this registry is appending to and whether store is
	// writing an update (both under mu).
	batching atomic.Bool
	batch    *ownBatch
	updating bool

	metricsMu    sync.Mutex
	savedMetrics []byte // the counters last saved, under metricsMu

	// writeFault, when set (tests only), makes each record write fail with the errno
	// it returns: a full disk without filling one.
	writeFault func(Record) error
	// batchFault, when set (tests only), makes an append to the batch of final
	// records fail with the error it returns, before anything is written.
	batchFault func() error
}

// OpenRegistry opens (creating) the registry in dir and registers a new instance.
// Leftover temp files are removed and corrupt records moved aside; neither is fatal:
// both are reported by Warnings.
func OpenRegistry(dir string, cfg config.Defaults) (*Registry, error) {
	r := &Registry{dir: dir, cfg: cfg, clock: time.Now, instance: "i" + newID()[1:]}
	if err := r.openDirs(); err != nil {
		r.Close()
		return nil, err
	}
	lock, err := r.instances.Lock(r.instance+".lock", false)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("registry: instance lock: %w", err)
	}
	r.lock = lock
	if r.events, err = openEventLog(r.root, r.instance); err != nil {
		r.Close()
		return nil, err
	}
	// Reads the records only: a batch of final records is left to the first section
	// that writes one (corral ls without a server reads it, as every reader does).
	if err := r.lockedFold(true, false, func() error {
		if err := r.loadIdentity(); err != nil {
			return err
		}
		return r.sweep()
	}); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// openDirs opens the state dir (created 0700 and checked by config) and its
// directories, each without following a symlink: a linked one is refused here, at
// once and by name, before anything is written.
func (r *Registry) openDirs() error {
	if err := config.EnsureStateDir(r.dir); err != nil {
		return err
	}
	var err error
	if r.root, err = statefile.Open(r.dir); err != nil {
		return err
	}
	var logs *statefile.Dir // the supervisor's (WithLogDir), made and checked here with the rest
	dirs := []**statefile.Dir{&r.runs, &r.instances, &r.metrics, &logs}
	for i, name := range []string{"runs", "instances", "metrics", "logs"} {
		if *dirs[i], err = r.root.Sub(name); err != nil {
			return err
		}
	}
	return logs.Close()
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

// now is the registry's time: what leases and record stamps are written in.
func (r *Registry) now() time.Time { return r.clock() }

// Dir is the state directory.
func (r *Registry) Dir() string { return r.dir }

// Warnings lists what opening had to repair (corrupt records moved aside, …).
func (r *Registry) Warnings() []string { return r.warnings }

// Close releases the instance lock. Records stay; a later reconcile judges them.
func (r *Registry) Close() error {
	r.events.close()
	var err error
	if r.lock != nil {
		r.instances.Remove(r.instance + ".lease")
		r.instances.Remove(r.instance + ".lease" + leaseSpare)
		r.instances.Remove(r.instance + ".lock")
		err = r.lock.Release()
	}
	for _, d := range []*statefile.Dir{r.runs, r.instances, r.metrics, r.root} {
		d.Close()
	}
	return err
}

// withLock runs fn holding registry.lock exclusively.
func (r *Registry) withLock(fn func() error) error { return r.locked(true, fn) }

// locked runs fn holding registry.lock; without block, a lock held elsewhere (in this
// process or another) returns statefile.ErrLocked at once instead of waiting for it.
func (r *Registry) locked(block bool, fn func() error) error { return r.lockedFold(block, true, fn) }

// lockedFold is locked; fold says whether a batch of final records is folded into
// the record files first (registry_batch.go): every section that may write a record
// does; one that only reads them overlays the batch as a reader without the lock.
func (r *Registry) lockedFold(block, fold bool, fn func() error) error {
	if block {
		r.mu.Lock()
	} else if !r.mu.TryLock() {
		return statefile.ErrLocked
	}
	defer r.mu.Unlock()
	l, err := r.root.Lock("registry.lock", block)
	if errors.Is(err, statefile.ErrLocked) {
		return err
	}
	if err != nil {
		return fmt.Errorf("registry lock: %w", err)
	}
	defer l.Release()
	// A batch of records left by a shutdown (this one's too) is folded into the
	// record files first: a section that writes reads and writes the files alone.
	if fold {
		err = r.foldBatch(false)
	}
	if err == nil {
		err = fn()
	}
	// One directory fsync per locked section makes every rename in it durable before
	// the lock is released (and so before any signal a steal leads to), instead of
	// one per record: reconciling 1,000 records writes hundreds.
	if r.dirty {
		r.dirty = false
		if serr := r.runs.Sync(); err == nil {
			err = serr
		}
	}
	return err
}

// tx is one locked section of the registry (registry.lock held): what a reconcile
// reads, judges and writes while no other Corral, and no other goroutine, can.
type tx struct{ r *Registry }

// transact runs fn in one locked section.
func (r *Registry) transact(fn func(tx) error) error {
	return r.withLock(func() error { return fn(tx{r}) })
}

// records reads every record, oldest first; corrupt ones are set aside.
func (t tx) records() ([]Record, error) { return t.r.list() }

// put writes rec, unfenced: the caller has judged it under this lock.
func (t tx) put(rec Record) error { return t.r.write(rec) }

// drop deletes a record; one already gone is not an error.
func (t tx) drop(id string) {
	t.r.runs.Remove(id + ".json")
	t.r.cache.forget(id + ".json")
}
