package hostterm

import (
	"errors"
	"io"
	"os"
	"sync/atomic"
	"syscall"

	"golang.org/x/term"
)

// Stdout is stdout for a run's output: at a terminal, through a Filter that keeps
// the program from acting on the terminal itself (titles, clipboard, DCS, window
// operations); to a file or a pipe, the bytes as written.
func Stdout() io.Writer {
	if term.IsTerminal(int(os.Stdout.Fd())) {
		return NewFilter(os.Stdout)
	}
	return os.Stdout
}

// Output is stdout for run output printed to be read (corral log, poll, screen): at a
// terminal, through a Visible filter, or with raw through a Host filter (the run's
// sequences act on the terminal: a query is answered as if typed); to a file or a
// pipe, the bytes as written. Flush it at the end.
func Output(raw bool) Flusher {
	switch {
	case !term.IsTerminal(int(os.Stdout.Fd())):
		return nopFlush{os.Stdout}
	case raw:
		return NewFilter(os.Stdout)
	}
	return NewMode(os.Stdout, Visible)
}

// Flusher is a writer that may hold the end of its input until flushed.
type Flusher interface {
	io.Writer
	Flush() error
}

type nopFlush struct{ io.Writer }

func (nopFlush) Flush() error { return nil }

// PipeEnd is corral run's stdout as the run's output is streamed to it: it notes a
// reader that went away (EPIPE; SIGPIPE is caught, so the write fails instead of
// killing Corral), after which the supervisor ends the run.
type PipeEnd struct {
	w      io.Writer
	closed atomic.Bool
}

// NewPipeEnd returns a PipeEnd writing to w.
func NewPipeEnd(w io.Writer) *PipeEnd { return &PipeEnd{w: w} }

func (p *PipeEnd) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if errors.Is(err, syscall.EPIPE) {
		p.closed.Store(true)
	}
	return n, err
}

// Closed reports whether a write found the reader gone.
func (p *PipeEnd) Closed() bool { return p.closed.Load() }
