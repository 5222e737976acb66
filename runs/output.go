package runs

import (
	"fmt"
	"sync"
	"unicode/utf8"

	"corral/ptyhost"
)

// Chunk is a piece of output from one stream.
type Chunk struct {
	Stream ptyhost.Stream `json:"stream"`
	Data   []byte         `json:"data"`
}

// Output is a view of a run's captured output: the chunks in order, and how many bytes
// before them were dropped by the cap (Dropped > 0 means the view is truncated).
type Output struct {
	Chunks  []Chunk `json:"chunks"`
	Dropped int64   `json:"dropped"` // bytes dropped from the front by the cap
	Total   int64   `json:"total"`   // bytes ever captured
}

// Bytes joins the chunks, preceded by a truncation marker when bytes were dropped.
func (o Output) Bytes() []byte {
	var b []byte
	if o.Dropped > 0 {
		b = fmt.Appendf(b, "[corral: %d earlier bytes truncated]\n", o.Dropped)
	}
	for _, c := range o.Chunks {
		b = append(b, c.Data...)
	}
	return b
}

// mark records where the stream changes; offsets are absolute (bytes ever captured).
type mark struct {
	at     int64
	stream ptyhost.Stream
}

// outputLog is a run's capped in-memory log. It stores raw bytes, never decoded, so a
// UTF-8 or escape sequence split across reads is kept byte for byte. It lets data grow
// to twice the cap before compacting, so dropping the oldest bytes costs O(1) amortized
// per byte rather than a copy of the whole log per read.
type outputLog struct {
	mu     sync.Mutex
	limit  int
	data   []byte // data[0] is absolute offset start
	start  int64
	marks  []mark // stream switches; marks[0].at <= start once anything was written
	unread int64  // absolute offset of the first byte not yet polled
}

func newOutputLog(limit int) *outputLog { return &outputLog{limit: limit} }

func (l *outputLog) write(s ptyhost.Stream, p []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	end := l.start + int64(len(l.data))
	if n := len(l.marks); n == 0 || l.marks[n-1].stream != s {
		l.marks = append(l.marks, mark{at: end, stream: s})
	}
	l.data = append(l.data, p...)
	if len(l.data) > 2*l.limit {
		l.compact()
	}
}

// compact keeps the newest limit bytes, starting at a UTF-8 boundary.
func (l *outputLog) compact() {
	cut := runeStartAfter(l.data, int64(len(l.data)-l.limit))
	// In place: the buffer keeps its capacity, so a long flood appends into memory it
	// already has instead of growing a new slice after every compaction (growslice
	// was a sixth of the reader's CPU in a 100 MB flood). view copies what it returns,
	// so nothing else points into data.
	l.data = l.data[:copy(l.data, l.data[cut:])]
	l.start += cut
	// Keep the last mark at or before start; drop older ones.
	i := 0
	for i+1 < len(l.marks) && l.marks[i+1].at <= l.start {
		i++
	}
	l.marks = append(l.marks[:0:0], l.marks[i:]...)
}

// runeStartAfter moves i forward to the start of a UTF-8 sequence, by at most
// utf8.UTFMax-1 bytes: binary output has no boundaries to find.
func runeStartAfter(b []byte, i int64) int64 {
	for n := 0; i < int64(len(b)) && n < utf8.UTFMax-1 && !utf8.RuneStart(b[i]); n++ {
		i++
	}
	return i
}

// view returns the output from absolute offset from (clamped to the capped window: the
// newest limit bytes) to the end.
func (l *outputLog) view(from int64) Output {
	end := l.start + int64(len(l.data))
	lo := max(from, l.start, end-int64(l.limit))
	if lo > from {
		// The cap cut the view: start it at a rune boundary. (When nothing was cut, a
		// poll may begin inside a character whose first bytes the last poll returned.)
		lo = runeStartAfter(l.data, lo-l.start) + l.start
	}
	out := Output{Total: end}
	if from < lo {
		out.Dropped = lo - from
	}
	for i, m := range l.marks {
		next := end
		if i+1 < len(l.marks) {
			next = l.marks[i+1].at
		}
		a, b := max(m.at, lo), next
		if a >= b {
			continue
		}
		c := make([]byte, b-a)
		copy(c, l.data[a-l.start:b-l.start])
		out.Chunks = append(out.Chunks, Chunk{Stream: m.stream, Data: c})
	}
	return out
}

// total is how many bytes were ever captured.
func (l *outputLog) total() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.start + int64(len(l.data))
}

// all is the whole capped log.
func (l *outputLog) all() Output {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.view(0)
}

// poll returns what arrived since the last poll and moves the cursor.
func (l *outputLog) poll() Output {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.view(l.unread)
	l.unread = out.Total
	return out
}

// tail returns the last n bytes (fewer at a UTF-8 boundary), without a marker.
func (l *outputLog) tail(n int) []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	end := l.start + int64(len(l.data))
	from := max(end-int64(n), l.start)
	from = runeStartAfter(l.data, from-l.start) + l.start // a tail is an arbitrary cut
	out := l.view(from)
	out.Dropped = 0
	return out.Bytes()
}
