//go:build !windows

package ptyhost

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// nonblocking reports whether f's descriptor is non-blocking (a PTY master made
// pollable, a pipe from os.Pipe): only then may a write be tried on the caller's
// path, where it must never block.
func nonblocking(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	flags, ferr := 0, error(nil)
	if rc.Control(func(fd uintptr) { flags, ferr = unix.FcntlInt(fd, unix.F_GETFL, 0) }) != nil || ferr != nil {
		return false
	}
	return flags&unix.O_NONBLOCK != 0
}

// tryWrite writes what f takes of b at once, without waiting: one write(2) on the
// non-blocking descriptor. It returns how much was written; a full buffer (EAGAIN)
// or any error writes nothing more here, and the writer's goroutine takes the rest
// (and meets the error itself, where it is handled).
func tryWrite(f *os.File, b []byte) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	rc.Write(func(fd uintptr) bool {
		for {
			m, werr := syscall.Write(int(fd), b)
			if werr == syscall.EINTR {
				continue
			}
			if m > 0 {
				n = m
			}
			return true // one try: never wait in the poller on the caller's path
		}
	})
	return n
}
