//go:build !windows

package ptyhost

import (
	"os"

	"golang.org/x/sys/unix"
)

// LineMode reports whether the terminal whose master f is is in canonical (line)
// mode, as a program leaves it until it takes keys one by one: the kernel then holds
// what is typed until a newline, and echoes it. A full-screen app that switches to
// raw mode later may discard what was typed meanwhile (TCSAFLUSH). Read without
// putting f in blocking mode.
func LineMode(f *os.File) (bool, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return false, err
	}
	var t *unix.Termios
	var ioErr error
	if err := rc.Control(func(fd uintptr) { t, ioErr = unix.IoctlGetTermios(int(fd), ioctlGetTermios) }); err != nil {
		return false, err
	}
	if ioErr != nil {
		return false, ioErr
	}
	return t.Lflag&unix.ICANON != 0, nil
}
