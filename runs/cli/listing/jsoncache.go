package listing

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"sync"

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
// the entry's closing "\n    }"; gen is the last listing that had it.
type recordJSON struct {
	rec  runs.Record
	head []byte
	gen  uint64
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
	for k := range rs {
		r := &rs[k] // not a copy: one compared by its address would be a run's copy to collect
		e := c.by[r.ID]
		if e == nil || !reflect.DeepEqual(&e.rec, &r.Record) { // pointers: two records boxed were 2 KB a run
			head, err := recordHead(r.Record)
			if err != nil {
				return nil, err
			}
			e = &recordJSON{rec: r.Record, head: head}
			c.by[r.ID] = e
		}
		e.gen = c.gen
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		b.Write(e.head)
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

// recordHead is rec's entry in the runs array, indented, without its closing brace
// and the line it is on.
func recordHead(rec runs.Record) ([]byte, error) {
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
	return head, nil
}

var errNotObject = errors.New("a record did not encode as an object with fields")
