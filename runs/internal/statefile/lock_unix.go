//go:build !windows

package statefile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// Lock is an flock(2) held on an open file. Files are opened O_CLOEXEC, so a run's
// child never inherits it: an instance lock must die with its instance.
type Lock struct{ f *os.File }

// ErrLocked: the lock is held by another open file (another process, or another
// holder in this one).
var ErrLocked = errors.New("locked by another process")

// Lock takes an exclusive flock on the file name in d (created if missing).
// blocking waits for it; otherwise a held lock is ErrLocked.
func (d *Dir) Lock(name string, blocking bool) (*Lock, error) {
	f, err := d.Open(name, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	return flock(f, blocking)
}

// TryLock takes the lock only if it is free and the file exists.
func (d *Dir) TryLock(name string) (*Lock, error) {
	f, err := d.Open(name, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	return flock(f, false)
}

// flock locks f, or closes it.
func flock(f *os.File, blocking bool) (*Lock, error) {
	how := unix.LOCK_EX
	if !blocking {
		how |= unix.LOCK_NB
	}
	var err error
	for {
		err = unix.Flock(int(f.Fd()), how)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, err
	}
	return &Lock{f: f}, nil
}

// Release lets the lock go and closes its file.
func (l *Lock) Release() error {
	unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
	return l.f.Close()
}
