package statefile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// castDelay is the most a recording's buffer is held.
const castDelay = 200 * time.Millisecond

// Cast records a PTY run as an asciicast v2 file (a JSON header line, then one
// [seconds, "o"|"r", data] line per output chunk or resize), so any run can be replayed
// with standard tools or `corral replay`. JSON strings must be valid UTF-8, so an
// incomplete sequence at the end of a read is held back for the next one rather than
// turned into U+FFFD. It is capped like the transcript.
//
// Output runs on the run's reader for every read, so it allocates nothing: the held
// tail, the joined data and the event line live in buffers reused from read to read,
// and the JSON string is escaped straight into the line (appendJSONString). With
// json.Marshal and the string conversions it was half of the reader's CPU in a 100 MB
// flood (ui BenchmarkFlood).
//
// The buffer goes to the file castDelay after its first byte, not only when full:
// `corral replay RUN` of a live run read an empty file, and a crash lost up to the
// buffer's 32 KiB (review). The buffer is held only while it has bytes: taken from
// castWriters by the first line after a flush and given back by the flush, so an
// idle run's recording holds none.
type Cast struct {
	mu     sync.Mutex
	f      *os.File
	w      *bufio.Writer // nil while nothing waits for the file
	start  time.Time
	held   []byte // incomplete UTF-8 tail of the last output
	data   []byte // held + the new output, reused
	ev     []byte // the event line being built, reused
	left   int64
	capped bool
	err    error
	timer  *time.Timer // flushes the buffer castDelay after its first byte
	armed  bool
	closed bool
}

// CastHeader is the asciicast v2 header.
type CastHeader struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp"`
	Title     string            `json:"title,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

// CreateCast begins the recording name in dir: its header (the terminal's size, the
// run's title and TERM, the time now), capped at limit bytes.
func CreateCast(dir *Dir, name string, cols, rows uint16, title, term string, limit int64, now time.Time) (*Cast, error) {
	f, err := dir.Open(name, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cast: %w", err)
	}
	c := &Cast{f: f, start: now, left: limit}
	c.timer = time.AfterFunc(time.Hour, c.flushLater)
	c.timer.Stop()
	h := CastHeader{Version: 2, Width: int(cols), Height: int(rows), Timestamp: now.Unix(),
		Title: title, Env: map[string]string{"TERM": term}}
	b, _ := json.Marshal(h)
	c.line(append(b, '\n'))
	return c, c.err
}

// ResumeCast continues the recording a previous server wrote of a run it took over
// (the run outlived that server): appended to, its times counted from its header's
// start (whole seconds, so they are never earlier than they were). No header: no
// recording.
func ResumeCast(dir *Dir, name string, limit int64) (*Cast, error) {
	f, err := dir.Open(name, os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cast: %w", err)
	}
	// Its header is its first line, read from the start of a recording of any size
	// (the rest is the earlier output, which the next output follows).
	head := make([]byte, castHeaderMax)
	n, err := f.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		f.Close()
		return nil, fmt.Errorf("cast: %w", err)
	}
	var h CastHeader
	line, _, _ := bytes.Cut(head[:n], []byte("\n"))
	if err := json.Unmarshal(line, &h); err != nil || h.Version != 2 {
		f.Close()
		return nil, fmt.Errorf("cast: %s: no asciicast v2 header", name)
	}
	if err := cutToLastLine(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cast: %w", err)
	}
	c := &Cast{f: f, start: time.Unix(h.Timestamp, 0), left: limit}
	if st, err := f.Stat(); err == nil {
		c.left = limit - st.Size()
		c.capped = c.left <= 0
	}
	c.timer = time.AfterFunc(time.Hour, c.flushLater)
	c.timer.Stop()
	return c, nil
}

// castHeaderMax bounds a recording's header line, as Corral writes it (a size, a
// time, a title and the terminal's name).
const castHeaderMax = 4 << 10

// cutToLastLine drops a last line without its newline: the buffer of a server killed
// mid-write goes to the file at any byte, and a line appended after a cut one would make
// neither parse.
func cutToLastLine(f *os.File) error {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	const window = 64 << 10
	off := max(st.Size()-window, 0)
	b := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil {
		return err
	}
	i := bytes.LastIndexByte(b, '\n')
	if i == len(b)-1 {
		return nil
	}
	return f.Truncate(off + int64(i) + 1) // i == -1: a line longer than the window, cut whole
}

// Output records a chunk of output read at time at.
func (c *Cast) Output(p []byte, at time.Time) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	data := p
	if len(c.held) > 0 {
		c.data = append(append(c.data[:0], c.held...), p...)
		data = c.data
	}
	cut := completeRunes(data)
	c.held = append(c.held[:0], data[cut:]...)
	if cut > 0 {
		c.event(at, "o", data[:cut])
	}
}

// Resize records a new terminal size.
func (c *Cast) Resize(cols, rows uint16, at time.Time) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.event(at, "r", fmt.Appendf(nil, "%dx%d", cols, rows))
}

func (c *Cast) event(at time.Time, kind string, data []byte) {
	if c.capped || c.err != nil {
		return
	}
	b := append(c.ev[:0], '[')
	b = strconv.AppendFloat(b, at.Sub(c.start).Seconds(), 'f', 6, 64)
	b = append(b, `, "`...)
	b = append(b, kind...)
	b = append(b, `", `...)
	b = append(appendJSONString(b, data), ']', '\n')
	c.ev = b
	if int64(len(b)) > c.left { // the newline included
		c.capped = true // a cut line would not parse: stop at the last whole event
		return
	}
	c.line(b)
}

// line writes one line; b ends with its newline.
func (c *Cast) line(b []byte) {
	if c.w == nil {
		c.w = castWriters.Get().(*bufio.Writer)
		c.w.Reset(c.f)
	}
	if _, err := c.w.Write(b); err != nil {
		c.err = err
	}
	c.left -= int64(len(b))
	switch {
	case c.w.Buffered() == 0 && c.err == nil:
		c.flush() // b went straight to the file: nothing to hold the buffer for
	case !c.armed:
		c.armed = true
		c.timer.Reset(castDelay)
	}
}

// flushLater is the timer's flush: what the buffer holds goes to the file.
func (c *Cast) flushLater() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armed = false
	if c.closed || c.err != nil {
		return
	}
	c.flush()
	c.data, c.ev = nil, nil // reused within a burst of output; an idle run keeps none
}

// flush writes the buffer to the file and gives it back; a failed write keeps it
// (and the error).
func (c *Cast) flush() {
	if c.w == nil {
		return
	}
	if err := c.w.Flush(); err != nil {
		c.err = err
		return
	}
	c.w.Reset(nil)
	castWriters.Put(c.w)
	c.w = nil
}

// castWriters are the recordings' buffers, held only by a recording with bytes for
// its file.
var castWriters = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 32<<10) }}

// Close flushes any held bytes (as they are) and the buffer.
func (c *Cast) Close() error {
	if c == nil {
		return nil
	}
	c.timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.held) > 0 {
		c.event(time.Now(), "o", c.held) // a broken tail at the very end
	}
	c.flush()
	c.closed = true // a late timer does nothing
	return c.f.Close()
}

// completeRunes returns the length of p without an incomplete UTF-8 sequence at its
// end (at most 3 bytes are held back; invalid bytes are not held).
func completeRunes(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-3; i-- {
		if !utf8.RuneStart(p[i]) {
			continue
		}
		if !utf8.FullRune(p[i:]) {
			return i
		}
		break
	}
	return len(p)
}

// appendJSONString appends src as a JSON string escaped exactly as encoding/json
// escapes a Go string, so recordings stay byte for byte what json.Marshal made: the
// short escapes \b \f \n \r \t, \u00XX for the other control characters and for
// < > & (HTML-safe), \u2028 and \u2029 escaped, U+FFFD for each invalid byte.
func appendJSONString(dst, src []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(src); {
		b := src[i]
		if jsonSafe[b] {
			i++
			continue
		}
		if b < utf8.RuneSelf {
			dst = appendJSONEscape(append(dst, src[start:i]...), b)
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRune(src[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(append(dst, src[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(append(dst, src[start:i]...), `\u202`...)
			dst = append(dst, hexDigits[r&0xf])
		default:
			i += n
			continue
		}
		i += n
		start = i
	}
	return append(append(dst, src[start:]...), '"')
}

const hexDigits = "0123456789abcdef"

// jsonSafe marks the ASCII bytes a JSON string holds as they are.
var jsonSafe = func() (t [256]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
	}
	return t
}()

func appendJSONEscape(dst []byte, b byte) []byte {
	switch b {
	case '"', '\\':
		return append(dst, '\\', b)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xf])
}
