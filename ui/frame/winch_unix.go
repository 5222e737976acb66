//go:build !windows

package frame

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyResize calls resized on every SIGWINCH until done is closed.
func notifyResize(done <-chan struct{}, resized func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGWINCH)
	defer signal.Stop(c)
	for {
		select {
		case <-done:
			return
		case <-c:
			resized()
		}
	}
}
