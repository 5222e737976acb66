//go:build !windows

package frame

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyStop, until done is closed, gives the terminal back (give) when the process is
// told to stop (SIGTSTP: a shell's job control, `kill -TSTP`; the terminal's own ^Z
// is a key in raw mode), stops the process group as the signal would have, and takes
// the terminal again (take) when it is continued (fg).
func notifyStop(done <-chan struct{}, give, take func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTSTP)
	defer signal.Stop(c)
	for {
		select {
		case <-done:
			return
		case <-c:
		}
		give()
		cont := make(chan os.Signal, 1)
		signal.Notify(cont, syscall.SIGCONT)
		// SIGSTOP, as SIGTSTP's default would: once notified of, SIGTSTP stays caught by
		// the Go runtime, whose handler drops it.
		_ = syscall.Kill(stopTarget(), syscall.SIGSTOP)
		select { // continued (a SIGCONT sent before the stop took hold counts too)
		case <-cont:
		case <-done:
		}
		signal.Stop(cont)
		take()
	}
}

// stopTarget is what a stop stops: the process group when this process leads it (a
// shell's job: a pager or foreground run it started stops with it, as a ^Z would stop
// them all), else this process alone, as the signal would have: a parent in the same
// group that does no job control (sh -c "corral; …") is not stopped with it, to be
// left stopped when only this process is continued.
func stopTarget() int {
	if syscall.Getpgrp() == syscall.Getpid() {
		return 0
	}
	return syscall.Getpid()
}
