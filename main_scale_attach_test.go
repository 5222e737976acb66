package main

import (
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// attachDrawn is how long cmd, started in a 120×40 PTY, takes to draw its screen: from
// its start to the last byte it wrote before quiet (300 ms without output), in ms. It is
// then ended by SIGTERM (an attached UI detaches; tmux's client too), and waited for.
func attachDrawn(b *testing.B, cmd func() *exec.Cmd) float64 {
	c := cmd()
	t0 := time.Now()
	f, err := pty.StartWithSize(c, &pty.Winsize{Cols: 120, Rows: 40})
	if err != nil {
		b.Fatalf("%v: %v", c.Args, err)
	}
	defer f.Close()
	got := make(chan time.Time, 64)
	go func() {
		defer close(got)
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				got <- time.Now()
			}
			if err != nil {
				return
			}
		}
	}()
	var last time.Time
	quiet := time.NewTimer(10 * time.Second) // the first byte may take long on a loaded machine
	for done := false; !done; {
		select {
		case at, ok := <-got:
			if !ok {
				done = true
				break
			}
			last = at
			quiet.Reset(300 * time.Millisecond)
		case <-quiet.C:
			done = true
		}
	}
	c.Process.Signal(syscall.SIGTERM)
	ended := make(chan error, 1)
	go func() { ended <- c.Wait() }()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		c.Process.Kill()
		<-ended
	}
	go func() {
		for range got { // the reader ends with the PTY
		}
	}()
	if last.IsZero() {
		b.Fatalf("%v drew nothing", c.Args)
	}
	return float64(last.Sub(t0).Microseconds()) / 1000
}

// medianAttach is the median of k attachDrawn.
func medianAttach(b *testing.B, k int, cmd func() *exec.Cmd) float64 {
	var ms []float64
	for range k {
		ms = append(ms, attachDrawn(b, cmd))
	}
	slices.Sort(ms)
	return ms[k/2]
}

// termEnv is the environment of a client in the benchmark's PTY.
func termEnv(env []string) []string {
	return append(slices.DeleteFunc(slices.Clone(env), func(s string) bool {
		return len(s) > 5 && s[:5] == "TERM="
	}), "TERM=xterm-256color")
}
