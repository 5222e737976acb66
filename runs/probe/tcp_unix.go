//go:build unix && !linux

package probe

import (
	"context"
	"errors"
	"net/netip"

	"golang.org/x/sys/unix"
)

// dialIP connects to an IP address and port with plain system calls and closes the
// connection: a non-blocking connect, a poll for its end within ctx's deadline. The
// runtime's network poller (a descriptor registered and unregistered, a goroutine
// parked and woken per check) cost a probe of fifty services a second more than the
// connect itself. ok is false when the target is no IP literal, or one with a zone
// (dial it by name).
func dialIP(ctx context.Context, addr string) (ok bool, err error) {
	ap, perr := netip.ParseAddrPort(addr)
	if perr != nil || ap.Addr().Zone() != "" { // a zone names an interface: net finds its index
		return false, nil
	}
	var sa unix.Sockaddr
	family := unix.AF_INET
	if a := ap.Addr().Unmap(); a.Is4() {
		sa = &unix.SockaddrInet4{Port: int(ap.Port()), Addr: a.As4()}
	} else {
		family = unix.AF_INET6
		sa = &unix.SockaddrInet6{Port: int(ap.Port()), Addr: a.As16()}
	}
	fd, err := unix.Socket(family, unix.SOCK_STREAM, 0)
	if err != nil {
		return true, err
	}
	defer unix.Close(fd)
	unix.CloseOnExec(fd)
	if err := unix.SetNonblock(fd, true); err != nil {
		return true, err
	}
	err = unix.Connect(fd, sa)
	if !errors.Is(err, unix.EINPROGRESS) {
		return true, connErr(addr, err)
	}
	if _, err := waitConnect(ctx, fd, addr); err != nil {
		return true, err
	}
	soErr, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_ERROR)
	if err == nil && soErr != 0 {
		err = unix.Errno(soErr)
	}
	if err == nil {
		// Closed with a reset, not a FIN: no close handshake, and no socket left in
		// TIME_WAIT per check (a probe a second per service leaves thousands).
		unix.SetsockoptLinger(fd, unix.SOL_SOCKET, unix.SO_LINGER, &unix.Linger{Onoff: 1, Linger: 0})
	}
	return true, connErr(addr, err)
}
