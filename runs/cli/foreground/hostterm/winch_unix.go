//go:build !windows

package hostterm

import (
	"os"
	"os/signal"
	"syscall"
)

// NotifyWinch delivers SIGWINCH (the controlling terminal changed size) to ch.
func NotifyWinch(ch chan<- os.Signal) { signal.Notify(ch, syscall.SIGWINCH) }
