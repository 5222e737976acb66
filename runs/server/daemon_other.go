//go:build !unix

package server

import "syscall"

func daemonAttr() *syscall.SysProcAttr { return nil }

// CloseInherited: nothing is inherited here but what the parent names.
func CloseInherited() {}
