package runs

import (
	"os"
	"path/filepath"
	"strconv"
)

// openHolders are the pids of the processes that hold path open (a /proc/PID/fd link
// to it), nil when none is seen. It reads every process's descriptors: called while a
// run's conversation id is being learnt from its session file, on an agent-state
// change, never by polling.
func openHolders(path string) []int {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		fds, err := os.ReadDir("/proc/" + p.Name() + "/fd")
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if l, err := os.Readlink("/proc/" + p.Name() + "/fd/" + fd.Name()); err == nil && l == path {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}
