package server

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"corral/runs/api"
)

// connReadBuf is each connection's read buffer. A request that does not fit is
// assembled in a buffer counted against the server's budget; idle connections hold
// only this (it was 64 KiB each).
const connReadBuf = 4 << 10

var (
	// errBusy: the server's budget for unfinished requests is spent.
	errBusy = errors.New("the server holds too many unfinished requests")
	// errFull: the server serves as many connections as Limits.Conns allows.
	errFull = errors.New("the server is at its connection limit")
	// errSilent and errSlow are why a client that does not send was cut.
	errSilent = errors.New("silent client")
	errSlow   = errors.New("slow client")
)

// requests reads a connection's requests, one line each, within the server's limits:
// the first within Limits.Silent of connecting, each within Limits.Slow of its first
// byte, a long one in a buffer taken from the server's budget and given back (its
// memory returned to the OS) once the request is answered.
type requests struct {
	c     net.Conn
	r     *bufio.Reader
	b     *budget
	lim   Limits
	mark  func(connState) // told when the connection waits idle and when a request begins
	line  []byte          // the request being assembled across reads; its capacity is taken
	first bool            // no request has been read yet
	came  int             // bytes of the request being read, for why it was late
	limit time.Duration
}

func newRequests(c net.Conn, b *budget, lim Limits) *requests {
	return &requests{c: c, r: bufio.NewReaderSize(c, connReadBuf), b: b, lim: lim, first: true}
}

// next returns the next request line, valid until the following call. Between
// requests a connection may stay idle as long as it likes (an attached UI's lanes do);
// once a request has begun it must arrive whole. Errors: io.EOF and other read
// errors, api.ErrTooLarge, errBusy, errSilent, errSlow.
func (q *requests) next() ([]byte, error) {
	q.release()
	q.came, q.limit = 0, q.lim.Silent
	if q.first {
		// Not yet greeted: within Silent of connecting, or the connection is dropped
		// (and a server that is full closes it before any idle one).
		q.c.SetReadDeadline(time.Now().Add(q.limit))
		if _, err := q.r.Peek(1); err != nil {
			q.first = false
			if isTimeout(err) {
				err = q.late()
			}
			return nil, err
		}
		q.tell(connReading)
	} else {
		q.c.SetReadDeadline(time.Time{})
		q.tell(connIdle)
		if _, err := q.r.Peek(1); err != nil {
			return nil, err
		}
		q.tell(connReading)
		q.limit = q.lim.Slow
		q.c.SetReadDeadline(time.Now().Add(q.limit))
	}
	line, err := q.read()
	if isTimeout(err) {
		err = q.late()
	}
	if err == nil {
		q.tell(connBusy)
	}
	q.first = false
	q.c.SetReadDeadline(time.Time{}) // a stream's reader, after subscribe, has none
	return line, err
}

func (q *requests) tell(st connState) {
	if q.mark != nil {
		q.mark(st)
	}
}

// late is why a request did not come in time.
func (q *requests) late() error {
	if q.came == 0 {
		return fmt.Errorf("%w: no request within %v of connecting", errSilent, q.limit)
	}
	return fmt.Errorf("%w: a request not whole within %v (%d bytes of it came)", errSlow, q.limit, q.came)
}

// read reads one line: from the read buffer when it fits (no copy), else assembled.
// A last line without its newline is a line.
func (q *requests) read() ([]byte, error) {
	frag, err := q.r.ReadSlice('\n')
	q.came += len(frag)
	if err == nil || (errors.Is(err, io.EOF) && len(frag) > 0) {
		return frag, nil
	}
	for errors.Is(err, bufio.ErrBufferFull) {
		if err := q.grow(len(frag)); err != nil {
			return nil, err
		}
		q.line = append(q.line, frag...)
		frag, err = q.r.ReadSlice('\n')
		q.came += len(frag)
	}
	if err == nil || (errors.Is(err, io.EOF) && len(q.line)+len(frag) > 0) {
		if err := q.grow(len(frag)); err != nil {
			return nil, err
		}
		return append(q.line, frag...), nil
	}
	return nil, err
}

// grow makes room for n more bytes of the line, taking what it adds from the budget.
func (q *requests) grow(n int) error {
	need := len(q.line) + n
	if need > api.MaxMessage {
		return api.ErrTooLarge
	}
	if need <= cap(q.line) {
		return nil
	}
	size := min(max(2*cap(q.line), need, 2*connReadBuf), api.MaxMessage)
	if !q.b.take(int64(size - cap(q.line))) {
		return errBusy
	}
	grown := make([]byte, len(q.line), size)
	copy(grown, q.line)
	q.line = grown
	return nil
}

// release gives the assembled line's buffer back to the budget.
func (q *requests) release() {
	if c := cap(q.line); c > 0 {
		q.line = nil
		q.b.give(int64(c))
	}
}

func isTimeout(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }
