//go:build !linux && !windows

package ptyhost

import "syscall"

// intoCgroup does nothing: cgroups are Linux's.
func intoCgroup(a *syscall.SysProcAttr, _ Options) *syscall.SysProcAttr { return a }
