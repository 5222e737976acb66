//go:build !unix

package server

import (
	"errors"
	"net"
	"os"
)

// LockName and LogName are the server's files in the state dir.
const (
	LockName = "server.lock"
	LogName  = "server.log"
)

var (
	ErrRunning = errors.New("a corral server is already running for this state dir")
	errNotHere = errors.New("the corral server is not supported on this platform yet")
)

// Listener is the state dir's server socket.
type Listener struct {
	*net.UnixListener
	Path string
}

// Listen is not supported here yet.
func Listen(string) (*Listener, error) { return nil, errNotHere }

// OpenLog is not supported here yet.
func OpenLog(string) (*os.File, error) { return nil, errNotHere }

func openLog(string, string) (*os.File, error) { return nil, errNotHere }
