package web

import (
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
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	c := newClient(view, s.queue)
	s.hub.join(c)
	defer s.hub.leave(c)
	lw := &liveWriter{w: w, rc: http.NewResponseController(w)}
	lw.send(message(map[string]any{"type": "hello", "client": c.id, "read_only": s.readOnly}))
	lw.send(s.hub.list())
	var last []string
	last = s.screen(lw, view, last)
	if lw.flush() != nil {
		return
	}
	var timer *time.Timer
	var timerC <-chan time.Time
	pending, sent := false, time.Now()
	for {
		select {
		case <-r.Context().Done():
			return
		case m := <-c.q:
			lw.send(m)
			for more := true; more; {
				select {
				case m := <-c.q:
					lw.send(m)
				default:
					more = false
				}
			}
		case <-c.wakeC:
			if c.resync.Swap(false) {
				for len(c.q) > 0 {
					<-c.q
				}
				lw.send(s.hub.list())
				last = nil
			}
			pending = view != ""
		case <-timerC:
			timerC = nil
		}
		if pending && timerC == nil {
			if wait := s.frame - time.Since(sent); wait > 0 {
				if timer == nil {
					timer = time.NewTimer(wait)
				} else {
					timer.Reset(wait)
				}
				timerC = timer.C
			} else {
				last = s.screen(lw, view, last)
				pending, sent = false, time.Now()
			}
		}
		if lw.flush() != nil {
			return
		}
	}
}

// screen sends the rows of run id's screen that differ from last, and returns the
// rows sent.
func (s *Server) screen(lw *liveWriter, id string, last []string) []string {
	if id == "" {
		return last
	}
	v, err := s.hub.core.Screen(id)
	if err != nil || v.Version() == 0 && v.Render() == "" {
		return last // no frame yet: the watch brings one
	}
	g := grid.FromScreen(v)
	now := rows(g)
	m := diff(id, g, last, now)
	if len(m.Lines) == 0 {
		return now
	}
	m.Title = v.State().Title
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
