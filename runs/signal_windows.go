package runs

import (
	"fmt"
	"os/exec"
	"syscall"
)

// SignalName is the signal's number on Windows, which has no POSIX signal names.
func SignalName(n int) string { return fmt.Sprintf("SIG%d", n) }

// Windows has no SIGSTOP/SIGCONT; the reaper refuses to signal there, so these values
// only keep the package compiling (pausing reports reaper.ErrNotSupported).
const sigStop, sigCont = syscall.Signal(19), syscall.Signal(18)

// ParseSignal accepts only numbers on Windows.
func ParseSignal(s string) (syscall.Signal, error) {
	var n int
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil || n <= 0 {
		return 0, fmt.Errorf("unknown signal %q", s)
	}
	return syscall.Signal(n), nil
}

// inOwnGroup leaves cmd as it is on Windows: a cancelled context kills the process.
func inOwnGroup(*exec.Cmd) {}
