//go:build !windows

package ptyhost

import (
	"testing"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// LineMode reads the terminal's mode through its master: line mode as a PTY starts,
// not once the program on it switched to raw mode.
func TestLineMode(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Skip(err)
	}
	defer master.Close()
	defer tty.Close()
	if on, err := LineMode(master); err != nil || !on {
		t.Fatalf("a new PTY: line mode %v, %v", on, err)
	}
	tio, err := unix.IoctlGetTermios(int(tty.Fd()), ioctlGetTermios)
	if err != nil {
		t.Fatal(err)
	}
	tio.Lflag &^= unix.ICANON | unix.ECHO
	if err := unix.IoctlSetTermios(int(tty.Fd()), ioctlSetTermios, tio); err != nil {
		t.Fatal(err)
	}
	if on, err := LineMode(master); err != nil || on {
		t.Fatalf("after the program's switch to raw mode: line mode %v, %v", on, err)
	}
}
