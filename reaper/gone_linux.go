package reaper

import (
	"context"
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// gonePoll is how often WaitGone re-reads the stat without a pollable pidfd.
const gonePoll = 50 * time.Millisecond

// WaitGone blocks until the fingerprinted process, which need not be our child, has
// exited (a zombie counts), or ctx ends. It returns nil when the process is gone, also
// when it already was or the fingerprint no longer matches, and ctx.Err() on cancel.
// Corral uses it to observe the roots of runs adopted from a dead instance, which it
// cannot wait for.
//
// A pidfd is readable once its process has exited, so the wait is pidfd_open, a
// fingerprint check, then poll(POLLIN) through the Go netpoller (epoll), where a read
// deadline set on cancel ends it without an extra thread or wake-up fd. Without pidfds
// (Linux < 5.3, seccomp) the stat is polled every 50 ms instead.
func WaitGone(ctx context.Context, f Fingerprint) error {
	if ok, err := f.sameBoot(); err != nil || !ok {
		return err
	}
	fd, err := openPidfd(f.PID)
	if errors.Is(err, ErrGone) {
		return nil
	}
	if err != nil {
		return pollGone(ctx, f)
	}
	s := getScanner()
	err = f.verify(s, fd)
	putScanner(s)
	if err != nil {
		unix.Close(fd)
		if errors.Is(err, ErrGone) {
			return nil
		}
		return err
	}
	return waitPidfd(ctx, f, fd)
}

// waitPidfd waits for fd (owned from here on) to become readable.
func waitPidfd(ctx context.Context, f Fingerprint, fd int) error {
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return pollGone(ctx, f)
	}
	file := os.NewFile(uintptr(fd), "pidfd")
	defer file.Close()
	stop := context.AfterFunc(ctx, func() { file.SetReadDeadline(time.Unix(1, 0)) })
	defer stop()
	rc, err := file.SyscallConn()
	if err == nil {
		err = rc.Read(func(fd uintptr) bool { return pidfdExited(int(fd)) })
	}
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return pollGone(ctx, f) // the pidfd could not join the netpoller
}

// pollGone is WaitGone without a usable pidfd: it re-reads the stat every gonePoll.
func pollGone(ctx context.Context, f Fingerprint) error {
	s := getScanner()
	defer putScanner(s)
	t := time.NewTicker(gonePoll)
	defer t.Stop()
	for {
		var p Proc
		_, err := s.read(f.PID, &p)
		switch {
		case errors.Is(err, ErrGone) || (err == nil && (p.StartTime != f.StartTime || dead(p.State))):
			return nil
		case err != nil:
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// sameBoot reports whether f was taken during this boot; a fingerprint from an earlier
// boot names a process that is gone.
func (f Fingerprint) sameBoot() (bool, error) {
	boot, err := BootID()
	if err != nil {
		return false, err
	}
	return boot == f.BootID, nil
}
