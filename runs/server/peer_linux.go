package server

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// peerUID is the uid of the process at the other end of a Unix socket, from the
// kernel (SO_PEERCRED), not from anything the peer says.
func peerUID(c net.Conn) (int, error) {
	uid, _, err := peerCred(c)
	return uid, err
}

// peerCred is the uid and pid of the process that connected c (SO_PEERCRED).
func peerCred(c net.Conn) (uid, pid int, err error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return -1, 0, fmt.Errorf("not a Unix socket: %T", c)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return -1, 0, err
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return -1, 0, err
	}
	if cerr != nil {
		return -1, 0, fmt.Errorf("SO_PEERCRED: %w", cerr)
	}
	return int(cred.Uid), int(cred.Pid), nil
}
