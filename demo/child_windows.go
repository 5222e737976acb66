package demo

import "syscall"

// newSessionAttr has no session to create on Windows.
func newSessionAttr() *syscall.SysProcAttr { return nil }

// makeRaw is a no-op on Windows; the keys behaviour is only used over a Unix PTY.
func makeRaw(int) func() { return func() {} }
