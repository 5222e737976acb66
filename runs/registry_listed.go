package runs

import (
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"corral/runs/internal/statefile"
)

// listedDir is what the last listing of the runs directory found there, for
// ListCached to list again without reading the directory or stating the records this
// registry holds while the directory has not changed: at a thousand runs the
// directory's read and the stats of the records were a fifth of a server's ls. Every
// record is replaced by a rename into the directory, which gives the directory a new
// change time, and so do a record made, removed or set aside, and the temp file a
// write starts with. A record of another owner is still stated each time, so one
// written in place is listed as written; this registry's own records are written by
// it alone (every writer of them holds the registry lock and renames).
//
// As for a record (recordCache), a directory's stamp alone can match two versions
// made within a tick of a coarse clock, so it is used only if it was read well after
// the directory last changed (namesRacyAge), never on a file system whose stamps are
// whole seconds (the margin would not cover their tick), and for listedFor at most:
// a clock stepped back, a file server's behind ours or what no one has thought of
// leaves a listing stale that long at worst.
type listedDir struct {
	mu    sync.Mutex
	stamp statefile.Stamp // the directory's, read before its names
	seen  int64           // when the stamp was read (UnixNano)
	read  time.Time       // the same, on the monotonic clock
	names []string        // nil: none kept
}

// namesRacyAge is how long after the directory's last change its stamp must have
// been read to be trusted: stamps finer than a second come from the kernel's coarse
// clock, which moves every few milliseconds (10 at the slowest tick), so a change made
// later than this has a stamp of its own. Shorter than a record's racyAge (made for
// any file system, whole-second ones too): a server's ls right after runs were
// spawned lists from memory too.
const namesRacyAge = 100 * time.Millisecond

// listedFor is how long kept names are listed again at most before the directory is
// read anew.
const listedFor = 10 * time.Second

// keep keeps the names read after the directory was at stamp st, read at seen; a
// directory with a batch of final records is not kept (the batch is read each time).
func (l *listedDir) keep(st statefile.Stamp, seen time.Time, names []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if slices.Contains(names, batchName) {
		names = nil
	}
	l.stamp, l.seen, l.read, l.names = st, seen.UnixNano(), seen, names
}

// unchanged is the names kept if the directory is still as they were read.
func (l *listedDir) unchanged(now statefile.Stamp) ([]string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ok := l.names != nil && l.stamp == now && l.seen-l.stamp.Changed() >= int64(namesRacyAge) &&
		l.stamp.Changed()%int64(time.Second) != 0 && time.Since(l.read) < listedFor
	return l.names, ok
}

// listCached is ListCached: from the names kept while the directory has not changed,
// else from the directory.
func (r *Registry) listCached(bad func(name string, err error)) ([]Record, error) {
	seen := time.Now()
	st, verr := r.runs.Version()
	if verr == nil {
		if names, ok := r.listed.unchanged(st); ok {
			return r.listNames(names, r.readHeld, bad, false), nil
		}
	}
	names, err := r.runs.Names()
	if err != nil {
		return nil, err
	}
	recs := r.listNames(names, r.readKept, bad, true)
	if verr == nil {
		r.listed.keep(st, seen, names)
	}
	return recs, nil
}

// readHeld is readKept for a directory unchanged since its last listing: a record of
// this registry's own as kept, without a stat (no other process renamed a file in,
// and none writes it in place); another owner's as readKept reads it.
func (r *Registry) readHeld(name string) (Record, error) {
	if rec, ok := r.cache.owned(name, r.instance); ok {
		return rec, nil
	}
	return r.readKept(name)
}

// listNames is every record of names that read gives, oldest first; one that cannot
// be read (but for one removed meanwhile) goes to bad, and is not listed. With
// overlay, a batch of final records among names is overlaid.
func (r *Registry) listNames(names []string, read func(name string) (Record, error), bad func(name string, err error),
	overlay bool) []Record {
	var batch map[string]batchEntry
	if overlay && slices.Contains(names, batchName) {
		// Read before the files: a fold writes the files, then removes the batch, so
		// a record read after the batch is its file's version or a newer one.
		batch = readBatch(r.runs)
	}
	recs := make([]Record, 0, len(names))
	for _, name := range names {
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		rec, err := read(name)
		if errors.Is(err, os.ErrNotExist) {
			continue // removed meanwhile
		}
		if err != nil {
			bad(name, err)
			continue
		}
		recs = append(recs, rec)
	}
	overlayBatch(recs, batch) // a shutdown's final records not yet folded into their files
	sortByCreation(recs)
	return recs
}
