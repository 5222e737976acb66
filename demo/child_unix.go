//go:build !windows

package demo

import (
	"syscall"

	"golang.org/x/term"
)

// newSessionAttr makes the child a session leader (setsid), as a daemon would.
func newSessionAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// makeRaw puts fd in raw mode when it is a terminal and returns the undo.
func makeRaw(fd int) func() {
	if !term.IsTerminal(fd) {
		return func() {}
	}
	old, err := term.MakeRaw(fd)
	if err != nil {
		return func() {}
	}
	return func() { term.Restore(fd, old) }
}
