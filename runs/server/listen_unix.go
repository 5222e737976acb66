//go:build unix

package server

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"corral/runs/api"
)

// LockName and LogName are the server's files in the state dir besides its socket
// (api.SocketName).
const (
	LockName = "server.lock"
	LogName  = "server.log"
)

// maxSocketPath is sun_path's size less its NUL: a longer path cannot be bound.
const maxSocketPath = 107

// ErrRunning: another server holds the state dir's server lock.
var ErrRunning = errors.New("a corral server is already running for this state dir")

// Listener is the state dir's server socket, held with its lock: while it is open, no
// other server can listen for the same state dir.
type Listener struct {
	*net.UnixListener
	lock *os.File
	Path string
}

// Listen takes the state dir's server lock and listens on its socket. The lock (an
// exclusive flock on server.lock, released by the kernel when the server dies, however
// it dies) makes "one server per state dir" hold even when two start at once; a socket
// file found while holding it is stale (its server died) and is replaced.
func Listen(dir string) (*Listener, error) {
	sock := filepath.Join(dir, api.SocketName)
	if len(sock) > maxSocketPath {
		return nil, fmt.Errorf("socket path %s is %d bytes, over the %d a Unix socket allows: use a shorter --state-dir",
			sock, len(sock), maxSocketPath)
	}
	lock, err := takeLock(filepath.Join(dir, LockName))
	if err != nil {
		return nil, err
	}
	if err := os.Remove(sock); err != nil && !errors.Is(err, os.ErrNotExist) {
		lock.Close()
		return nil, fmt.Errorf("remove stale socket: %w", err)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("listen: %w", err)
	}
	// The state dir is 0700 already; the socket's own mode says the same to anyone who
	// looks at it alone.
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		lock.Close()
		return nil, fmt.Errorf("chmod socket: %w", err)
	}
	return &Listener{UnixListener: ln, lock: lock, Path: sock}, nil
}

// takeLock opens and flocks the server lock, and writes this process's pid into it
// for the message another server gets.
func takeLock(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("server lock: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		b := make([]byte, 32)
		n, _ := f.ReadAt(b, 0)
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w (pid %s)", ErrRunning, strings.TrimSpace(string(b[:n])))
		}
		return nil, fmt.Errorf("server lock: %w", err)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return f, nil
}

// Close stops listening, removes the socket and releases the lock, in that order, so
// that a client never finds a socket with no server while the lock is free.
func (l *Listener) Close() error {
	err := l.UnixListener.Close()
	l.lock.Close()
	return err
}

// OpenLog opens the server's log in the state dir for appending, never through a
// symlink.
func OpenLog(dir string) (*os.File, error) { return openLog(dir, LogName) }

// openLog opens a log in the state dir for appending, never through a link.
func openLog(dir, name string) (*os.File, error) {
	return os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
}
