//go:build !windows

package runs

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
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

// ParseSignal reads a signal by name ("SIGINT", "INT", case-insensitive) or number.
func ParseSignal(s string) (syscall.Signal, error) {
	if n, err := strconv.Atoi(s); err == nil && n > 0 && n < 65 {
		return syscall.Signal(n), nil
	}
	name := strings.ToUpper(s)
	if !strings.HasPrefix(name, "SIG") {
		name = "SIG" + name
	}
	if sig := unix.SignalNum(name); sig != 0 {
		return sig, nil
	}
	return 0, fmt.Errorf("unknown signal %q", s)
}

// inOwnGroup starts cmd in a process group of its own, which (and only which) a
// cancelled cmd's context kills: a [notify] command that outlives its limit.
func inOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
