package server

import (
	"fmt"
	"net"

	"corral/runs/api"
)

// checkPeer refuses a connection whose peer is not uid.
func checkPeer(c net.Conn, uid int) error {
	got, err := peerUID(c)
	if err != nil {
		return err
	}
	if got != uid {
		return fmt.Errorf("%w: peer uid %d, server uid %d", api.ErrForeign, got, uid)
	}
	return nil
}
