//go:build !windows

package runs

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyChildExits delivers SIGCHLD (a child of Corral's ended) on c until stop.
func notifyChildExits(c chan<- os.Signal) (stop func()) {
	signal.Notify(c, syscall.SIGCHLD)
	return func() { signal.Stop(c) }
}
