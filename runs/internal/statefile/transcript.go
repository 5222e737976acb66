package statefile

import (
	"fmt"
	"os"
	"sync"
	"time"

	"corral/runs/filetail"
)

// Transcript is a file of what a stream printed, bounded: when it holds limit bytes
// it becomes NAME.1 (the one before that goes) and a new NAME is begun, so a runaway
// run cannot fill the disk (two files of limit bytes at most), and what a run printed
// last is always there. That end is what a server that takes a run over rebuilds its
// screen and terminal modes from; a transcript that stopped at its cap gave it the
// screen of hours before.
//
// Writes are buffered only within a burst. One write(2) per read was a tenth of the
// reader's CPU in a 100 MB flood and a fifth of the UI's in ten streaming runs, so
// the reads of a burst are gathered. But what a server has read is lost if it is
// killed (kill -9, OOM) before the bytes reach the file, and the next server (the
// run outlived the one killed: its keeper holds it) continues the transcript from the
// file. So the first
// transcriptBurst writes of every TranscriptWindow go to the file at once: output at
// a person's or a log's pace is never held back, however its reads are spaced. The
// rest of a burst waits until the buffer holds transcriptBuf bytes or the window ends:
// a kill loses at most a burst's last window.
type Transcript struct {
	mu      sync.Mutex
	dir     *Dir
	name    string
	f       *os.File
	buf     []byte
	timer   *time.Timer // flushes buf when the window it was held in ends
	armed   bool
	window  time.Time // when the current window began
	writes  int       // written through in it
	left    int64
	closed  bool
	limit   int64
	failure error
}

const (
	transcriptBuf   = 64 << 10
	transcriptBurst = 2
	// TranscriptWindow is the most a transcript holds output back: a quiet run's
	// output is in the file by then.
	TranscriptWindow = 20 * time.Millisecond
)

// OpenTranscript creates the transcript name in dir, bounded by limit; with resume it continues the one a previous
// server wrote (a run it took over, or a service's earlier attempts), within the same
// bound.
func OpenTranscript(dir *Dir, name string, limit int64, resume bool) (*Transcript, error) {
	flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if resume {
		flag = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	} else {
		dir.Remove(name + filetail.Rotated) // a run id is new: nothing of another's
	}
	f, err := dir.Open(name, flag, 0o600)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	t := &Transcript{dir: dir, name: name, f: f, left: limit, limit: limit}
	if st, err := f.Stat(); resume && err == nil {
		t.left = limit - st.Size()
	}
	t.timer = time.AfterFunc(time.Hour, t.flushLater)
	t.timer.Stop()
	return t, nil
}

// Write is called from one reader goroutine per stream; the lock is for the timer.
func (t *Transcript) Write(p []byte) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.limit <= 0 {
		return // no room at all: nothing is kept
	}
	for t.failure == nil && !t.closed && int64(len(p)) > t.left { // what fits, then the next file
		n := max(t.left, 0)
		t.buf = append(t.buf, p[:n]...)
		p = p[n:]
		t.rotateLocked()
	}
	if t.closed || t.failure != nil {
		return
	}
	t.left -= int64(len(p))
	if len(t.buf)+len(p) > transcriptBuf {
		t.flushLocked()
	}
	t.buf = append(t.buf, p...)
	now := time.Now()
	if now.Sub(t.window) >= TranscriptWindow {
		t.window, t.writes = now, 0
	}
	switch {
	case len(t.buf) >= transcriptBuf:
		t.flushLocked()
	case t.writes < transcriptBurst:
		t.writes++
		t.flushLocked()
	case !t.armed:
		t.armed = true
		t.timer.Reset(TranscriptWindow - now.Sub(t.window))
	}
}

// flushLater is the timer's flush at the end of a window: the buffer is let go.
func (t *Transcript) flushLater() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.armed = false
	t.flushLocked()
	t.buf = nil
}

func (t *Transcript) flushLocked() {
	if len(t.buf) == 0 || t.failure != nil {
		t.buf = t.buf[:0]
		return
	}
	if _, err := t.f.Write(t.buf); err != nil {
		t.failure = err
	}
	t.buf = t.buf[:0]
}

// rotateLocked writes what is buffered, moves the full file aside as NAME.1 and
// begins NAME again. A file that cannot be begun stops the transcript (failure), as a
// failed write does.
func (t *Transcript) rotateLocked() {
	t.flushLocked()
	if t.failure != nil {
		return
	}
	t.f.Close()
	if err := t.dir.Rename(t.name, t.dir, t.name+filetail.Rotated); err != nil {
		t.failure = err
		return
	}
	f, err := t.dir.Open(t.name, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		t.failure = err
		return
	}
	t.f, t.left = f, t.limit
}

func (t *Transcript) Close() error {
	if t == nil {
		return nil
	}
	t.timer.Stop()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flushLocked()
	t.closed = true // nothing more, even from a late timer
	return t.f.Close()
}

// Tail is up to the last n bytes of the bounded file name in d (a transcript): from
// the one before it (NAME.1) too when the current one, begun lately, holds less. The
// error is the current file's; its bytes, and the older's, are what could be read.
func (d *Dir) Tail(name string, n int64) ([]byte, error) {
	return filetail.Read(func(name string) (*os.File, error) { return d.Open(name, os.O_RDONLY, 0) }, name, n, false)
}
