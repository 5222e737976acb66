package ptyhost

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"corral/ptyhost/hoptrace"
)

// Stream names one output stream of a run.
type Stream uint8

const (
	Stdout Stream = iota // PTY output is always Stdout
	Stderr
)

func (s Stream) String() string {
	switch s {
	case Stdout:
		return "stdout"
	case Stderr:
		return "stderr"
	}
	return fmt.Sprintf("Stream(%d)", uint8(s))
}

// Fallbacks for zero Options fields. The configured values come from config/;
// these only keep a zero Options usable (a 0×0 terminal breaks every TUI).
const (
	DefaultCols       = 80
	DefaultRows       = 24
	DefaultWriteQueue = 1 << 20
)

// readBufSize is the size of a reader's buffer, taken from readBufs for a read
// and given back after it.
const readBufSize = 32 << 10

var readBufs = sync.Pool{New: func() any { b := make([]byte, readBufSize); return &b }}

// past is a deadline that has always expired: setting it ends a blocked Read or
// Write on a pollable file at once, and every later one too.
var past = time.Unix(1, 0)

// Options says how to host a command.
type Options struct {
	PTY bool
	// Cols and Rows size the PTY before the child starts, so its first look at
	// the terminal is already right. Zero means DefaultCols/DefaultRows.
	Cols, Rows uint16
	// OnOutput gets every chunk of output, called from the stream's reader
	// goroutine (one per stream, so two may call it at once on a pipe run).
	// p is valid only during the call. It must be fast: a slow callback stalls
	// the reader and a stalled reader blocks the child once the kernel buffer
	// fills. Nil discards output (it is still drained).
	OnOutput func(s Stream, p []byte)
	// OnChildResize, on a PTY run, is called from the reader before each chunk of
	// output that follows a window size the child set on its own terminal (the
	// master is told nothing of that): one ioctl per read. Nil: not watched.
	OnChildResize func(cols, rows uint16)
	// WriteQueue caps the bytes of input queued and not yet written; Write
	// returns ErrInputFull beyond it. Zero means DefaultWriteQueue.
	WriteQueue int
	// Hold starts the child held: it exists (pid, start time, session final) but
	// runs nothing of its program until Release; Close before Release ends it
	// having run nothing (see hold_unix.go).
	Hold bool
	// InCgroup starts the child directly inside the cgroup whose directory CgroupFD is
	// open on (Linux: CLONE_INTO_CGROUP), so nothing it forks is ever outside it.
	InCgroup bool
	CgroupFD int
}

// Proc is one hosted child: its input queue and writer, its readers and its
// file descriptors. It never signals the child; see package reaper.
type Proc struct {
	pid      int
	term     *os.File   // the PTY master; nil for a pipe run
	outs     []*os.File // read ends, indexed by Stream
	files    []*os.File // every parent-side fd, closed by Close
	in       *writer
	onOutput func(Stream, []byte)

	sizeMu     sync.Mutex
	cols, rows uint16

	reading    atomic.Int32 // readers not yet ended
	outputDone chan struct{}

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error

	holdMu sync.Mutex
	hold   *hold // a child started with Options.Hold and not yet released
}

// Start starts cmd in its own session and hosts its I/O; see the package doc.
// The caller sets cmd.Path, Args, Dir and Env, and must leave Stdin, Stdout,
// Stderr and SysProcAttr nil (ErrBadCmd otherwise): the host alone decides what
// the child's stdio is, so it never gets Corral's own terminal. If the start
// fails, no goroutine is left and every fd is closed; the cause is wrapped, so
// errors.Is(err, exec.ErrNotFound), fs.ErrNotExist or fs.ErrPermission work.
func Start(cmd *exec.Cmd, o Options) (*Proc, error) {
	if err := checkCmd(cmd); err != nil {
		return nil, err
	}
	if o.WriteQueue <= 0 {
		o.WriteQueue = DefaultWriteQueue
	}
	if !o.PTY {
		return startPipe(cmd, o)
	}
	if o.Cols == 0 {
		o.Cols = DefaultCols
	}
	if o.Rows == 0 {
		o.Rows = DefaultRows
	}
	return startPTY(cmd, o)
}

func checkCmd(cmd *exec.Cmd) error {
	switch {
	case cmd == nil:
		return fmt.Errorf("%w: nil command", ErrBadCmd)
	case cmd.Process != nil:
		return fmt.Errorf("%w: already started", ErrBadCmd)
	case cmd.Stdin != nil, cmd.Stdout != nil, cmd.Stderr != nil, cmd.SysProcAttr != nil:
		return ErrBadCmd
	}
	return nil
}

// newPTYProc hosts a started PTY child: one pollable master for input and
// output.
func newPTYProc(pid int, master *os.File, o Options) *Proc {
	p := &Proc{pid: pid, term: master, files: []*os.File{master}, cols: o.Cols, rows: o.Rows}
	p.in = newWriter(master, false, o.WriteQueue)
	out := o.OnOutput
	if resized := o.OnChildResize; resized != nil {
		out = func(s Stream, b []byte) {
			if cols, rows, changed := p.syncSize(); changed {
				resized(cols, rows)
			}
			if o.OnOutput != nil {
				o.OnOutput(s, b)
			}
		}
	}
	p.startReaders(out, master)
	return p
}

// newPipeProc hosts a started pipe child through the parent's pipe ends.
func newPipeProc(pid int, stdin, stdout, stderr *os.File, o Options) *Proc {
	p := &Proc{pid: pid, files: []*os.File{stdin, stdout, stderr}}
	p.in = newWriter(stdin, true, o.WriteQueue)
	p.startReaders(o.OnOutput, stdout, stderr)
	return p
}

func (p *Proc) startReaders(onOutput func(Stream, []byte), outs ...*os.File) {
	p.onOutput = onOutput
	p.outs = outs
	p.outputDone = make(chan struct{})
	p.reading.Store(int32(len(outs)))
	for i, f := range outs {
		go p.drain(Stream(i), f)
	}
}

// drain reads s until it ends, handing every chunk to OnOutput. It never
// stops early for lack of a consumer: a PTY or pipe that nobody empties blocks
// the child's next write. Each read takes its buffer only once the output is
// readable (readChunk), so an idle run holds none.
func (p *Proc) drain(s Stream, f *os.File) {
	defer p.readerDone()
	for {
		err := readChunk(f, func(b []byte) {
			hoptrace.MarkBytes("pty.read", b)
			if p.onOutput != nil {
				p.onOutput(s, b)
			}
		})
		// io.EOF on a pipe; EIO on a Linux PTY master once the last holder of
		// the slave is gone (that is its EOF); a deadline or close when forced.
		if err != nil {
			return
		}
	}
}

func (p *Proc) readerDone() {
	if p.reading.Add(-1) == 0 {
		close(p.outputDone)
	}
}

// PID is the child's pid, which is also its process group and session id.
func (p *Proc) PID() int { return p.pid }

// PTY reports whether the child runs on a PTY.
func (p *Proc) PTY() bool { return p.term != nil }

// Write queues a copy of b for the child's stdin (the PTY input on a PTY run)
// and returns at once; one writer goroutine writes the queue in order, so a
// child that never reads cannot block the caller. It returns ErrInputFull when
// b does not fit in the queue (nothing is queued; a b longer than WriteQueue
// never fits), and ErrClosed after
// CloseStdin, Close or a failed write (the failure is wrapped with it).
func (p *Proc) Write(b []byte) error { return p.in.write(b) }

// CloseStdin closes a pipe run's stdin once the queued input is written, so
// the child reads EOF. A PTY has no separate stdin: ErrNotPipe (write ^D at
// the start of a line instead).
func (p *Proc) CloseStdin() error {
	if p.PTY() {
		return ErrNotPipe
	}
	return p.in.closeInput()
}

// Resize sets the PTY window size on the master; the kernel sends SIGWINCH to
// the foreground process group. ErrNotPTY on a pipe run.
func (p *Proc) Resize(cols, rows uint16) error {
	if !p.PTY() {
		return ErrNotPTY
	}
	if p.closed.Load() {
		return ErrClosed
	}
	p.sizeMu.Lock()
	defer p.sizeMu.Unlock()
	if err := setWinsize(p.term, cols, rows); err != nil {
		return fmt.Errorf("resize pty: %w", err)
	}
	p.cols, p.rows = cols, rows
	return nil
}

// syncSize reads the PTY's window size as the kernel has it and reports whether it
// differs from the size last set or seen: the child may set it itself, from the
// slave side (a replay following its recording's resizes), and the master is told
// nothing of that. A pipe run never changes.
func (p *Proc) syncSize() (cols, rows uint16, changed bool) {
	if p.term == nil {
		return 0, 0, false
	}
	c, r, err := getWinsize(p.term)
	p.sizeMu.Lock()
	defer p.sizeMu.Unlock()
	if err != nil || c == 0 || r == 0 || (c == p.cols && r == p.rows) {
		return p.cols, p.rows, false
	}
	p.cols, p.rows = c, r
	return c, r, true
}

// Size is the PTY window size last set; 0, 0 on a pipe run.
func (p *Proc) Size() (cols, rows uint16) {
	p.sizeMu.Lock()
	defer p.sizeMu.Unlock()
	return p.cols, p.rows
}

// ForegroundPgrp is the PTY's foreground process group, as the kernel has it: the
// program the terminal belongs to now (a shell's job, the agent a script started
// with job control). ErrNotPTY on a pipe run; one ioctl, cheap enough per output.
func (p *Proc) ForegroundPgrp() (int, error) {
	if !p.PTY() {
		return 0, ErrNotPTY
	}
	if p.closed.Load() {
		return 0, ErrClosed
	}
	return getPgrp(p.term)
}

// OutputDone is closed once every reader has ended: EOF, EIO on the PTY
// master, or forced by FinishOutput or Close.
func (p *Proc) OutputDone() <-chan struct{} { return p.outputDone }

// FinishOutput waits up to d for the readers to end on their own, then ends
// them, and reports whether it had to. It bounds the drain after the root
// exits: a grandchild (or an escapee) that keeps the slave or a pipe open
// would otherwise hold the run forever. Output still unread when it forces is
// dropped; the fds stay open until Close.
func (p *Proc) FinishOutput(d time.Duration) (forced bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.outputDone:
		return false
	case <-t.C:
	}
	select {
	case <-p.outputDone:
		return false
	default:
	}
	p.endReaders()
	<-p.outputDone
	return true
}

// endReaders makes every blocked and later Read fail at once. The deadline
// works because every read end is pollable (the PTY master is re-opened
// non-blocking at start); closing is the fallback should it not be.
func (p *Proc) endReaders() {
	for _, f := range p.outs {
		if f.SetReadDeadline(past) != nil {
			f.Close()
		}
	}
}

// Detach ends the readers and waits for them, leaving every descriptor open and the
// child as it is: output not read yet stays in the kernel for whoever reads next (a
// server that hands its runs over to the keeper).
func (p *Proc) Detach() {
	p.endReaders()
	<-p.outputDone
}

// Close stops the writer (dropping queued input), ends the readers if still
// running, waits for all of them and closes every fd. It never signals the
// child itself, but closing the last PTY master hangs up the slave, and the
// kernel then sends SIGHUP to a session leader still alive: close after the
// run has been terminated. Idempotent; later calls return the first result.
func (p *Proc) Close() error {
	p.closeOnce.Do(func() {
		p.closed.Store(true)
		p.abortHold() // never released: the held child exits having run nothing
		p.in.stop()
		p.endReaders()
		<-p.outputDone
		for _, f := range p.files {
			err := f.Close()
			if err != nil && !errors.Is(err, os.ErrClosed) && p.closeErr == nil {
				p.closeErr = fmt.Errorf("close %s: %w", f.Name(), err)
			}
		}
	})
	return p.closeErr
}

// Files are the parent's descriptors of the child's stdio: the PTY master; or stdin,
// stdout and stderr of a pipe run. They stay the Proc's: a keeper gets copies (so
// runs outlive their server), and a later server hosts the same child with them again (Resume).
func (p *Proc) Files() []*os.File { return p.files }

// WindowSize is the window size of the PTY whose master f is, as the kernel has it.
func WindowSize(f *os.File) (cols, rows uint16, err error) { return getWinsize(f) }

// Resume hosts a child another process started, through the descriptors that process
// handed on (Files): the PTY master; or stdin (nil when it was closed), stdout and
// stderr. Reading starts at once, so output the caller holds from before must be
// handed to OnOutput first. Options.Hold and the cgroup fields do not apply.
func Resume(pid int, files []*os.File, o Options) (*Proc, error) {
	if o.WriteQueue <= 0 {
		o.WriteQueue = DefaultWriteQueue
	}
	switch len(files) {
	case 1:
		cols, rows, err := getWinsize(files[0])
		if err != nil {
			return nil, fmt.Errorf("resume pty: %w", err)
		}
		o.Cols, o.Rows = cols, rows
		return newPTYProc(pid, files[0], o), nil
	case 3:
		p := newPipeProc(pid, files[0], files[1], files[2], o)
		if files[0] == nil {
			p.in.closeInput() // closed before: the child has read its EOF
			p.files = files[1:]
		}
		return p, nil
	}
	return nil, fmt.Errorf("%w: resume takes 1 (PTY) or 3 (pipes) descriptors, not %d", ErrBadCmd, len(files))
}
