//go:build !windows

package runs

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// SignalName is the conventional name of a signal number ("SIGTERM").
func SignalName(n int) string {
	if name := unix.SignalName(syscall.Signal(n)); name != "" {
		return name
	}
	return fmt.Sprintf("SIG%d", n)
}
