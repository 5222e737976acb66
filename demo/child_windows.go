package demo

import "syscall"

// newSessionAttr has no session to create on Windows.
func newSessionAttr() *syscall.SysProcAttr { return nil }

// makeRaw is a no-op on Windows; the keys behaviour is only used over a Unix PTY.
func makeRaw(int) func() { return func() {} }

// setTermSize is a no-op on Windows: replays run in a Unix PTY.
func setTermSize(int, uint16, uint16) error { return nil }

// DefaultSignalsForChildren has nothing to do on Windows: no signal is inherited.
func DefaultSignalsForChildren() {}
