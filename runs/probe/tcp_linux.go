//go:build linux

package probe

import (
	"context"
	"net/netip"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dialIP connects to an IP address and port with plain system calls and closes the
// connection: a non-blocking connect, a poll for its end within ctx's deadline. The
// runtime's network poller (a descriptor registered and unregistered, a goroutine
// parked and woken per check) cost a probe of fifty services a second more than the
// connect itself. ok is false when the target is no IP literal, or one with a zone
// (dial it by name).
//
// None of the calls blocks (the socket is non-blocking, the first poll does not
// wait), so they are made raw, without telling the scheduler: a call it is told of
// that lasts over 20 µs — a connect on loopback does the whole handshake in the
// caller's context, 40–70 µs — has its processor handed to another thread and its
// thread parked after, and the monitor wakes up every 20 µs for a while after each;
// fifty checks at once cost as much again in thread switches as the connects
// themselves. Only a poll that must wait (a target that does not answer at once:
// not loopback) goes through the scheduler.
func dialIP(ctx context.Context, addr string) (ok bool, err error) {
	ap, perr := netip.ParseAddrPort(addr)
	if perr != nil || ap.Addr().Zone() != "" { // a zone names an interface: net finds its index
		return false, nil
	}
	var sa4 unix.RawSockaddrInet4
	var sa6 unix.RawSockaddrInet6
	sa, salen, family := unsafe.Pointer(&sa4), unsafe.Sizeof(sa4), unix.AF_INET
	port := [2]byte{byte(ap.Port() >> 8), byte(ap.Port())} // network order
	if a := ap.Addr().Unmap(); a.Is4() {
		sa4.Family, sa4.Addr = unix.AF_INET, a.As4()
		sa4.Port = *(*uint16)(unsafe.Pointer(&port))
	} else {
		sa6.Family, sa6.Addr = unix.AF_INET6, a.As16()
		sa6.Port = *(*uint16)(unsafe.Pointer(&port))
		sa, salen, family = unsafe.Pointer(&sa6), unsafe.Sizeof(sa6), unix.AF_INET6
	}
	r, _, e := unix.RawSyscall(unix.SYS_SOCKET, uintptr(family), unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if e != 0 {
		return true, e
	}
	fd := int(r)
	linger := unix.Linger{}
	defer func() {
		// Closed with a reset, not a FIN, once connected: no close handshake, and no
		// socket left in TIME_WAIT per check (a probe a second per service leaves
		// thousands). Neither call blocks then.
		if linger.Onoff == 1 {
			unix.RawSyscall6(unix.SYS_SETSOCKOPT, uintptr(fd), unix.SOL_SOCKET, unix.SO_LINGER,
				uintptr(unsafe.Pointer(&linger)), unsafe.Sizeof(linger), 0)
		}
		unix.RawSyscall(unix.SYS_CLOSE, uintptr(fd), 0, 0)
	}()
	if _, _, e := unix.RawSyscall(unix.SYS_CONNECT, uintptr(fd), uintptr(sa), salen); e != unix.EINPROGRESS {
		if e == 0 {
			linger.Onoff = 1
			return true, nil
		}
		return true, connErr(addr, e)
	}
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
	var zero unix.Timespec
	n, _, e := unix.RawSyscall6(unix.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), 1, uintptr(unsafe.Pointer(&zero)), 0, 0, 0)
	if e == 0 && n == 0 { // not connected yet: wait, as a blocking call
		rev, err := waitConnect(ctx, fd, addr)
		if err != nil {
			return true, err
		}
		fds[0].Revents = rev
	} else if e != 0 {
		return true, e
	}
	if fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0 { // refused, unreachable: why
		soErr, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_ERROR)
		if err == nil {
			err = unix.Errno(soErr)
			if soErr == 0 {
				err = unix.ECONNREFUSED
			}
		}
		return true, connErr(addr, err)
	}
	linger.Onoff = 1
	return true, nil
}
