//go:build !windows

package runs

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// fileLock is an flock(2) held on an open file. Go opens files with O_CLOEXEC, so a
// run's child never inherits it: an instance lock must die with its instance.
type fileLock struct{ f *os.File }

var errLocked = errors.New("locked by another process")

// lockFile takes an exclusive flock on path (created if missing). blocking waits for
// it; otherwise a held lock is errLocked.
func lockFile(path string, blocking bool) (*fileLock, error) {
	f, err := openState(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	how := unix.LOCK_EX
	if !blocking {
		how |= unix.LOCK_NB
	}
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

// tryLockFile takes the lock only if it is free and the file exists.
func tryLockFile(path string) (*fileLock, error) {
	if _, err := os.Lstat(path); err != nil {
		return nil, err
	}
	return lockFile(path, false)
}

func (l *fileLock) release() error {
	unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
	return l.f.Close()
}
