package keeper

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// Client is a server's side of its keeper: what it hands over as runs start and end,
// and what it takes back when it starts after another server (Recover).
type Client struct {
	c     *conn
	mu    sync.Mutex
	exits map[string]*Exit
	gone  chan struct{} // closed when the keeper hung up
}

// Run is a run a previous server started, as its keeper kept it.
type Run struct {
	ID  string
	PID int
	PTY bool
	// Files are the PTY master; or stdin (nil once it was closed), stdout and stderr.
	Files []*os.File
	// Output is what the keeper read while no server read, by stream (stdout first).
	Output [2][]byte
	Exit   *Exit
}

// Exit is a kept run's root's exit, as its keeper (now its parent) observed it.
type Exit struct {
	done   chan struct{}
	status syscall.WaitStatus
	known  bool
}

// Done is closed once the root has exited.
func (e *Exit) Done() <-chan struct{} { return e.done }

// Status is the root's wait status, once Done is closed; ok is false when it is not
// known (its server reaped it before it ended).
func (e *Exit) Status() (ws syscall.WaitStatus, ok bool) { return e.status, e.known }

// FromEnv is the client of the keeper that started this process, or nil when none
// did. The variable is removed from the environment so no run inherits it.
func FromEnv() (*Client, error) {
	v, ok := os.LookupEnv(EnvFD)
	if !ok {
		return nil, nil
	}
	os.Unsetenv(EnvFD)
	nameSelf()
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil, fmt.Errorf("keeper: bad %s=%q", EnvFD, v)
	}
	syscall.CloseOnExec(fd)
	c, err := newConn(os.NewFile(uintptr(fd), "keeper"))
	if err != nil {
		return nil, err
	}
	return &Client{c: c, exits: map[string]*Exit{}, gone: make(chan struct{})}, nil
}

// Recover takes back every run the keeper keeps, then follows their exits. Call it
// once, before starting any run.
func (k *Client) Recover() ([]Run, error) {
	if err := k.c.send(msg{Op: opHello}); err != nil {
		return nil, err
	}
	var out []Run
	byID := map[string]int{}
	for {
		m, fds, err := k.c.recv()
		if errors.Is(err, errBadMessage) {
			continue
		}
		if err != nil {
			closeFiles(out)
			return nil, fmt.Errorf("keeper: recover: %w", err)
		}
		switch m.Op {
		case opRun:
			r := Run{ID: m.ID, PID: m.PID, PTY: m.PTY, Exit: &Exit{done: make(chan struct{})}}
			if !m.PTY && m.Stream == -1 {
				r.Files = append(r.Files, nil) // stdin was closed
			}
			for _, fd := range fds {
				r.Files = append(r.Files, os.NewFile(uintptr(fd), m.ID))
			}
			byID[m.ID] = len(out)
			out = append(out, r)
			k.exits[m.ID] = r.Exit
		case opData:
			if i, ok := byID[m.ID]; ok && m.Stream >= 0 && m.Stream < 2 {
				out[i].Output[m.Stream] = append(out[i].Output[m.Stream], m.Data...)
			}
		case opExited:
			k.exited(m)
		case opReady:
			go k.follow()
			return out, nil
		}
	}
}

// follow takes the keeper's messages after Recover: exits of recovered runs.
func (k *Client) follow() {
	defer close(k.gone)
	for {
		m, fds, err := k.c.recv()
		closeAll(fds)
		if errors.Is(err, errBadMessage) {
			continue
		}
		if err != nil {
			return
		}
		if m.Op == opExited {
			k.exited(m)
		}
	}
}

func (k *Client) exited(m msg) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e := k.exits[m.ID]
	if e == nil {
		return
	}
	delete(k.exits, m.ID)
	e.status, e.known = syscall.WaitStatus(m.Status), !m.Lost
	close(e.done)
}

// closeFiles closes the descriptors of runs not taken.
func closeFiles(runs []Run) {
	for _, r := range runs {
		for _, f := range r.Files {
			if f != nil {
				f.Close()
			}
		}
	}
}

// Gone is closed when the keeper hung up: runs started from then on outlive nothing,
// and the roots it held are no longer pinned (nor their exits reported).
func (k *Client) Gone() <-chan struct{} { return k.gone }

// Keep hands the keeper a copy of a started run's descriptors: the PTY master, or
// stdin, stdout and stderr.
func (k *Client) Keep(id string, pid int, pty bool, files ...*os.File) error {
	if pty && len(files) != 1 || !pty && len(files) != 3 {
		return errors.New("keeper: keep: a PTY run has one descriptor, a pipe run three")
	}
	return k.c.sendFiles(msg{Op: opKeep, ID: id, PID: pid, PTY: pty}, files...)
}

// Drop tells the keeper the run has ended: it closes its copies and reaps the root
// if it is its child.
func (k *Client) Drop(id string) error { return k.c.send(msg{Op: opDrop, ID: id}) }

// CloseInput tells the keeper a pipe run's stdin was closed, so its copy does not keep
// the run from reading EOF.
func (k *Client) CloseInput(id string) error { return k.c.send(msg{Op: opCloseIn, ID: id}) }

// Handover tells the keeper this server ends on purpose and exe is the binary to
// start next (corral server --upgrade).
func (k *Client) Handover(exe string) error { return k.c.send(msg{Op: opHandover, Exe: exe}) }

// Fail tells the keeper this server ends on err, before it exits: the keeper reports
// it when no server comes up (keeper.log, keeper.status), where the server's own
// stderr may go nowhere.
func (k *Client) Fail(err error) error { return k.c.send(msg{Op: opFail, Err: err.Error()}) }

// nameSelf gives the server the name of its binary. The keeper starts it through
// /proc/self/fd/N (the binary it holds open), so the kernel names it "N" after that
// path: ps, top and pgrep would show a number, not corral. The name is the main
// thread's, which /proc/self/comm names from any thread.
func nameSelf() {
	name := filepath.Base(os.Args[0])
	if len(name) > 15 {
		name = name[:15] // the kernel's limit
	}
	_ = os.WriteFile("/proc/self/comm", []byte(name), 0)
}
