//go:build !windows

package runs

import (
	"errors"
	"syscall"
)

const (
	oNoFollow = syscall.O_NOFOLLOW
	oNonBlock = syscall.O_NONBLOCK
)

// isLinkLoop: O_NOFOLLOW met a symlink as the last component.
func isLinkLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }
