//go:build unix

package client

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"corral/runs/api"
)

// socketOwner checks the socket file before a client connects to it: it must be a
// socket owned by this user, or the client would talk to another user's server.
func socketOwner(sock string) error {
	var st unix.Stat_t
	if err := unix.Lstat(sock, &st); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return ErrNoServer
		}
		return fmt.Errorf("socket: %w", err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return fmt.Errorf("%s is not a socket", sock)
	}
	if int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%w: %s is owned by uid %d", api.ErrForeign, sock, st.Uid)
	}
	return nil
}
