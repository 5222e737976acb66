//go:build !windows

package ptyhost

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// startPTY opens a PTY, sizes it, and starts cmd on the slave as the leader
// of a new session with the slave as its controlling terminal (what
// pty.StartWithAttrs does with Setsid+Setctty). It opens the PTY itself
// rather than calling StartWithAttrs so that the master can be made pollable
// before the child exists: every step that can fail comes before cmd.Start,
// and a failure never leaves a running child behind.
func startPTY(cmd *exec.Cmd, o Options) (*Proc, error) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("open pty: %w", err)
	}
	defer tty.Close() // the child holds its own copies once started
	master, err := pollable(ptmx)
	if err != nil {
		return nil, fmt.Errorf("open pty: %w", err)
	}
	if err := setWinsize(master, o.Cols, o.Rows); err != nil {
		master.Close()
		return nil, fmt.Errorf("size pty: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	// Ctty is a descriptor number in the child: 0, the slave as stdin.
	cmd.SysProcAttr = intoCgroup(&syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}, o)
	h, err := startCmd(cmd, o)
	if err != nil {
		master.Close()
		return nil, fmt.Errorf("start: %w", err)
	}
	p := newPTYProc(cmd.Process.Pid, master, o)
	p.hold = h
	return p, nil
}

// pollable replaces the master creack/pty returns with a non-blocking
// duplicate that Go's poller manages, and closes the original.
//
// creack/pty calls (*os.File).Fd() for its ioctls, which puts the master in
// blocking mode for good; a Read blocked in the kernel then holds the fd, so
// Close and deadlines cannot end it (measured: master.Close returned nil and the fd
// stayed open, with no hangup; creack/pty#162 and #174). A descriptor made non-blocking before os.NewFile is registered with
// the poller, so SetReadDeadline and Close do end a blocked Read. O_NONBLOCK
// lives on the shared open file description; the child's slave is a
// different description and stays blocking.
func pollable(ptmx *os.File) (*os.File, error) {
	defer ptmx.Close()
	rc, err := ptmx.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd, dupErr := -1, error(nil)
	if err := rc.Control(func(old uintptr) {
		fd, dupErr = unix.FcntlInt(old, unix.F_DUPFD_CLOEXEC, 0)
	}); err != nil {
		return nil, err
	}
	if dupErr != nil {
		return nil, fmt.Errorf("dup master: %w", dupErr)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("set master non-blocking: %w", err)
	}
	return os.NewFile(uintptr(fd), ptmx.Name()), nil
}

// startPipe starts cmd as the leader of a new session with three pipes for
// stdin, stdout and stderr, kept apart. Setsid and never Setpgid: a child
// left in Corral's session can open Corral's terminal through /dev/tty and
// be stopped by SIGTTIN (seen: a Setpgid run's `read x < /dev/tty` hung until its
// timeout).
func startPipe(cmd *exec.Cmd, o Options) (*Proc, error) {
	var fds [6]*os.File // child stdin, parent stdin, parent stdout, child stdout, parent stderr, child stderr
	closeAll := func(fs ...*os.File) {
		for _, f := range fs {
			if f != nil {
				f.Close()
			}
		}
	}
	for i := 0; i < len(fds); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(fds[:]...)
			return nil, fmt.Errorf("pipe: %w", err)
		}
		fds[i], fds[i+1] = r, w
	}
	inR, inW, outR, outW, errR, errW := fds[0], fds[1], fds[2], fds[3], fds[4], fds[5]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = intoCgroup(&syscall.SysProcAttr{Setsid: true}, o)
	h, err := startCmd(cmd, o)
	closeAll(inR, outW, errW) // the child's ends: ours must go, or EOF never comes
	if err != nil {
		closeAll(inW, outR, errR)
		return nil, fmt.Errorf("start: %w", err)
	}
	p := newPipeProc(cmd.Process.Pid, inW, outR, errR, o)
	p.hold = h
	return p, nil
}

// setWinsize sets the window size through RawConn.Control, never through
// Fd(), which would put the master back into blocking mode.
// getWinsize reads the PTY's window size.
func getWinsize(f *os.File) (cols, rows uint16, err error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, 0, err
	}
	var ws *unix.Winsize
	var ioErr error
	err = rc.Control(func(fd uintptr) { ws, ioErr = unix.IoctlGetWinsize(int(fd), unix.TIOCGWINSZ) })
	if err == nil {
		err = ioErr
	}
	if err != nil {
		return 0, 0, err
	}
	return ws.Col, ws.Row, nil
}

func setWinsize(f *os.File, cols, rows uint16) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ioErr error
	err = rc.Control(func(fd uintptr) {
		ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &unix.Winsize{Col: cols, Row: rows})
	})
	return errors.Join(err, ioErr)
}

// getPgrp reads the terminal's foreground process group (TIOCGPGRP on the master).
func getPgrp(f *os.File) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var pgrp int
	var ioErr error
	if err := rc.Control(func(fd uintptr) { pgrp, ioErr = unix.IoctlGetInt(int(fd), unix.TIOCGPGRP) }); err != nil {
		return 0, err
	}
	return pgrp, ioErr
}
