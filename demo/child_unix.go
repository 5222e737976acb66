//go:build !windows

package demo

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

func init() {
	behaviours["latency"] = latency
	behaviours["winsize"] = winsize
}

// winsize draws its terminal's size, as the kernel tells it, at once and on every
// SIGWINCH: the screen cleared, "size COLSxROWS" at the top left, and "corner
// COLSxROWS" ending in the bottom right corner, where the cursor stays (what a pane
// smaller than the screen must show).
func winsize([]string) int {
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	for {
		ws, err := unix.IoctlGetWinsize(0, unix.TIOCGWINSZ)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		corner := fmt.Sprintf("corner %dx%d", ws.Col, ws.Row)
		fmt.Printf("\x1b[2J\x1b[Hsize %dx%d\x1b[%d;%dH%s", ws.Col, ws.Row, ws.Row,
			max(int(ws.Col)-len(corner), 1), corner)
		<-winch
	}
}

// latency FILE: the child end of the input and echo latency benchmark. In
// raw mode it reads its input one byte at a time; for each it echoes "key N;" on a
// fresh line and appends "N read-ns echo-ns" to FILE, the CLOCK_MONOTONIC times
// (shared by every process of the machine) when the read returned and just before
// the echo was written.
func latency(args []string) int {
	if len(args) == 0 {
		return 2
	}
	log, err := os.OpenFile(args[0], os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer log.Close()
	restore := makeRaw(0)
	defer restore()
	fmt.Print("latency ready\r\n")
	b := make([]byte, 1)
	for n := 0; ; n++ {
		if _, err := os.Stdin.Read(b); err != nil {
			return 0
		}
		read := monotonic()
		echo := fmt.Appendf(nil, "\r\nkey %d;", n)
		echoAt := monotonic()
		if _, err := os.Stdout.Write(echo); err != nil {
			return 1
		}
		fmt.Fprintf(log, "%d %d %d\n", n, read, echoAt)
	}
}

// monotonic reads CLOCK_MONOTONIC in nanoseconds.
func monotonic() int64 {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return ts.Nano()
}

// newSessionAttr makes the child a session leader (setsid), as a daemon would.
func newSessionAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// makeRaw puts fd in raw mode when it is a terminal and returns the undo.
func makeRaw(fd int) func() {
	if !term.IsTerminal(fd) {
		return func() {}
	}
	old, err := term.MakeRaw(fd)
	if err != nil {
		return func() {}
	}
	return func() { term.Restore(fd, old) }
}

// setTermSize sets the window size of the terminal on fd: from the slave side, as a
// replay following its recording's resizes does (the host takes it up, see
// runs.Spec.FixedSize).
func setTermSize(fd int, cols, rows uint16) error {
	return unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Col: cols, Row: rows})
}

// DefaultSignalsForChildren makes the child programs a test binary starts itself
// (with os/exec, not through a run's spawn hold, which does the same for runs) begin
// with the default action for the signals tests send them. exec keeps an ignored
// signal ignored, and the Go runtime keeps an inherited SIG_IGN for SIGHUP and SIGINT:
// a test binary started under nohup gave every child an ignored SIGHUP, and the
// escalation's hang-up step did nothing (seen in a CI loop started with nohup). A
// signal caught when exec runs is reset to its default; catching them here does that.
// For test binaries only: this process then catches, and so ignores, those signals.
func DefaultSignalsForChildren() {
	for _, s := range []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGPIPE} {
		if signal.Ignored(s) {
			signal.Notify(make(chan os.Signal, 1), s)
		}
	}
}
