package statefile

import "errors"

// Lock is not implemented on Windows yet: the registry reports it at open.
type Lock struct{}

// ErrLocked: the lock is held by another open file.
var ErrLocked = errors.New("locked by another process")

var errNoLocks = errors.New("registry file locks are not supported on windows yet")

func (d *Dir) Lock(string, bool) (*Lock, error) { return nil, errNoLocks }
func (d *Dir) TryLock(string) (*Lock, error)    { return nil, errNoLocks }
func (l *Lock) Release() error                  { return nil }
