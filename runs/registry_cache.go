package runs

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// recordCache is what lets the server answer corral ls without reading a record file
// of its own runs: at a thousand runs the client that read them made 6,021 opens,
// 1,006 flocks and 14,009 reads per call. A record of this instance is on disk as
// this instance last wrote it (no other process writes a live instance's records: a
// reconcile takes only a dead owner's), so it is kept here as written. Any other
// record is kept as last read, with its file's stamp: read again only when its file
// changed. Each listing still reads the directory, so a record another process added
// or removed is listed as the files list it.
type recordCache struct {
	mu   sync.Mutex
	own  map[string]Record     // by file name: this instance's, as written
	seen map[string]seenRecord // by file name: another owner's, as last read
}

type seenRecord struct {
	rec   Record
	stamp fileStamp
}

// fileStamp tells one version of a file from another: a record is replaced by a
// rename, so a rewrite is a new inode, a new change time, or both.
type fileStamp struct {
	ino, size      int64
	mtime, ctimeNS int64
}

// wrote notes that rec is now the content of its file. A record this instance does
// not own (none today) is forgotten, to be read again.
func (c *recordCache) wrote(instance string, rec Record) {
	name := rec.RunID + ".json"
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.seen, name)
	if rec.OwnerInstanceID != instance {
		delete(c.own, name)
		return
	}
	if c.own == nil {
		c.own = map[string]Record{}
	}
	c.own[name] = rec
}

// forget drops what is kept of the file name (removed, or set aside).
func (c *recordCache) forget(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.own, name)
	delete(c.seen, name)
}

// cached is name's record as kept, when its file is still that version.
func (c *recordCache) cached(name string, stamp func() (fileStamp, error)) (Record, fileStamp, bool, error) {
	c.mu.Lock()
	rec, ok := c.own[name]
	s, seen := c.seen[name]
	c.mu.Unlock()
	if ok {
		return rec, fileStamp{}, true, nil
	}
	st, err := stamp()
	if err != nil {
		return Record{}, st, false, err
	}
	return s.rec, st, seen && s.stamp == st, nil
}

func (c *recordCache) read(name string, rec Record, st fileStamp) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.own[name]; ok {
		return // written meanwhile by this instance: that is newer
	}
	if c.seen == nil {
		c.seen = map[string]seenRecord{}
	}
	c.seen[name] = seenRecord{rec, st}
}

// ListCached is List as the records are now, without reading this instance's
// records or another's that has not changed since it was last read: one read of the
// directory and one stat of each other owner's record. No lock is taken: a record
// is replaced by a rename, so a file is read whole, old or new.
func (r *Registry) ListCached() ([]Record, error) {
	names, err := r.runs.names()
	if err != nil {
		return nil, err
	}
	recs := make([]Record, 0, len(names))
	for _, name := range names {
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		rec, st, ok, err := r.cache.cached(name, func() (fileStamp, error) { return r.runs.stamp(name) })
		if !ok && err == nil {
			if rec, err = readRecord(r.runs, name); err == nil {
				r.cache.read(name, rec, st)
			}
		}
		if errors.Is(err, os.ErrNotExist) {
			continue // removed meanwhile
		}
		if err != nil {
			if errors.Is(err, ErrCorruptRecord) {
				r.withLock(func() error { r.setAside(name, err); return nil })
			}
			continue
		}
		recs = append(recs, rec)
	}
	slices.SortFunc(recs, func(a, b Record) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return recs, nil
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
