package keeper

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// The conversation between a keeper and its server: whole messages on a
// SOCK_SEQPACKET socket pair, each a JSON header and the descriptors it carries.

// The operations, server → keeper.
const (
	opHello    = "hello"    // the server is up: send everything kept (Recover)
	opKeep     = "keep"     // a run started: its descriptors come with it
	opDrop     = "drop"     // a run ended: close its descriptors, reap its root
	opCloseIn  = "close-in" // a pipe run's stdin was closed: close our copy too
	opHandover = "handover" // the server ends on purpose: start Exe next
	opFail     = "fail"     // the server ends on an error (Err): what the keeper reports
)

// The operations, keeper → server.
const (
	opRun    = "run"    // a kept run, with its descriptors
	opData   = "data"   // output read while no server read
	opExited = "exited" // a kept run's root exited: its wait status
	opReady  = "ready"  // the end of the runs kept
)

// msg is one message's header.
type msg struct {
	Op     string `json:"op"`
	ID     string `json:"id,omitempty"`
	PID    int    `json:"pid,omitempty"`
	PTY    bool   `json:"pty,omitempty"`
	Stream int    `json:"stream,omitempty"`
	Data   []byte `json:"data,omitempty"`
	Status uint32 `json:"status,omitempty"` // a raw wait status
	Lost   bool   `json:"lost,omitempty"`   // exited, but its status is not known
	Exe    string `json:"exe,omitempty"`
	Err    string `json:"err,omitempty"`
}

// chunk bounds the output one data message carries: with its base64 and header it
// stays well inside a socket's send buffer, so a message never fails for its size.
const chunk = 16 << 10

// msgMax is the largest header read; a longer one is cut, which is a broken peer.
const msgMax = 64 << 10

// maxFiles is the most descriptors one message carries (a pipe run's three).
const maxFiles = 3

// conn is one end of the socket pair.
type conn struct {
	c   *net.UnixConn
	wmu sync.Mutex
	buf []byte
	oob []byte
}

func newConn(f *os.File) (*conn, error) {
	nc, err := net.FileConn(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	uc, ok := nc.(*net.UnixConn)
	if !ok {
		nc.Close()
		return nil, errors.New("keeper: not a unix socket")
	}
	return &conn{c: uc, buf: make([]byte, msgMax), oob: make([]byte, unix.CmsgSpace(maxFiles*4))}, nil
}

// pair makes a connected socket pair: ours, and the end a child inherits.
func pair() (*conn, *os.File, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("keeper: socketpair: %w", err)
	}
	c, err := newConn(os.NewFile(uintptr(fds[0]), "keeper"))
	if err != nil {
		unix.Close(fds[1])
		return nil, nil, err
	}
	return c, os.NewFile(uintptr(fds[1]), "keeper-server"), nil
}

// send writes one message with the descriptors fds (ours stay open). Safe from
// several goroutines: a message is written whole or not at all.
func (c *conn) send(m msg, fds ...int) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	var oob []byte
	if len(fds) > 0 {
		oob = unix.UnixRights(fds...)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, _, err := c.c.WriteMsgUnix(b, oob, nil); err != nil {
		return fmt.Errorf("keeper: send %s: %w", m.Op, err)
	}
	return nil
}

// sendFiles is send with the descriptors of files, taken without touching the files.
func (c *conn) sendFiles(m msg, files ...*os.File) error {
	fds, err := dupAll(files)
	if err != nil {
		return err
	}
	defer closeAll(fds)
	return c.send(m, fds...)
}

// recv reads one message and the descriptors it carries, close-on-exec and not yet
// made files: the keeper holds them as numbers, so no poller of its own wakes for
// their every byte. Only one goroutine reads a conn.
func (c *conn) recv() (msg, []int, error) {
	n, oobn, flags, _, err := c.c.ReadMsgUnix(c.buf, c.oob)
	if err != nil {
		return msg{}, nil, err
	}
	if n == 0 {
		return msg{}, nil, errHungUp // a SOCK_SEQPACKET peer that closed
	}
	fds, ferr := parseRights(c.oob[:oobn])
	var m msg
	switch {
	case ferr != nil:
		err = ferr
	case flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0:
		err = errors.New("truncated")
	default:
		err = json.Unmarshal(c.buf[:n], &m)
	}
	if err != nil {
		closeAll(fds)
		return msg{}, nil, fmt.Errorf("%w: %v", errBadMessage, err) // read whole: the next is whole too
	}
	return m, fds, nil
}

func (c *conn) close() error { return c.c.Close() }

var errHungUp = errors.New("keeper: the other end hung up")

// errBadMessage: one message could not be read (cut, malformed, its descriptors lost);
// the connection itself is fine.
var errBadMessage = errors.New("keeper: bad message")

func parseRights(oob []byte) ([]int, error) {
	if len(oob) == 0 {
		return nil, nil
	}
	cmsgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, cm := range cmsgs {
		fds, err := unix.ParseUnixRights(&cm)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			unix.CloseOnExec(fd)
			out = append(out, fd)
		}
	}
	return out, nil
}

// dupAll duplicates each file's descriptor without touching the file: Fd() would put
// a pollable descriptor back in blocking mode.
func dupAll(files []*os.File) ([]int, error) {
	var fds []int
	for _, f := range files {
		rc, err := f.SyscallConn()
		if err != nil {
			closeAll(fds)
			return nil, err
		}
		var dup int
		var derr error
		if err := rc.Control(func(fd uintptr) { dup, derr = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0) }); err != nil || derr != nil {
			closeAll(fds)
			return nil, errors.Join(err, derr)
		}
		fds = append(fds, dup)
	}
	return fds, nil
}

// dupAllFDs duplicates descriptors (close-on-exec).
func dupAllFDs(fds []int) ([]int, error) {
	var out []int
	for _, fd := range fds {
		dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			closeAll(out)
			return nil, err
		}
		out = append(out, dup)
	}
	return out, nil
}

func closeAll(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}
