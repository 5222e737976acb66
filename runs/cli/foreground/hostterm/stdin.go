package hostterm

import "io"

// Input is the run that Corral's stdin is forwarded to.
type Input interface {
	// Write sends bytes to the run; an error ends the forwarding.
	Write(b []byte) error
	// CloseStdin ends a pipe run's input.
	CloseStdin() error
	// Cancel ends the run as the operator's cancel (the escape chord).
	Cancel()
}

// ForwardStdin copies in to the run until in ends or a write fails. At EOF a pipe
// run's stdin is closed; a PTY has no separate stdin to close, so nothing is sent.
// With chord (a raw terminal) Ctrl-] then '.' cancels the run whatever it traps.
func ForwardStdin(in io.Reader, to Input, pty, chord bool) {
	buf := make([]byte, 32<<10)
	var esc EscapeChord
	for {
		n, err := in.Read(buf)
		b := buf[:n]
		if chord {
			var stop bool
			if b, stop = esc.Feed(b); stop {
				to.Cancel()
				return
			}
		}
		if len(b) > 0 && to.Write(b) != nil {
			return
		}
		if err != nil {
			if !pty {
				to.CloseStdin()
			}
			return
		}
	}
}
