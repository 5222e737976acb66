package runs

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"sync"
	"time"

	"corral/runs/internal/statefile"
)

// recordCache is what lets the server answer corral ls without reading its runs'
// record files: at a thousand runs the client that read them made 6,021 opens, 1,006
// flocks and 14,009 reads per call. Every record this registry wrote or read is kept
// with its file's stamp, and is used again while the file has that stamp: a record is
// replaced by a rename, so another version has another inode, size or time.
// A listing still reads the directory and stats each file, so a record another
// process added, changed or removed is listed as the files list it, but for this
// registry's own records while the directory is unchanged (listedDir).
//
// A stamp alone can match two versions: ext4 gives a rename's freed inode to the next
// file made, and a kernel with coarse timestamps (one tick, 1-10 ms) gives two writes
// within a tick one time, so two rewrites of one length within a tick read as one
// version. A record is therefore used again only if its stamp was seen well after
// the version was made (racyAge): any later version was made after that, at a later
// time. Nothing that fences a write reads it (updateIn reads the file).
type recordCache struct {
	mu   sync.Mutex
	kept map[string]keptRecord // by file name
	gens map[string]uint64     // by file name: bumped by every keep and forget
}

type keptRecord struct {
	rec   Record
	b     []byte // the file's bytes rec was decoded from: a fence's read compares them
	stamp statefile.Stamp
	seen  int64 // when the stamp was read (UnixNano)
}

// racyAge: a version whose stamp was read less than this after it was made may share
// its stamp with a version made later within the same tick of a coarse clock. Wide
// enough for any filesystem's timestamp granularity and the coarse clock's lag.
const racyAge = 2 * time.Second

// trusted says whether a record seen at stamp st is known to be that version of
// its file for as long as the file has that stamp.
func (k keptRecord) trusted() bool { return k.seen-k.stamp.Changed() >= int64(racyAge) }

// gen is name's generation: a reader that read its file without the registry lock
// takes it before, and keeps what it read only if no keep or forget came since.
func (c *recordCache) gen(name string) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gens[name]
}

// put keeps rec as the content of its file at stamp st, read at seen, by a writer
// of the file under the registry lock.
func (c *recordCache) put(name string, rec Record, b []byte, st statefile.Stamp, seen time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(name, rec, b, st, seen)
}

func (c *recordCache) putLocked(name string, rec Record, b []byte, st statefile.Stamp, seen time.Time) {
	if c.kept == nil {
		c.kept, c.gens = map[string]keptRecord{}, map[string]uint64{}
	}
	c.kept[name] = keptRecord{rec, b, st, seen.UnixNano()}
	c.gens[name]++
}

// same is name's record as kept if b, the file's content as just read, is the very
// bytes it was decoded from: what the file holds, without decoding it again.
func (c *recordCache) same(name string, b []byte) (Record, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.kept[name]
	return k.rec, ok && k.b != nil && bytes.Equal(k.b, b)
}

// putIf is put for a reader without the lock: only if name's generation is still
// gen, so a version it read is never kept over a newer one a writer kept meanwhile.
func (c *recordCache) putIf(name string, rec Record, b []byte, st statefile.Stamp, seen time.Time, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gens[name] == gen {
		c.putLocked(name, rec, b, st, seen)
	}
}

// owned is name's record as kept if it is instance's: a record its registry wrote or
// read last.
func (c *recordCache) owned(name, instance string) (Record, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.kept[name]
	return k.rec, ok && instance != "" && k.rec.OwnerInstanceID == instance
}

// forget drops what is kept of the file name (removed, set aside, or a write of it
// failed half way).
func (c *recordCache) forget(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.kept, name)
	if c.gens != nil {
		c.gens[name]++
	}
}

// get is name's record as kept, if its file is still at stamp st and the record is
// known to be that version.
func (c *recordCache) get(name string, st statefile.Stamp) (Record, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.kept[name]
	return k.rec, ok && k.stamp == st && k.trusted()
}

// wrote keeps the record just renamed into name (decoded from the bytes written, so
// that nothing the writer holds is shared with the cache).
func (r *Registry) wrote(name string, b []byte) {
	rec, ok := kept(b)
	if !ok {
		r.cache.forget(name)
		return
	}
	r.keep(name, rec, b)
}

// keep keeps rec, decoded from b, as the content of the file name, at the stamp it
// has now (the caller holds the registry lock: no one else writes the file).
func (r *Registry) keep(name string, rec Record, b []byte) {
	seen := time.Now()
	st, err := r.runs.Stamp(name)
	if err != nil {
		r.cache.forget(name)
		return
	}
	r.cache.put(name, rec, b, st, seen)
}

// setAsideIfCorrupt sets the record file name aside if it is corrupt or too large when
// read again (the caller holds the registry lock): ListCached reads without the lock,
// so what it could not read may have been replaced since by a good record, or have
// failed for a reason of the moment (out of descriptors, an I/O error), which is no
// reason to take a run's record from its owner and from every reconcile.
func (r *Registry) setAsideIfCorrupt(name string) {
	_, err := readRecord(r.runs, name)
	if errors.Is(err, ErrCorruptRecord) || errors.Is(err, ErrTooLarge) {
		r.setAside(name, err)
	}
}

// readKept is the record in file name: as kept when the file has not changed since,
// else read (and kept). Only for a caller that replaces what it is given whole or
// reads it: its slices are the cache's. It takes no lock.
func (r *Registry) readKept(name string) (Record, error) {
	gen := r.cache.gen(name)
	st, err := r.runs.Stamp(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			r.cache.forget(name) // removed, by this process or another: nothing to keep
		}
		return Record{}, err
	}
	if rec, ok := r.cache.get(name, st); ok {
		return rec, nil
	}
	seen := time.Now()
	b, st, err := r.runs.ReadStamped(name, recordCap)
	if err != nil {
		return Record{}, err
	}
	rec, err := decodeRecord(name, b)
	if err == nil {
		r.cache.putIf(name, rec, b, st, seen, gen)
	}
	return rec, err
}

// readFresh is the record in file name as read now (the caller holds the registry
// lock), kept for the listings: what a write's fence is checked against. The file
// is read every time; it is decoded only if its bytes are not those of the record
// kept (a thousand runs' final writes decoded a thousand records they had written).
func (r *Registry) readFresh(name string) (Record, error) {
	seen := time.Now()
	b, st, err := r.runs.ReadStamped(name, recordCap)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			r.cache.forget(name)
		}
		return Record{}, err
	}
	rec, ok := r.cache.same(name, b)
	if !ok {
		if rec, err = decodeRecord(name, b); err != nil {
			return rec, err
		}
	}
	r.cache.put(name, rec, b, st, seen)
	return rec, nil
}

// ListCached is List as the records are now, without reading a record that has not
// changed since this registry wrote or read it: one read of the directory and one
// stat of each record. No lock is taken: a record is replaced by a rename, so a file
// is read whole, old or new. The records share their slices with the cache: read
// only. (A record is kept as written only under the registry lock, which a writer of
// another process needs too: its stamp is the file this registry wrote.)
func (r *Registry) ListCached() ([]Record, error) {
	return r.listCached(func(name string, _ error) {
		r.withLock(func() error { r.setAsideIfCorrupt(name); return nil })
	})
}

// kept is rec as the cache keeps it: decoded from the bytes written, so that nothing
// the caller holds (a slice, a pointer) is shared with it.
func kept(b []byte) (Record, bool) {
	var rec Record
	return rec, json.Unmarshal(b, &rec) == nil
}

// OwnerLease is until when instance id's own lease holds (zero: none to be read): what
// LeaseExpiry adds to a record of that owner. A listing reads it once per owner, not
// once per record.
func (r *Registry) OwnerLease(id string) time.Time { return r.instanceLease(id) }

// HeldRecords is ListCached with this supervisor's own records that are still being
// written behind (a run's start in its cgroup, an agent's state) as they are about to
// land: corral ls answered right after Spawn returned says running, as Info does,
// where the file says starting until its write lands, which a loaded machine can
// hold up for seconds.
func (s *Supervisor) HeldRecords() ([]Record, error) {
	recs, err := s.reg.ListCached()
	if err != nil {
		return nil, err
	}
	type pending struct {
		rec   Record
		epoch uint64
	}
	ahead := map[string]pending{}
	for _, r := range s.liveRuns() {
		r.mu.Lock()
		if p := r.wb.pending; p != nil && r.epoch > 0 {
			ahead[r.id] = pending{*p, r.epoch}
		}
		r.mu.Unlock()
	}
	if len(ahead) == 0 {
		return recs, nil
	}
	now := s.reg.now()
	for i, rec := range recs {
		// As the fenced update will land it: only over the file it holds, keeping the
		// file's owner and lease, stamped now.
		p, ok := ahead[rec.ID]
		if !ok || rec.OwnerInstanceID != s.reg.instance || rec.LeaseEpoch != p.epoch {
			continue
		}
		p.rec.OwnerInstanceID, p.rec.LeaseEpoch, p.rec.LeaseExpiresAt = rec.OwnerInstanceID, rec.LeaseEpoch, rec.LeaseExpiresAt
		p.rec.StateDir, p.rec.UpdatedAt = rec.StateDir, now
		recs[i] = p.rec
	}
	return recs, nil
}
