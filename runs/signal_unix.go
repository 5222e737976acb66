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

// Pause and resume signals: SIGSTOP cannot be caught or ignored, unlike SIGTSTP, which
// orphaned process groups ignore.
const sigStop, sigCont = syscall.SIGSTOP, syscall.SIGCONT
