//go:build unix

package server

import "syscall"

func daemonAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
