package runs

import "errors"

// fileLock is not implemented on Windows yet: the registry reports it at open.
type fileLock struct{}

var errLocked = errors.New("locked by another process")

var errNoLocks = errors.New("registry file locks are not supported on windows yet")

func lockFile(*stateDir, string, bool) (*fileLock, error) { return nil, errNoLocks }
func tryLockFile(*stateDir, string) (*fileLock, error)    { return nil, errNoLocks }
func (l *fileLock) release() error                        { return nil }
