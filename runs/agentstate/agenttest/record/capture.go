package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"
	"unicode/utf8"

	"corral/ptyhost/screen"
	"corral/runs/agentstate/agenttest"
)

// capture is the run's Spec.Stdout: it keeps every read with its time and feeds a
// screen of its own under the same lock, so the driver always sees a screen and an
// offset that belong together. (The run's own screen is fed just before the copy
// reaches us, so it can be one read ahead of any count we keep; ours cannot.)
type capture struct {
	start  time.Time
	notify chan struct{} // capacity 1: output arrived

	mu    sync.Mutex
	reads []read
	n     int
	last  time.Time
	scr   *screen.Screen
}

type read struct {
	at   time.Time
	data []byte
}

func newCapture(cols, rows int) *capture {
	now := time.Now()
	return &capture{start: now, last: now, notify: make(chan struct{}, 1),
		scr: screen.NewScreen(cols, rows)}
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	now := time.Now()
	c.reads = append(c.reads, read{at: now, data: append([]byte(nil), p...)})
	c.n += len(p)
	c.last = now
	c.scr.Write(p)
	c.mu.Unlock()
	select {
	case c.notify <- struct{}{}:
	default:
	}
	return len(p), nil
}

// view is what the driver decides on: the screen after the first N output bytes.
type view struct {
	N     int
	T     time.Time
	Quiet time.Duration // since the last output
	Text  string
	Title string
	Focus bool // the app enabled focus reporting (DEC 1004)
}

func (c *capture) view() view {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.scr.State()
	now := time.Now()
	return view{N: c.n, T: now, Quiet: now.Sub(c.last), Text: c.scr.Text(), Title: st.Title,
		Focus: st.FocusEvents}
}

// offsetAt is the number of output bytes read before t.
func (c *capture) offsetAt(t time.Time) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := sort.Search(len(c.reads), func(i int) bool { return !c.reads[i].at.Before(t) })
	n := 0
	for _, r := range c.reads[:i] {
		n += len(r.data)
	}
	return n
}

func (c *capture) stream() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := make([]byte, 0, c.n)
	for _, r := range c.reads {
		b = append(b, r.data...)
	}
	return b
}

func (c *capture) since(t time.Time) float64 { return secs(t.Sub(c.start)) }

func secs(d time.Duration) float64 { return float64(d.Round(time.Microsecond)) / 1e9 }

// writeCast writes the reads as asciicast v2 output events. A read that ends inside
// a UTF-8 sequence keeps that tail for the next event (JSON strings hold only whole
// characters); any other invalid byte is an error, as JSON would replace it and every
// offset after it would be off.
func (c *capture) writeCast(path string, hdr agenttest.CastHeader) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	b, _ := json.Marshal(hdr)
	w.Write(append(b, '\n'))
	c.mu.Lock()
	reads := c.reads
	c.mu.Unlock()
	var held []byte
	off := 0
	for _, r := range reads {
		data := append(held, r.data...)
		cut := len(data) - incompleteTail(data)
		data, held = data[:cut], append([]byte(nil), data[cut:]...)
		if len(data) == 0 {
			continue
		}
		if !utf8.Valid(data) {
			return fmt.Errorf("%s: invalid UTF-8 in the output near byte %d", path, off)
		}
		line, _ := json.Marshal([]any{secs(r.at.Sub(c.start)), "o", string(data)})
		w.Write(append(line, '\n'))
		off += len(data)
	}
	if len(held) > 0 {
		return fmt.Errorf("%s: output ends inside a UTF-8 sequence", path)
	}
	return w.Flush()
}

// incompleteTail is the length of a UTF-8 sequence cut off at the end of b (0 if b
// ends with a whole character or with bytes no sequence could complete).
func incompleteTail(b []byte) int {
	for k := 1; k <= 3 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < 0x80 {
			return 0 // ASCII: nothing pending
		}
		if c >= 0xC0 { // a lead byte: pending if its sequence needs more than k bytes
			need := 2
			if c >= 0xE0 {
				need = 3
			}
			if c >= 0xF0 {
				need = 4
			}
			if need > k {
				return k
			}
			return 0
		}
	}
	return 0
}
