package statefile

import (
	"fmt"
	"os"
	"sync"
	"time"

	"corral/runs/filetail"
)

// Log is a file in a state dir that several processes append to at once, one whole
// line per Write (O_APPEND: a line written in one write(2) is never interleaved with
// another's), bounded: once it holds limit bytes it becomes NAME.1 (the one before
// that goes) and a new NAME is begun, so a server that runs for weeks keeps two files'
// worth of lines, not everything since it was installed. Whichever process sees the
// file full first moves it, under the lock file NAME.lock, and only if the name is
// still the file it writes to; the others see the name is another file now and open
// that.
type Log struct {
	dir   *Dir
	name  string
	limit int64
	mu    sync.Mutex // f, and a write against a rotation
	f     *os.File

	// While held (Hold), what is written is gathered in buf and written in one
	// write(2) per holdFlush (flush pending), per holdMax bytes, and at Release.
	held    bool
	buf     []byte
	pending bool
}

// holdFlush bounds how long a held line waits to be written: what a crash may lose of
// the log while it is held. holdMax bounds what is gathered.
const (
	holdFlush = 50 * time.Millisecond
	holdMax   = 64 << 10
)

// OpenLog opens name in dir for appending, rotated at limit bytes.
func OpenLog(dir *Dir, name string, limit int64) (*Log, error) {
	l := &Log{dir: dir, name: name, limit: limit}
	f, err := l.open()
	if err != nil {
		return nil, err
	}
	l.f = f
	return l, nil
}

func (l *Log) open() (*os.File, error) {
	f, err := l.dir.Open(l.name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	return f, nil
}

// Write appends p, one line, to the log's file of the moment.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held {
		l.buf = append(l.buf, p...)
		if len(l.buf) >= holdMax {
			l.flushLocked()
		} else if !l.pending {
			l.pending = true
			time.AfterFunc(holdFlush, l.flush)
		}
		return len(p), nil
	}
	return l.writeLocked(p)
}

func (l *Log) writeLocked(p []byte) (int, error) {
	if st, err := StampOf(l.f); err == nil && st.Size >= l.limit {
		l.rotateLocked(st)
	}
	return l.f.Write(p)
}

// Hold gathers the lines written from now on, to write many in one write(2) (a
// shutdown's thousands of events; each line stays whole, O_APPEND writes one write's
// bytes together), until Release.
func (l *Log) Hold() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held = true
}

// Release writes what Hold gathered and writes each line at once again.
func (l *Log) Release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held = false
	l.flushLocked()
}

func (l *Log) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = false
	l.flushLocked()
}

func (l *Log) flushLocked() {
	if len(l.buf) == 0 {
		return
	}
	l.writeLocked(l.buf) // a failed write loses the lines, as a failed Write did
	l.buf = l.buf[:0]
}

// rotateLocked moves the full file (mine, its stamp) aside as NAME.1 unless another
// process did already, and opens NAME afresh. Where there is no lock (Windows),
// nothing is moved: an open file cannot be renamed there anyway.
func (l *Log) rotateLocked(mine Stamp) {
	lk, err := l.dir.Lock(l.name+".lock", true)
	if err != nil {
		return
	}
	defer lk.Release()
	if named, err := l.dir.Stamp(l.name); err == nil && named.Ino == mine.Ino {
		if err := l.dir.Rename(l.name, l.dir, l.name+filetail.Rotated); err != nil {
			return
		}
	}
	f, err := l.open()
	if err != nil {
		return // the full file is written to on: nothing is lost
	}
	l.f.Close()
	l.f = f
}

// Close writes what is held and closes the log's file.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held = false
	l.flushLocked()
	return l.f.Close()
}
