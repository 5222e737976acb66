package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/ptyhost/screen"

	"github.com/creack/pty"
)

// attachDrawn is how long cmd, started in a 120×40 PTY, takes to draw its screen: from
// its start to the last write, before quiet (300 ms without output), that changed the
// screen as an emulator reads it other than a number moving (a run's age ticking each
// second, tmux's clock), in ms; and
// the CPU the client took and the server (pid server) took meanwhile, which the load
// of a shared machine does not change as it does the wall time. It is then ended by
// SIGTERM (an attached UI detaches; tmux's client too), and waited for.
func attachDrawn(b *testing.B, server int, cmd func() *exec.Cmd) (wall, clientCPU, serverCPU float64) {
	c := cmd()
	s0 := procCPU(server)
	t0 := time.Now()
	f, err := pty.StartWithSize(c, &pty.Winsize{Cols: 120, Rows: 40})
	if err != nil {
		b.Fatalf("%v: %v", c.Args, err)
	}
	defer f.Close()
	type read struct {
		at time.Time
		p  []byte
	}
	got := make(chan read, 64)
	go func() {
		defer close(got)
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				got <- read{time.Now(), slices.Clone(buf[:n])}
			}
			if err != nil {
				return
			}
		}
	}()
	scr := screen.NewScreen(120, 40)
	var last time.Time
	var drawn string
	quiet := time.NewTimer(10 * time.Second) // the first byte may take long on a loaded machine
	for done := false; !done; {
		select {
		case r, ok := <-got:
			if !ok {
				done = true
				break
			}
			scr.Write(r.p)
			if now := numbers.ReplaceAllString(scr.Text(), "#"); now != drawn {
				drawn, last = now, r.at
			}
			quiet.Reset(300 * time.Millisecond)
		case <-quiet.C:
			done = true
		}
	}
	serverCPU = procCPU(server) - s0
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
	ru := c.ProcessState.SysUsage().(*syscall.Rusage)
	return float64(last.Sub(t0).Microseconds()) / 1000, float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6, serverCPU
}

// numbers are what attachDrawn does not count as drawing when they alone move.
var numbers = regexp.MustCompile(`[0-9]+`)

// medianAttach is the medians of k attachDrawn: wall, the client's CPU, the server's.
func medianAttach(b *testing.B, k int, server int, cmd func() *exec.Cmd) (wall, clientCPU, serverCPU float64) {
	var ws, cs, ss []float64
	for range k {
		w, c, s := attachDrawn(b, server, cmd)
		ws, cs, ss = append(ws, w), append(cs, c), append(ss, s)
	}
	for _, x := range [][]float64{ws, cs, ss} {
		slices.Sort(x)
	}
	return ws[k/2], cs[k/2], ss[k/2]
}

// procCPU is the CPU process pid has taken (user and system), in ms, from
// /proc/PID/stat; 0 where there is none.
func procCPU(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	_, rest, _ := bytes.Cut(b, []byte(") ")) // after the command's name, which may hold spaces
	f := strings.Fields(string(rest))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) * 1000 / 100 // USER_HZ, 100 on Linux
}

// termEnv is the environment of a client in the benchmark's PTY.
func termEnv(env []string) []string {
	return append(slices.DeleteFunc(slices.Clone(env), func(s string) bool {
		return len(s) > 5 && s[:5] == "TERM="
	}), "TERM=xterm-256color")
}
