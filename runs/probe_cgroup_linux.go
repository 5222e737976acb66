package runs

import (
	"os/exec"

	"golang.org/x/sys/unix"
)

// probeInRunCgroup starts an exec probe's command inside its run's cgroup, where
// there is one: the probe is the run's, counted in what it uses and ended with it.
// The returned func closes what the start needed.
func (r *run) probeInRunCgroup(cmd *exec.Cmd) func() {
	if r.cgroup == nil || cmd.SysProcAttr == nil {
		return func() {}
	}
	fd, err := r.cgroup.FD()
	if err != nil {
		return func() {}
	}
	cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
	return func() { unix.Close(fd) }
}
