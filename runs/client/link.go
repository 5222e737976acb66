package client

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"corral/runs"
	"corral/runs/api"
)

// link is whether a Remote is attached, and how it attaches again.
type link struct {
	lost atomic.Bool   // the server is lost; calls fail with api.ErrServerLost
	done chan struct{} // closed by Close
	once sync.Once
	re   *relinker // nil: the Remote does not reconnect (over ssh)
}

func (l *link) init(re *relinker) { l.done, l.re = make(chan struct{}), re }
func (l *link) close()            { l.once.Do(func() { close(l.done) }) }
func (l *link) closed() bool      { return isDone(l.done) }
func isDone(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// relinker reconnects to a state dir's server.
type relinker struct {
	// unplanned reports whether the server went away without meaning to: a server
	// that stops (shutdown, SIGTERM) removes its socket before it closes its
	// connections; one killed (SIGKILL, a crash, the OOM killer) leaves it.
	unplanned func() bool
	dial      func() func() (*Client, error) // the connections of one attempt
}

// localLink reconnects as Attach connects: the first connection starts a server
// when none runs.
func localLink(dir string, start func() error, limit time.Duration) *relinker {
	sock := filepath.Join(dir, api.SocketName)
	return &relinker{
		unplanned: func() bool { _, err := os.Lstat(sock); return err == nil },
		dial:      func() func() (*Client, error) { return attachDial(dir, start, limit) },
	}
}

// relink is what happens when the stream ends with cause: over, when the server
// stopped on purpose, the Remote was closed or it does not reconnect (false);
// otherwise it says the server is lost and tries again (relinkBackoff), each failed
// attempt an event, until it is attached again (true) or closed (false).
func (r *Remote) relink(cause error) bool {
	re := r.link.re
	if re == nil || r.link.closed() || !re.unplanned() {
		return false
	}
	r.link.lost.Store(true)
	lost := runs.Event{Type: api.EventServerLost, Time: time.Now(), Run: runs.Info{PID: r.Server().PID}, Detail: why(cause)}
	if !r.send(lost) {
		return false
	}
	var pid int
	back := relinkBackoff.retry(r.link.done, func(int) (err error) {
		pid, err = r.reattach(re.dial())
		return err
	}, func(try int, err error, _ time.Duration) bool {
		if r.link.closed() {
			return false
		}
		lost.Time, lost.Detail = time.Now(), fmt.Sprintf("attempt %d: %v", try, err)
		return r.send(lost)
	})
	if !back {
		return false
	}
	r.link.lost.Store(false)
	return r.send(runs.Event{Type: api.EventServerBack, Time: time.Now(), Run: runs.Info{PID: pid}})
}

func why(cause error) string {
	if cause == nil {
		return "the stream ended"
	}
	return cause.Error()
}

// reattach opens the Remote's three connections again with dial, subscribes, asks for
// the screens it watched, and makes them the Remote's; the pid is the server's.
func (r *Remote) reattach(dial func() (*Client, error)) (int, error) {
	var cs []*Client
	fail := func(err error) (int, error) {
		for _, c := range cs {
			c.Close()
		}
		return 0, err
	}
	for range 3 {
		c, err := dial()
		if err != nil {
			return fail(err)
		}
		cs = append(cs, c)
	}
	rep, err := subscribe(cs[2], 0)
	if err != nil {
		return fail(err)
	}
	r.mu.Lock()
	watched := append([]string(nil), r.watched...)
	r.mu.Unlock()
	if len(watched) > 0 {
		if _, err := api.Watch.Call(context.Background(), cs[0], api.WatchArgs{Token: rep.Token, IDs: watched}); err != nil {
			return fail(err)
		}
	}
	r.mu.Lock()
	old := r.stream
	r.history = rep.History
	r.mu.Unlock()
	r.subscribed(cs[2], rep)
	r.main.swap(cs[0])
	r.input.swap(cs[1])
	old.Close()
	if r.link.closed() { // closed meanwhile: Close may have missed these
		return fail(errors.New("detached"))
	}
	return cs[0].Hello.PID, nil
}

// swap makes c the lane's connection and closes the one it had.
func (l *lane) swap(c *Client) {
	l.mu.Lock()
	old := l.c.Swap(c)
	l.mu.Unlock()
	if old != nil {
		old.Close()
	}
}
