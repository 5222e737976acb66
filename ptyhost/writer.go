package ptyhost

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"corral/ptyhost/hoptrace"
)

// writer owns a run's input: a bounded queue of copies, written in order by
// one goroutine so that a child that never reads blocks only that goroutine
// (never write on the caller's or the reader's path: a write to the master blocks
// once the tty's input queue is full, about 4 KiB on macOS, while the child is
// blocked writing output nobody reads).
// The goroutine runs only while there is input to write: started by the write
// that finds none running, it ends once the queue is empty, so an idle run has
// none. A small write (up to directMax: keys, a short paste) that finds nothing
// queued and no goroutine running, on a non-blocking descriptor, is first tried
// at once on the caller's path, one write(2) that cannot block, under mu: a typed
// key reaches the child without waiting for a goroutine to be scheduled (on a busy
// machine that wait was the key's longest hop, milliseconds), and only what the
// kernel does not take is queued, behind nothing, so the bytes keep their order.
type writer struct {
	f      *os.File
	closeF bool // pipe stdin: close f when input ends, so the child sees EOF
	max    int
	direct bool // f is non-blocking: a write may be tried on the caller's path

	mu       sync.Mutex
	queue    [][]byte // queue[0] is being written; it counts until written
	queued   int
	err      error         // non-nil once input is refused
	draining bool          // CloseStdin: write what is queued, then close
	stopped  bool          // Close: drop the queue and end now
	ended    bool          // input ended (endInput): no goroutine starts again
	running  chan struct{} // closed as the writing goroutine ends; nil while none runs
}

// directMax is the largest write tried on the caller's path. A larger one (a paste)
// is queued whole: it counts against max until the goroutine wrote it.
const directMax = 4 << 10

func newWriter(f *os.File, closeF bool, max int) *writer {
	return &writer{f: f, closeF: closeF, max: max, direct: nonblocking(f)}
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
	if w.direct && len(b) <= directMax && w.running == nil && len(w.queue) == 0 && !w.stopped && !w.ended {
		// Nothing is queued nor being written, and mu keeps any other write out
		// until this one is written or queued: no byte can pass another.
		n := tryWrite(w.f, b)
		if n > 0 {
			hoptrace.MarkBytes("pty.write", b[:n])
		}
		if b = b[n:]; len(b) == 0 {
			return nil
		}
	}
	w.queue = append(w.queue, append([]byte(nil), b...))
	w.queued += len(b)
	w.kick()
	return nil
}

// kick starts the goroutine that writes the queue unless one runs (it looks at
// the queue again before it ends). Called with mu held.
func (w *writer) kick() {
	if w.running != nil || w.stopped || w.ended {
		return
	}
	done := make(chan struct{})
	w.running = done
	go w.run(done)
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
	w.kick()
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
	done := w.running
	w.mu.Unlock()
	if err := w.f.SetWriteDeadline(past); err != nil && !errors.Is(err, os.ErrClosed) {
		w.f.Close()
	}
	if done != nil {
		<-done
	}
}

func (w *writer) run(done chan struct{}) {
	defer close(done)
	for {
		b, ok := w.next()
		if !ok {
			return
		}
		_, err := w.f.Write(b)
		hoptrace.MarkBytes("pty.write", b)
		if !w.written(len(b), err) {
			return
		}
	}
}

// next is the chunk to write next; ok is false when the goroutine ends: the
// queue is empty (the next write starts another), input ended, or the writer
// stopped.
func (w *writer) next() (b []byte, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.stopped:
		return nil, false
	case len(w.queue) > 0:
		return w.queue[0], true
	case w.draining:
		w.endInput()
	}
	w.running = nil
	return nil, false
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
	w.ended = true
	if w.closeF {
		w.f.Close()
	}
}
