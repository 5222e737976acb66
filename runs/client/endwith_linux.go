package client

import (
	"os/exec"
	"syscall"
)

// endWithParent has the kernel end cmd (ssh) when this process dies, however it
// dies (SIGKILL included): an ssh whose far end never hangs up would otherwise
// outlive the UI or verb that started it.
func endWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
}
