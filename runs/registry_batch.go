package runs

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"strconv"
	"strings"

	"corral/runs/internal/statefile"
)

// A shutdown's final records, in one file.
//
// A shutdown of a thousand runs wrote a thousand record files, a new inode each
// (created, written, fsynced, renamed): most of its time. While a shutdown is under
// way (Registry.batchFinal), a group's updates of existing records go instead to one
// file, runs/final.batch, appended to and fsynced once per group. Every reader
// overlays it on the record files: a record the batch holds replaces its file's while
// the file is still the run's under the same lease (owner and epoch). Any locked
// section of the registry that may write a record (but a group adding to this
// registry's own batch) first folds the batch into the record files, each written as
// any record is (durable before it is renamed), and then removes it: whoever next
// writes or reconciles finds every record in its own file. The registry's open and
// List only read: they overlay the batch too.
//
// Crash safety: a segment is acknowledged (its writers return) only once it is
// fsynced, so every acknowledged record is in the batch or in its file. A segment
// torn by a crash is the last one and was never acknowledged: it is ignored, as a
// temp file is, and the batch is folded before anything is appended to it again. A
// fold cut short is done again (the batch goes only after every record is in its
// file). A batch that does not read (a segment before the last fails its checksum) is
// set aside to runs/corrupt/, never fatal: its runs' files say what they said before
// it, and a reconcile closes them. An entry of a whole segment that is no record is
// left out alone: the rest are folded, then the batch is set aside. A record larger
// than a record file may be never goes to the batch (its own file, as without one).
//
// The file: a header line, then segments; a segment is its records, each
// "r <file name> <length>\n" and the record's bytes as its file would hold them and
// "\n", closed by "e <records> <crc32 of the segment's bytes before this line>\n".

// batchName is the batch file in runs/ (not .json: a listing of records skips it).
const batchName = "final.batch"

const batchHeader = "corral-final-batch 1\n"

// batchCap bounds what is read of a batch (a thousand runs' final records are about
// 2 MB): one larger is not read, and is set aside.
const batchCap = 256 << 20

// batchEntry is one record of a batch: its file name, its bytes and what they say
// (decoded: rec is read; this registry's own entries are decoded when first asked,
// ownRecord).
type batchEntry struct {
	name    string
	b       []byte
	rec     Record
	decoded bool
}

// ownBatch is the batch this registry is appending to (under Registry.mu).
type ownBatch struct {
	stamp statefile.Stamp       // the file as this registry last left it
	recs  map[string]batchEntry // by file name: the newest record of each in it
}

var errCorruptBatch = errors.New("corrupt batch of records")

// encodeSegment is one segment holding ws.
func encodeSegment(ws []batchEntry) []byte {
	n := 64 // the closing line
	for _, w := range ws {
		n += len(w.name) + len(w.b) + 32
	}
	var buf bytes.Buffer
	buf.Grow(n) // once: a thousand final records grew it a dozen times
	for _, w := range ws {
		fmt.Fprintf(&buf, "r %s %d\n", w.name, len(w.b))
		buf.Write(w.b)
		buf.WriteByte('\n')
	}
	fmt.Fprintf(&buf, "e %d %08x\n", len(ws), crc32.ChecksumIEEE(buf.Bytes()))
	return buf.Bytes()
}

// parseBatch reads a batch: its entries, oldest first, from every whole segment. A
// last segment that is not whole (torn by a crash while it was written, or being
// written now) is ignored; anything else that does not read is errCorruptBatch. An
// entry of a segment whose checksum is good that is no record (larger than a record
// file may be, or not decoding) is left out alone, the rest kept, and named in
// skipped: the batch is whole, that record was written so (a thousand runs' final
// records were set aside for one record of 1.2 MB).
func parseBatch(b []byte) (es []batchEntry, skipped []string, err error) {
	if !bytes.HasPrefix(b, []byte(batchHeader)) {
		if len(b) < len(batchHeader) && bytes.HasPrefix([]byte(batchHeader), b) {
			return nil, nil, nil // torn as it was made
		}
		return nil, nil, fmt.Errorf("%w: no header", errCorruptBatch)
	}
	var out, seg []batchEntry
	rest := b[len(batchHeader):]
	start := rest
	for len(rest) > 0 {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return out, skipped, nil // a torn last line
		}
		line := string(rest[:nl])
		var name string
		var n int
		if _, err := fmt.Sscanf(line, "r %s %d", &name, &n); err == nil {
			body := rest[nl+1:]
			if n < 0 || n > batchCap {
				return nil, nil, fmt.Errorf("%w: record %q of %d bytes", errCorruptBatch, name, n)
			}
			if len(body) < n+1 {
				return out, skipped, nil // torn in a record
			}
			if body[n] != '\n' {
				return nil, nil, fmt.Errorf("%w: record %q not closed", errCorruptBatch, name)
			}
			seg = append(seg, batchEntry{name: name, b: body[:n:n]}) // decoded once its segment checks
			rest = body[n+1:]
			continue
		}
		var count int
		var sum uint32
		if _, err := fmt.Sscanf(line, "e %d %x", &count, &sum); err != nil {
			return nil, nil, fmt.Errorf("%w: line %q", errCorruptBatch, line)
		}
		segBytes := start[:len(start)-len(rest)]
		if count != len(seg) || crc32.ChecksumIEEE(segBytes) != sum {
			if len(rest) == nl+1 {
				return out, skipped, nil // the last segment does not check: torn, never acknowledged
			}
			return nil, nil, fmt.Errorf("%w: a segment fails its checksum", errCorruptBatch)
		}
		for _, e := range seg {
			if len(e.b) > recordCap {
				skipped = append(skipped, fmt.Sprintf("record %q of %d bytes", e.name, len(e.b)))
				continue
			}
			rec, err := decodeRecord(e.name, e.b)
			if err != nil {
				skipped = append(skipped, err.Error())
				continue
			}
			e.rec, e.decoded = rec, true
			out = append(out, e)
		}
		seg = nil
		rest = rest[nl+1:]
		start = rest
	}
	return out, skipped, nil
}

// newestOf is the newest entry of each file name in es.
func newestOf(es []batchEntry) map[string]batchEntry {
	m := make(map[string]batchEntry, len(es))
	for _, e := range es {
		m[e.name] = e
	}
	return m
}

// overlays says whether batch entry e replaces rec, the record its file holds: the
// same run under the same lease (a record stolen or closed by a Corral that knows no
// batch is not written over).
func overlays(e batchEntry, rec Record) bool {
	return e.rec.ID == rec.ID && e.rec.OwnerInstanceID == rec.OwnerInstanceID && e.rec.LeaseEpoch == rec.LeaseEpoch
}

// readBatch is the batch in d, newest record of each file, for a reader without the
// registry lock: none when there is none, or it does not read (the next locked
// section sets it aside).
func readBatch(d *statefile.Dir) map[string]batchEntry {
	b, err := d.Read(batchName, batchCap)
	if err != nil {
		return nil
	}
	es, _, err := parseBatch(b)
	if err != nil {
		return nil
	}
	return newestOf(es)
}

// overlayBatch replaces each of recs its batch holds a newer version of.
func overlayBatch(recs []Record, batch map[string]batchEntry) {
	if len(batch) == 0 {
		return
	}
	for i, rec := range recs {
		if e, ok := batch[rec.ID+".json"]; ok && overlays(e, rec) {
			recs[i] = e.rec
		}
	}
}

// BatchFinal has a shutdown's record updates written to the batch (on) or to their
// files (off).
func (r *Registry) batchFinal(on bool) { r.batching.Store(on) }

// ownRecord is the record file name holds in this registry's own batch, if it does
// (r.mu held).
func (r *Registry) ownRecord(name string) (Record, bool, error) {
	if r.batch == nil {
		return Record{}, false, nil
	}
	e, ok := r.batch.recs[name]
	if ok && !e.decoded {
		rec, err := decodeRecord(name, e.b)
		if err != nil {
			return Record{}, true, err
		}
		e.rec, e.decoded = rec, true
		r.batch.recs[name] = e
	}
	return e.rec, ok, nil
}

// foldBatch folds a batch left in runs/ into the record files, then removes it (the
// registry lock and r.mu held). keepOwn leaves this registry's own batch, as it left
// it, to be appended to. A batch that does not read is set aside.
func (r *Registry) foldBatch(keepOwn bool) error {
	st, err := r.runs.Stamp(batchName)
	if errors.Is(err, os.ErrNotExist) {
		r.batch = nil
		return nil
	}
	if err != nil {
		return fmt.Errorf("registry batch: %w", err)
	}
	if keepOwn && r.batch != nil && r.batch.stamp == st {
		return nil
	}
	r.batch = nil
	b, err := r.runs.Read(batchName, batchCap)
	if err != nil && !errors.Is(err, statefile.ErrTooLarge) && !errors.Is(err, statefile.ErrNotRegular) {
		return fmt.Errorf("registry batch: %w", err)
	}
	var es []batchEntry
	var skipped []string
	if err == nil {
		es, skipped, err = parseBatch(b)
	}
	if err != nil {
		r.setAside(batchName, err)
		return nil
	}
	if len(es) > 0 {
		last := make(map[string]int, len(es))
		for i, e := range es {
			last[e.name] = i
		}
		g := &groupWrites{latest: map[string]*deferredWrite{}}
		for i, e := range es {
			if last[e.name] != i {
				continue // a newer one follows
			}
			cur, err := r.runs.Read(e.name, recordCap)
			if err != nil || bytes.Equal(cur, e.b) {
				continue // gone or unreadable (the sweep judges it), or folded before
			}
			if rec, err := decodeRecord(e.name, cur); err != nil || !overlays(e, rec) {
				continue // no longer the lease the batch wrote under
			}
			g.seq++
			w := &deferredWrite{name: e.name, tmp: e.name + "." + r.instance + "." + strconv.Itoa(g.seq) + ".tmp",
				b: e.b, rec: e.rec, decoded: true, section: &groupSection{}}
			g.writes = append(g.writes, w)
			g.latest[e.name] = w
		}
		r.flushFiles(g)
		for _, w := range g.writes {
			if w.section.err != nil {
				return w.section.err // the batch stays: folded again by the next locked section
			}
		}
		if r.dirty {
			if err := r.runs.Sync(); err != nil {
				return fmt.Errorf("registry batch: %w", err)
			}
			r.dirty = false
		}
	}
	if len(skipped) > 0 {
		// Its records folded but those that are none: the batch is set aside, not
		// removed, with what they were.
		r.setAside(batchName, fmt.Errorf("%w: %s left out", errCorruptBatch, strings.Join(skipped, "; ")))
		r.dirty = true
		return nil
	}
	if err := r.runs.Remove(batchName); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("registry batch: %w", err)
	}
	r.dirty = true
	return nil
}

// appendBatch appends one segment holding ws to this registry's batch, made if there
// is none, and makes it durable (the registry lock and r.mu held; foldBatch(true) ran
// in this locked section).
func (r *Registry) appendBatch(ws []*deferredWrite) error {
	es := make([]batchEntry, len(ws))
	for i, w := range ws {
		es[i] = batchEntry{name: w.name, b: w.b, rec: w.rec, decoded: w.decoded}
	}
	seg := encodeSegment(es)
	flag := os.O_WRONLY | os.O_APPEND
	if r.batch == nil {
		flag = os.O_WRONLY | os.O_CREATE | os.O_EXCL
		seg = append([]byte(batchHeader), seg...)
	}
	if r.batchFault != nil {
		if err := r.batchFault(); err != nil {
			r.batch = nil
			return err
		}
	}
	f, err := r.runs.Open(batchName, flag, 0o600)
	if err != nil {
		r.batch = nil // the next fold reads what the file holds
		return err
	}
	_, err = f.Write(seg)
	if err == nil {
		err = f.Sync()
	}
	var st statefile.Stamp
	if err == nil {
		st, err = statefile.StampOf(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		// What was appended may be torn: the next section folds what reads of it.
		r.batch = nil
		return err
	}
	if r.batch == nil {
		r.batch = &ownBatch{recs: map[string]batchEntry{}}
		r.dirty = true // its name is made durable with the directory
	}
	r.batch.stamp = st
	for _, e := range es {
		r.batch.recs[e.name] = e
	}
	return nil
}
