package runs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"corral/reaper"
)

const fgSupported = true

// fgMembers are the live members of process group pgrp among the run's processes:
// its cgroup's, or its session's (the run's root leads it) on the session backend.
// Each with its argv and executable; a process gone meanwhile is left out.
func fgMembers(cg *reaper.Cgroup, root, pgrp int) []fgProc {
	var pids []int
	if cg != nil {
		pids, _ = cg.Procs()
	}
	if len(pids) == 0 && root > 0 {
		pids = descendants(root)
	}
	var out []fgProc
	for _, pid := range pids {
		p, err := reaper.ReadProc(pid)
		if err != nil || p.PGID != pgrp || p.State == 'Z' || p.State == 'X' {
			continue
		}
		argv, _ := reaper.ReadCmdline(pid)
		exe, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
		out = append(out, fgProc{PID: pid, Start: p.StartTime, Argv: argv, Exe: exe})
	}
	return out
}

// fgAlive says whether the process pid that started at start still lives.
func fgAlive(pid int, start uint64) bool {
	p, err := reaper.ReadProc(pid)
	return err == nil && p.StartTime == start && p.State != 'Z' && p.State != 'X'
}

// fgProcs says which processes may be the run's now, cheaply: its cgroup's members,
// or the last pid the kernel handed out (while it stands still, no process was made
// that a look could find).
func fgProcs(cg *reaper.Cgroup) string {
	if cg != nil {
		if pids, err := cg.Procs(); err == nil {
			return fmt.Sprint(pids)
		}
	}
	pid, _ := reaper.LastPID()
	return strconv.Itoa(pid)
}

// fgNames is the members' names (comm, which an exec changes) as one string.
func fgNames(pids []int) string {
	var b strings.Builder
	for _, pid := range pids {
		if p, err := reaper.ReadProc(pid); err == nil {
			b.WriteString(p.Comm)
		}
		b.WriteByte(0)
	}
	return b.String()
}

// descendants are root and the processes below it, read from each task's children
// file (a few reads for a run's tree, where a scan of /proc reads every process); a
// scan of root's session where the kernel has no children files or root is gone.
func descendants(root int) []int {
	pids := []int{root}
	for i := 0; i < len(pids) && len(pids) < 4096; i++ {
		dir := "/proc/" + strconv.Itoa(pids[i]) + "/task"
		tasks, err := os.ReadDir(dir)
		if err != nil && i == 0 {
			return sessionPIDs(root) // the root is gone: what it left may still run
		}
		for _, t := range tasks {
			b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
			if errors.Is(err, fs.ErrNotExist) && i == 0 {
				return sessionPIDs(root)
			}
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil {
					pids = append(pids, pid)
				}
			}
		}
	}
	return pids
}

func sessionPIDs(sid int) []int {
	procs, _ := reaper.Session(sid)
	pids := make([]int, len(procs))
	for i, p := range procs {
		pids[i] = p.PID
	}
	return pids
}
