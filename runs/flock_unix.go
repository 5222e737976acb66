//go:build !windows

package runs

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// fileLock is an flock(2) held on an open file. Files are opened O_CLOEXEC, so a run's
// child never inherits it: an instance lock must die with its instance.
type fileLock struct{ f *os.File }

var errLocked = errors.New("locked by another process")

// lockFile takes an exclusive flock on the file name in d (created if missing).
// blocking waits for it; otherwise a held lock is errLocked.
func lockFile(d *stateDir, name string, blocking bool) (*fileLock, error) {
	f, err := d.open(name, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	return flock(f, blocking)
}

// tryLockFile takes the lock only if it is free and the file exists.
func tryLockFile(d *stateDir, name string) (*fileLock, error) {
	f, err := d.open(name, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	return flock(f, false)
}

// flock locks f, or closes it.
func flock(f *os.File, blocking bool) (*fileLock, error) {
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
			return nil, errLocked
		}
		return nil, err
	}
	return &fileLock{f: f}, nil
}

func (l *fileLock) release() error {
	unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
	return l.f.Close()
}
