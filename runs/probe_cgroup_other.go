//go:build !linux

package runs

import "os/exec"

// probeInRunCgroup: cgroups are Linux's; elsewhere a probe is in its own group only.
func (r *run) probeInRunCgroup(*exec.Cmd) func() { return func() {} }
