//go:build unix

package probe

import (
	"fmt"
	"net"
)

// connErr says a failed connect as net's dialer does ("dial tcp ADDR: connect:
// connection refused").
func connErr(addr string, err error) error {
	if err == nil {
		return nil
	}
	return &net.OpError{Op: "dial", Net: "tcp", Addr: nil, Err: fmt.Errorf("%s: connect: %w", addr, err)}
}
