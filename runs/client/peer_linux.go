package client

import (
	"io"
	"net"

	"golang.org/x/sys/unix"
)

// serverPID is the pid of the process that listens at the other end of conn, from the
// kernel (SO_PEERCRED: the listener's credentials), or 0 when conn is no Unix socket
// (a server reached over ssh): what a slow call looks at (answer.go).
func serverPID(conn io.ReadWriteCloser) int {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return 0
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0
	}
	pid := 0
	raw.Control(func(fd uintptr) {
		if cred, err := unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED); err == nil {
			pid = int(cred.Pid)
		}
	})
	return pid
}
