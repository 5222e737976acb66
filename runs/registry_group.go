package runs

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Group commit of the runs' record writes. Each write took the registry lock, an
// fsync of the record and one of the directory, one run after another: a shutdown of
// a thousand runs (two writes each) waited on four thousand fsyncs in a row. Writers
// that would wait for the lock queue instead; whoever takes it runs every queued
// section in one locked section, their records written to temp files, fsynced all at
// once, then renamed into place, and the directory synced once. Each record is still
// durable before it is renamed: a crash leaves the old record or the new one.

// groupSection is one writer's locked section, queued.
type groupSection struct {
	fn   func() error
	err  error
	done chan struct{}
}

// deferredWrite is a record written to its temp file in a grouped section, renamed
// into place when the group ends.
type deferredWrite struct {
	name, tmp string
	b         []byte // the record's bytes, written to tmp by flushGroup
	// rec is the record as written, decoded from the bytes when first asked (record):
	// what updateIn reads meanwhile, and the cache keeps. A shutdown's final records go
	// to its batch and are never asked for: a thousand decodes in the group's locked
	// section were a fifth of its time.
	rec     Record
	decoded bool
	section *groupSection
	update  bool // of a record in its file (updateIn): may go to a shutdown's batch
}

// record is the record w wrote, decoded from its bytes (r.mu held): nothing the
// writer holds (a slice, a pointer) is shared with it.
func (w *deferredWrite) record() (Record, error) {
	if !w.decoded {
		rec, err := decodeRecord(w.name, w.b)
		if err != nil {
			return Record{}, err
		}
		w.rec, w.decoded = rec, true
	}
	return w.rec, nil
}

// groupWrites is the state of the group being run (under r.mu).
type groupWrites struct {
	cur    *groupSection
	writes []*deferredWrite
	latest map[string]*deferredWrite // by file name: what updateIn reads meanwhile
	seq    int
}

// grouped runs fn as a locked section of a group: with the registry lock held, and
// its records durable and in place when it returns, as withLock's. fn may only create
// records and update them (createIn, updateIn): nothing else reads the group's
// writes before they are renamed.
func (r *Registry) grouped(fn func() error) error {
	s := &groupSection{fn: fn, done: make(chan struct{})}
	r.groupMu.Lock()
	r.queue = append(r.queue, s)
	r.groupMu.Unlock()
	r.mu.Lock()
	select {
	case <-s.done: // a group ran it while this waited
		r.mu.Unlock()
		return s.err
	default:
	}
	r.groupMu.Lock()
	q := r.queue
	r.queue = nil
	r.groupMu.Unlock()
	err := r.runGroup(q)
	for _, o := range q {
		if err != nil && o.err == nil {
			o.err = err
		}
		close(o.done)
	}
	r.mu.Unlock()
	return s.err
}

// runGroup runs the sections q under the registry's file lock (r.mu held).
func (r *Registry) runGroup(q []*groupSection) error {
	l, err := r.root.Lock("registry.lock", true)
	if err != nil {
		return fmt.Errorf("registry lock: %w", err)
	}
	defer l.Release()
	batching := r.batching.Load()
	if err := r.foldBatch(batching); err != nil {
		return err
	}
	g := &groupWrites{latest: map[string]*deferredWrite{}}
	r.group = g
	for _, s := range q {
		g.cur = s
		s.err = s.fn()
	}
	r.group = nil
	r.flushGroup(g)
	if r.dirty {
		r.dirty = false
		return r.runs.Sync()
	}
	return nil
}

// storeDeferred is store's durable write inside a group: the record is kept in
// memory; flushGroup writes the newest of each record to its temp file.
func (r *Registry) storeDeferred(g *groupWrites, name string, b []byte) error {
	g.seq++
	tmp := name + "." + r.instance + "." + strconv.Itoa(g.seq) + ".tmp"
	// An update of a record this group creates is not one of a file: the file is
	// made by its newest write, which is then the create's.
	prev, ok := g.latest[name]
	update := r.updating && (!ok || prev.update)
	w := &deferredWrite{name: name, tmp: tmp, b: b, section: g.cur, update: update}
	g.writes = append(g.writes, w)
	g.latest[name] = w
	return nil
}

// flushGroup writes the group's records: while a shutdown batches its records, the
// newest update of each record in one segment of the batch (registry_batch.go), and
// the rest to their files.
func (r *Registry) flushGroup(g *groupWrites) {
	if !r.batching.Load() {
		r.flushFiles(g)
		return
	}
	var batch []*deferredWrite
	for _, w := range g.writes {
		if g.latest[w.name] == w && batched(w) {
			batch = append(batch, w)
		}
	}
	if len(batch) == 0 {
		r.flushFiles(g)
		return
	}
	if err := r.appendBatch(batch); err != nil {
		// Each to its file, as without a batch; but the batch holds older records of
		// these runs under the same lease, which a reader would overlay on the newer
		// files and the next fold would write over them: it is folded and removed
		// first. If it cannot be, nothing of the group is written (its sections fail).
		if ferr := r.foldBatch(false); ferr != nil {
			for _, w := range g.writes {
				if w.section.err == nil {
					w.section.err = fmt.Errorf("registry batch: %w (and folding it: %w)", err, ferr)
				}
			}
			return
		}
		r.flushFiles(g)
		return
	}
	rest := &groupWrites{latest: map[string]*deferredWrite{}}
	for _, w := range g.writes {
		if g.latest[w.name] == w && !batched(w) {
			rest.writes = append(rest.writes, w)
			rest.latest[w.name] = w
		}
	}
	r.flushFiles(rest)
}

// batched says whether w goes to a shutdown's batch: an update of a record in its
// file, no larger than a record file may be. A larger one goes to its file, as without
// a batch (where it alone is found corrupt and set aside): in the batch it would have
// made the whole batch unreadable, every other run's final record with it.
func batched(w *deferredWrite) bool { return w.update && len(w.b) <= recordCap }

// flushFiles writes the newest write of each record to its temp file (a write
// superseded in the group is never written) and makes them durable, many fsyncs at
// once, then renames each into place; a section whose record could not be is failed.
func (r *Registry) flushFiles(g *groupWrites) {
	if len(g.writes) == 0 {
		return
	}
	errs := make([]error, len(g.writes))
	var batch []int // indexes of g.writes whose temp files are open, written, not yet synced
	files := make([]*os.File, len(g.writes))
	syncBatch := func() {
		var wg sync.WaitGroup
		for _, i := range batch {
			wg.Go(func() { // fsyncs in flight at once: the journal commits them together
				errs[i] = files[i].Sync()
				if cerr := files[i].Close(); errs[i] == nil {
					errs[i] = cerr
				}
			})
		}
		wg.Wait()
		batch = batch[:0]
	}
	for i, w := range g.writes {
		if g.latest[w.name] != w {
			continue // superseded in this group: never written
		}
		// Created and written one after another: creates in one directory take its
		// lock, and many at once spun on it (a thousand records' creates in parallel
		// cost seconds of CPU).
		files[i], errs[i] = r.writeTemp(w.tmp, w.b)
		if errs[i] == nil {
			batch = append(batch, i)
		}
		if len(batch) == flushBatch {
			syncBatch()
		}
	}
	syncBatch()
	var failed map[string]error // by file name: its newest write did not land
	defer func() {
		// Every section that wrote a record whose newest write failed is failed with
		// it: an earlier write superseded in the group landed no more than it did.
		for _, w := range g.writes {
			if err, ok := failed[w.name]; ok && w.section.err == nil {
				w.section.err = err
			}
		}
	}()
	for i, w := range g.writes {
		err := errs[i]
		if g.latest[w.name] != w {
			continue // never written
		}
		if err == nil {
			err = r.runs.Rename(w.tmp, r.runs, w.name)
		}
		if err != nil {
			r.runs.Remove(w.tmp)
			r.cache.forget(w.name)
			if failed == nil {
				failed = map[string]error{}
			}
			failed[w.name] = fmt.Errorf("registry write %s: %w", strings.TrimSuffix(w.name, ".json"), err)
			continue
		}
		if rec, err := w.record(); err == nil {
			r.keep(w.name, rec, w.b)
		} else {
			r.cache.forget(w.name)
		}
		r.dirty = true
	}
}

// groupRecord is the record in file name as the running group wrote it, or as this
// registry's batch holds it, if either does (r.mu held).
func (r *Registry) groupRecord(name string) (Record, bool, error) {
	if r.group != nil {
		if w, ok := r.group.latest[name]; ok {
			rec, err := w.record()
			return rec, true, err
		}
	}
	return r.ownRecord(name) // a record this registry's batch holds is newer than its file
}

// writeTemp creates the new file name of the runs directory and writes b to it; the
// file is returned open, for the caller to sync and close.
func (r *Registry) writeTemp(name string, b []byte) (*os.File, error) {
	r.runs.Remove(name)
	f, err := r.runs.Open(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return nil, err // the caller removes name
	}
	return f, nil
}

// flushBatch is how many temp files a group holds open and syncs at once. Each sync in
// flight holds a thread in the kernel, so it is bounded well below the thread budget a
// thousand runs keep (64 in all): 64 syncs at once took the server to 76 threads.
const flushBatch = 16
