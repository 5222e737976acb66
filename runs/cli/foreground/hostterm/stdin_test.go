package hostterm

import (
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeInput records what ForwardStdin does to the run.
type fakeInput struct {
	got              strings.Builder
	closed, canceled bool
	fail             error
}

func (f *fakeInput) Write(b []byte) error { f.got.Write(b); return f.fail }
func (f *fakeInput) CloseStdin() error    { f.closed = true; return nil }
func (f *fakeInput) Cancel()              { f.canceled = true }

// chunks is a reader that returns one chunk per Read, then EOF.
type chunks []string

func (c *chunks) Read(p []byte) (int, error) {
	if len(*c) == 0 {
		return 0, io.EOF
	}
	n := copy(p, (*c)[0])
	*c = (*c)[1:]
	return n, nil
}

func TestForwardStdin(t *testing.T) {
	cases := []struct {
		name              string
		in                chunks
		pty, chord        bool
		fail              error
		got               string
		closed, cancelled bool
	}{
		{name: "pipe run: EOF closes its stdin", in: chunks{"a", "b"}, got: "ab", closed: true},
		{name: "PTY run: EOF sends nothing", in: chunks{"a"}, pty: true, got: "a"},
		{name: "chord cancels, nothing after it", in: chunks{"x\x1d", ".y", "z"}, pty: true, chord: true, got: "x", cancelled: true},
		{name: "chord bytes pass without a raw terminal", in: chunks{"x\x1d."}, pty: true, got: "x\x1d."},
		{name: "a failed write ends it", in: chunks{"a", "b"}, fail: errors.New("gone"), got: "a"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			to := &fakeInput{fail: c.fail}
			ForwardStdin(&c.in, to, c.pty, c.chord)
			if to.got.String() != c.got || to.closed != c.closed || to.canceled != c.cancelled {
				t.Fatalf("sent %q, closed %v, cancelled %v; want %q, %v, %v",
					to.got.String(), to.closed, to.canceled, c.got, c.closed, c.cancelled)
			}
		})
	}
}

// The first signal is first's, every later one later's, until done closes.
func TestWatchSignals(t *testing.T) {
	sigs := make(chan os.Signal, 3)
	sigs <- syscall.SIGINT
	sigs <- syscall.SIGTERM
	sigs <- syscall.SIGHUP
	done := make(chan struct{})
	var firsts []os.Signal
	hurried := 0
	later := func() {
		if hurried++; hurried == 2 {
			close(done)
		}
	}
	got := make(chan os.Signal, 1)
	go func() { got <- WatchSignals(done, sigs, func(s os.Signal) { firsts = append(firsts, s) }, later) }()
	select {
	case s := <-got:
		if s != syscall.SIGINT || len(firsts) != 1 || firsts[0] != syscall.SIGINT || hurried != 2 {
			t.Fatalf("returned %v, first called with %v, later %d times", s, firsts, hurried)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("WatchSignals did not return once done closed")
	}
}
