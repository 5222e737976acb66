package ptyhost

import (
	"errors"
	"fmt"
	"os"
	"sync"
)

// writer owns a run's input: a bounded queue of copies, written in order by
// one goroutine so that a child that never reads blocks only that goroutine
// (openclaw.md §7.3 #23: never write on the caller's or the reader's path).
type writer struct {
	f      *os.File
	closeF bool // pipe stdin: close f when input ends, so the child sees EOF
	max    int
	wake   chan struct{} // capacity 1: "state changed, look again"
	done   chan struct{}

	mu       sync.Mutex
	queue    [][]byte // queue[0] is being written; it counts until written
	queued   int
	err      error // non-nil once input is refused
	draining bool  // CloseStdin: write what is queued, then close
	stopped  bool  // Close: drop the queue and end now
}

func newWriter(f *os.File, closeF bool, max int) *writer {
	w := &writer{f: f, closeF: closeF, max: max, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go w.run()
	return w
}

func (w *writer) write(b []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.err != nil:
		return w.err
	case len(b) == 0:
		return nil
	case len(b) > w.max-w.queued:
		return ErrInputFull
	}
	w.queue = append(w.queue, append([]byte(nil), b...))
	w.queued += len(b)
	w.poke()
	return nil
}

func (w *writer) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// closeInput refuses further input and lets the writer close f once the
// queue is written. A second call is a no-op; after stop it is ErrClosed.
func (w *writer) closeInput() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return ErrClosed
	}
	if w.err == nil {
		w.err = ErrClosed
	}
	w.draining = true
	w.poke()
	return nil
}

// stop drops the queue and ends the writer, even if it is blocked writing to
// a child that does not read: the write deadline fails that Write at once.
func (w *writer) stop() {
	w.mu.Lock()
	w.stopped = true
	if w.err == nil {
		w.err = ErrClosed
	}
	w.queue, w.queued = nil, 0
	w.mu.Unlock()
	w.poke()
	if err := w.f.SetWriteDeadline(past); err != nil && !errors.Is(err, os.ErrClosed) {
		w.f.Close()
	}
	<-w.done
}

func (w *writer) run() {
	defer close(w.done)
	for {
		b, ok := w.next()
		if !ok {
			return
		}
		_, err := w.f.Write(b)
		if !w.written(len(b), err) {
			return
		}
	}
}

// next waits for the chunk to write next; ok is false when the writer ends.
func (w *writer) next() (b []byte, ok bool) {
	for {
		w.mu.Lock()
		stopped, draining := w.stopped, w.draining
		if len(w.queue) > 0 {
			b = w.queue[0]
		}
		w.mu.Unlock()
		switch {
		case stopped:
			return nil, false
		case b != nil:
			return b, true
		case draining:
			w.endInput()
			return nil, false
		}
		<-w.wake
	}
}

// written retires the chunk just written. A failed write (EPIPE: the child
// closed stdin or exited; EIO: the PTY slave is gone) ends input for good.
func (w *writer) written(n int, err error) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return false
	}
	w.queue[0] = nil
	w.queue = w.queue[1:]
	w.queued -= n
	if err == nil {
		return true
	}
	w.err = fmt.Errorf("%w: %w", ErrClosed, err)
	w.queue, w.queued = nil, 0
	w.endInput()
	return false
}

func (w *writer) endInput() {
	if w.closeF {
		w.f.Close()
	}
}
