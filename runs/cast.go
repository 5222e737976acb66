package runs

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// castFile records a PTY run as an asciicast v2 file (a JSON header line, then one
// [seconds, "o"|"r", data] line per output chunk or resize), so any run can be replayed
// with standard tools or `corral replay`. JSON strings must be valid UTF-8, so an
// incomplete sequence at the end of a read is held back for the next one rather than
// turned into U+FFFD. It is capped like the transcript.
type castFile struct {
	mu     sync.Mutex
	f      *os.File
	w      *bufio.Writer
	start  time.Time
	held   []byte // incomplete UTF-8 tail of the last output
	left   int64
	capped bool
	err    error
}

// castHeader is the asciicast v2 header.
type castHeader struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp"`
	Title     string            `json:"title,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

func openCast(path string, cols, rows uint16, title, term string, limit int64, now time.Time) (*castFile, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cast: %w", err)
	}
	c := &castFile{f: f, w: bufio.NewWriterSize(f, 32<<10), start: now, left: limit}
	h := castHeader{Version: 2, Width: int(cols), Height: int(rows), Timestamp: now.Unix(),
		Title: title, Env: map[string]string{"TERM": term}}
	b, _ := json.Marshal(h)
	c.line(b)
	return c, c.err
}

// output records a chunk of output read at time at.
func (c *castFile) output(p []byte, at time.Time) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	data := append(c.held, p...)
	cut := completeRunes(data)
	c.held = append(c.held[:0:0], data[cut:]...)
	if cut > 0 {
		c.event(at, "o", string(data[:cut]))
	}
}

// resize records a new terminal size.
func (c *castFile) resize(cols, rows uint16, at time.Time) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.event(at, "r", fmt.Sprintf("%dx%d", cols, rows))
}

func (c *castFile) event(at time.Time, kind, data string) {
	if c.capped || c.err != nil {
		return
	}
	b := []byte("[")
	b = strconv.AppendFloat(b, at.Sub(c.start).Seconds(), 'f', 6, 64)
	b = append(b, `, "`...)
	b = append(b, kind...)
	b = append(b, `", `...)
	s, _ := json.Marshal(data)
	b = append(append(b, s...), ']')
	if int64(len(b))+1 > c.left { // +1: the newline
		c.capped = true // a cut line would not parse: stop at the last whole event
		return
	}
	c.line(b)
}

func (c *castFile) line(b []byte) {
	if _, err := c.w.Write(append(b, '\n')); err != nil {
		c.err = err
	}
	c.left -= int64(len(b) + 1)
}

// close flushes any held bytes (as they are) and the buffer.
func (c *castFile) close() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.held) > 0 {
		c.event(time.Now(), "o", string(c.held)) // a broken tail at the very end
	}
	c.w.Flush()
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
