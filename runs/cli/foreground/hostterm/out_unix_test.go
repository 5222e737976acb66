//go:build !windows

package hostterm

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// A write to a pipe whose reader is gone marks the PipeEnd closed (EPIPE: a write to a
// pipe other than stdout or stderr fails instead of killing the process).
func TestPipeEndNotesClosedReader(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	p := NewPipeEnd(w)
	if _, err := p.Write([]byte("x")); err != nil || p.Closed() {
		t.Fatalf("write with a reader: %v, closed %v", err, p.Closed())
	}
	r.Close()
	if _, err := p.Write([]byte("y")); !errors.Is(err, syscall.EPIPE) || !p.Closed() {
		t.Fatalf("write without a reader: %v, closed %v", err, p.Closed())
	}
}
