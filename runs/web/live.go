package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"corral/ptyhost/screen/grid"
)

// client is one browser's live channel.
type client struct {
	id      string
	view    string // the run it shows ("" for none); fixed: another view is another channel
	focused bool   // under the hub's lock

	q      chan []byte   // list messages, bounded
	wakeC  chan struct{} // capacity 1: its screen changed, or it must resync
	resync atomic.Bool   // its queue overflowed: next, everything afresh
}

func newClient(view string, queue int) *client {
	var b [12]byte
	rand.Read(b[:])
	return &client{id: hex.EncodeToString(b[:]), view: view, q: make(chan []byte, queue), wakeC: make(chan struct{}, 1)}
}

func (c *client) wake() {
	select {
	case c.wakeC <- struct{}{}:
	default:
	}
}

// put queues msg, or, when the browser is that far behind, drops what it had and
// marks it for a full picture: the server never waits for a browser.
func (c *client) put(msg []byte) {
	select {
	case c.q <- msg:
	default:
		c.resync.Store(true)
		c.wake()
	}
}

// writeLimit is how long one write to a browser may take before it counts as gone.
const writeLimit = 10 * time.Second

// live serves the live channel (Server-Sent Events): hello, the list, the screen
// in view; then the list's changes and the screen's row diffs, at most one per
// frame, until the browser goes.
func (s *Server) live(w http.ResponseWriter, r *http.Request) {
	view := r.URL.Query().Get("view")
	if _, ok := s.hub.run(view); view != "" && !ok {
		http.Error(w, fmt.Sprintf("no run %q", view), http.StatusNotFound)
		return
	}
	if n := s.open.Add(1); int(n) > s.maxLive {
		s.open.Add(-1)
		http.Error(w, fmt.Sprintf("%d pages are open on corral web already: close one", s.maxLive), http.StatusServiceUnavailable)
		return
	}
	defer s.open.Add(-1)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	c := newClient(view, s.queue)
	s.hub.join(c)
	defer s.hub.leave(c)
	lw := &liveWriter{w: w, rc: http.NewResponseController(w)}
	lw.send(message(map[string]any{"type": "hello", "client": c.id, "read_only": s.readOnly}))
	lw.send(s.hub.list())
	last := s.screen(lw, view, nil)
	if lw.flush() == nil {
		s.follow(r.Context(), c, lw, last)
	}
}

// follow sends browser c what changes until it goes: list messages as they come,
// a full list after an overflow, the screen in view when woken, at most once a
// frame (a timer exists only while a draw waits for its turn).
func (s *Server) follow(ctx context.Context, c *client, lw *liveWriter, last []string) {
	var timer *time.Timer
	var timerC <-chan time.Time
	pending, sent := false, time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-c.q:
			lw.send(m)
			c.drain(lw.send)
		case <-c.wakeC:
			if c.resync.Swap(false) {
				c.drain(func([]byte) {})
				lw.send(s.hub.list())
				last = nil
			}
			pending = c.view != ""
		case <-timerC:
			timerC = nil
		}
		if pending && timerC == nil {
			if wait := s.frame - time.Since(sent); wait > 0 {
				timer = resetTimer(timer, wait)
				timerC = timer.C
			} else {
				last = s.screen(lw, c.view, last)
				pending, sent = false, time.Now()
			}
		}
		if lw.flush() != nil {
			return
		}
	}
}

// drain hands what c's queue holds now to f.
func (c *client) drain(f func([]byte)) {
	for {
		select {
		case m := <-c.q:
			f(m)
		default:
			return
		}
	}
}

func resetTimer(t *time.Timer, d time.Duration) *time.Timer {
	if t == nil {
		return time.NewTimer(d)
	}
	t.Reset(d)
	return t
}

// screen sends the rows of run id's screen that differ from last, and returns the
// rows sent.
func (s *Server) screen(lw *liveWriter, id string, last []string) []string {
	if id == "" {
		return last
	}
	v, err := s.hub.core.Screen(id)
	if err != nil {
		return last
	}
	var g *grid.Grid
	title := ""
	if v == nil { // a pipe run: the tail of its output
		if g = s.logScreen(id); g == nil {
			return last
		}
	} else {
		if v.Version() == 0 && v.Render() == "" {
			return last // no frame yet: the watch brings one
		}
		g, title = grid.FromScreen(v), v.State().Title
	}
	now := rows(g)
	m := diff(id, g, last, now)
	if len(m.Lines) == 0 {
		return now
	}
	m.Title = title
	lw.send(message(m))
	return now
}

// liveWriter writes events to one browser, each write bounded in time.
type liveWriter struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	err error
}

func (lw *liveWriter) send(data []byte) {
	if lw.err != nil {
		return
	}
	lw.rc.SetWriteDeadline(time.Now().Add(writeLimit))
	_, lw.err = fmt.Fprintf(lw.w, "data: %s\n\n", data)
}

func (lw *liveWriter) flush() error {
	if lw.err == nil {
		lw.err = lw.rc.Flush()
	}
	return lw.err
}
