package runs

import (
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
		procs, _ := reaper.Session(root)
		for _, p := range procs {
			pids = append(pids, p.PID)
		}
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

// fgLastPID is the last pid the kernel handed out: while it stands still, no process
// was made that a look could find.
func fgLastPID() int {
	pid, _ := reaper.LastPID()
	return pid
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
