package ptyhost

import "syscall"

// intoCgroup makes a start go directly into o's cgroup (clone3 with
// CLONE_INTO_CGROUP, Linux 5.7): no moment exists in which the child, or anything it
// forks, is outside it.
func intoCgroup(a *syscall.SysProcAttr, o Options) *syscall.SysProcAttr {
	if o.InCgroup {
		a.UseCgroupFD, a.CgroupFD = true, o.CgroupFD
	}
	return a
}
