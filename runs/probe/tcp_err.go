//go:build unix

package probe

import (
	"context"
	"fmt"
	"net"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// connErr says a failed connect as net's dialer does ("dial tcp ADDR: connect:
// connection refused").
func connErr(addr string, err error) error {
	if err == nil {
		return nil
	}
	return &net.OpError{Op: "dial", Net: "tcp", Addr: nil, Err: fmt.Errorf("%s: connect: %w", addr, err)}
}

// waitConnect waits for the non-blocking connect of fd to end, and returns the
// poll's events of fd. It ends at ctx's deadline, and when ctx is cancelled before:
// a check of a target that never answers is stopped with its run's probes, which
// wait for it, not at its timeout. Only a connect that does not end at once comes
// here (not loopback), so the pipe that wakes the poll on a cancel, and the timer
// of ctx it arms, cost nothing to the checks of local services.
func waitConnect(ctx context.Context, fd int, addr string) (int16, error) {
	if err := ctx.Err(); err != nil {
		return 0, connErr(addr, err)
	}
	var p [2]int
	syscall.ForkLock.RLock() // no child of a concurrent fork inherits the pipe
	err := unix.Pipe(p[:])
	if err == nil {
		unix.CloseOnExec(p[0])
		unix.CloseOnExec(p[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return 0, err
	}
	defer unix.Close(p[0])
	defer unix.Close(p[1])
	woken := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		unix.Write(p[1], []byte{0})
		close(woken)
	})
	defer func() {
		if !stop() {
			<-woken // the write is done before the pipe is closed
		}
	}()
	wait := time.Second
	dl, has := ctx.Deadline()
	if has {
		wait = time.Until(dl)
	} else {
		dl = time.Now().Add(wait)
	}
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}, {Fd: int32(p[0]), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, max(int(time.Until(dl)/time.Millisecond), 1))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if fds[0].Revents != 0 {
			return fds[0].Revents, nil
		}
		if n == 0 || ctx.Err() == context.DeadlineExceeded {
			return 0, fmt.Errorf("dial tcp %s: no answer within %s", addr, wait.Round(time.Millisecond))
		}
		if fds[1].Revents != 0 {
			return 0, connErr(addr, ctx.Err())
		}
	}
}
