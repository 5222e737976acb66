package listing

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"corral/runs"
)

// JSONCache writes corral ls --json as WriteJSON does, byte for byte, from each
// run's record as it was encoded the last time it was listed unless it changed
// since: a server answering ls at a thousand idle runs spent a third of its time
// encoding and indenting the same records again (20 ms a call). A record is the bulk
// of a run's entry; what a listing adds to it (owner_alive, cpu_ms, memory_bytes,
// lease_note) is written each time. It keeps one entry per run of the last listing.
type JSONCache struct {
	mu   sync.Mutex
	by   map[string]*recordJSON // kept from listing to listing: a new map of a thousand records each call was a megabyte to collect
	gen  uint64                 // the listings made: an entry no listing of this one had goes
	size int                    // the last document's length: the next one's buffer
}

// recordJSON is a record and its entry's JSON, indented as in the document, without
// the entry's closing "\n    }"; gen is the last listing that had it. The entry's
// lease_expires_at is written each time between head and tail (split): every record
// of an owner takes the owner's lease, renewed every two seconds, and each renewal
// made every entry new.
type recordJSON struct {
	rec        runs.Record
	head, tail []byte
	split      bool // the lease's value is left out, between head and tail; else tail is empty
	gen        uint64
}

// WriteJSON writes rs and the registry's counters as WriteJSON does.
func (c *JSONCache) WriteJSON(w io.Writer, rs []Run, totals runs.Metrics) error {
	b, err := c.Document(rs, totals)
	if err == nil {
		_, err = w.Write(b)
	}
	return err
}

// Document is what WriteJSON writes.
func (c *JSONCache) Document(rs []Run, totals runs.Metrics) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b bytes.Buffer
	b.Grow(c.size)
	b.WriteString("{\n  \"runs\": ")
	if rs == nil {
		b.WriteString("null") // as the encoder writes a nil slice; the listings make none
	} else {
		b.WriteByte('[')
	}
	if c.by == nil {
		c.by = map[string]*recordJSON{}
	}
	c.gen++
	var lease time.Time // the last lease written, as leaseJSON: an owner's runs share one
	var leaseJSON []byte
	for k := range rs {
		r := &rs[k] // not a copy: one compared by its address would be a run's copy to collect
		e := c.by[r.ID]
		if e == nil || !e.same(&r.Record) {
			var err error
			if e, err = newRecordJSON(r.Record); err != nil {
				return nil, err
			}
			c.by[r.ID] = e
		}
		e.gen = c.gen
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		b.Write(e.head)
		if e.split {
			if r.LeaseExpiresAt != lease || leaseJSON == nil { // the same bits: the same text
				var err error
				if leaseJSON, err = r.LeaseExpiresAt.MarshalJSON(); err != nil {
					return nil, err
				}
				lease = r.LeaseExpiresAt
			}
			b.Write(leaseJSON)
			b.Write(e.tail)
		}
		b.WriteString(",\n      \"owner_alive\": ")
		b.WriteString(strconv.FormatBool(r.OwnerAlive))
		if r.CPUMS != nil {
			b.WriteString(",\n      \"cpu_ms\": ")
			b.WriteString(strconv.FormatInt(*r.CPUMS, 10))
		}
		if r.Memory != nil {
			b.WriteString(",\n      \"memory_bytes\": ")
			b.WriteString(strconv.FormatInt(*r.Memory, 10))
		}
		if r.LeaseNote != "" {
			note, err := json.Marshal(r.LeaseNote) // escaped as the encoder escapes it
			if err != nil {
				return nil, err
			}
			b.WriteString(",\n      \"lease_note\": ")
			b.Write(note)
		}
		b.WriteString("\n    }")
	}
	for id, e := range c.by {
		if e.gen != c.gen {
			delete(c.by, id)
		}
	}
	if len(rs) > 0 {
		b.WriteString("\n  ")
	}
	if rs != nil {
		b.WriteByte(']')
	}
	b.WriteString(",\n  \"metrics\": ")
	m, err := json.Marshal(totals)
	if err != nil {
		return nil, err
	}
	if err := json.Indent(&b, m, "  ", "  "); err != nil {
		return nil, err
	}
	b.WriteString("\n}\n")
	c.size = b.Len()
	return b.Bytes(), nil
}

// newRecordJSON is rec's entry in the runs array, indented, without its closing
// brace and the line it is on, split around its lease's value.
func newRecordJSON(rec runs.Record) (*recordJSON, error) {
	raw, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "    ", "  "); err != nil {
		return nil, err
	}
	head, ok := bytes.CutSuffix(b.Bytes(), []byte("\n    }"))
	if !ok {
		return nil, errNotObject
	}
	e := &recordJSON{rec: rec, head: head}
	// The key at the record's own depth: a nested object's keys are indented deeper,
	// and a string holds no raw newline. The value is a quoted time, without quotes
	// inside.
	if i := bytes.Index(head, leaseKey); i >= 0 {
		v := i + len(leaseKey)
		if n := bytes.IndexByte(head[v+1:], '"'); head[v] == '"' && n >= 0 {
			e.head, e.tail, e.split = head[:v], head[v+n+2:], true
		}
	}
	return e, nil
}

var leaseKey = []byte("\n      \"lease_expires_at\": ")

// same says whether rec encodes as e's entry does, its lease aside when e writes it
// each time. A record listed again unchanged is a copy of the one kept, bit for bit:
// its strings and slices are the registry's, read only, so comparing its bytes
// suffices and takes no reflection (reflect.DeepEqual of a thousand records was a
// twelfth of a server's ls). Otherwise, as a record decoded anew, it is compared
// field by field.
func (e *recordJSON) same(rec *runs.Record) bool {
	a, b := recordBytes(&e.rec), recordBytes(rec)
	if e.split {
		at, size := unsafe.Offsetof(rec.LeaseExpiresAt), unsafe.Sizeof(rec.LeaseExpiresAt)
		if bytes.Equal(a[:at], b[:at]) && bytes.Equal(a[at+size:], b[at+size:]) {
			return true
		}
		other := *rec
		other.LeaseExpiresAt = e.rec.LeaseExpiresAt
		return reflect.DeepEqual(&e.rec, &other)
	}
	return bytes.Equal(a, b) || reflect.DeepEqual(&e.rec, rec) // pointers: two records boxed were 2 KB a run
}

// recordBytes is the memory rec is made of: equal for two records whose fields hold
// the same values and point to the same strings, slices and maps (padding aside,
// which at worst makes two equal records compare unequal).
func recordBytes(rec *runs.Record) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(rec)), unsafe.Sizeof(*rec))
}

var errNotObject = errors.New("a record did not encode as an object with fields")
