package main

import (
	"bufio"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// corral run -- yes | head -2: once the reader is gone, the run is ended through the
// usual escalation and corral run exits as a pipeline stage that got SIGPIPE (141).
func TestRunEndsWhenStdoutCloses(t *testing.T) {
	for _, flags := range [][]string{nil, {"--pty"}} {
		t.Run(strings.Join(append([]string{"pipe"}, flags...), " "), func(t *testing.T) {
			cmd := corral(t, append(append([]string{"run"}, flags...), "--", "yes")...)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(out)
			for range 2 {
				if _, err := r.ReadString('\n'); err != nil {
					t.Fatal(err)
				}
			}
			out.Close() // the reader goes away, as head does
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatal("corral run kept draining after its stdout closed")
			}
			if code := cmd.ProcessState.ExitCode(); code != 141 || !strings.Contains(stderr.String(), "ended: supervisor-shutdown") ||
				!strings.Contains(stderr.String(), "verified empty") {
				t.Fatalf("exit %d, stderr %q", code, stderr.String())
			}
		})
	}
}

// An agent that exits on a second Ctrl-C, then a third Ctrl-C from a user still
// pressing it: Corral stays, on the agent's last screen, until the leave chord. And
// outside focus, keys that arrive at once (an unbracketed paste) are no commands.
func TestUIKeysAfterAnAgentExits(t *testing.T) {
	state := serverState(t)
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s --local -- env CORRAL_CHILD=1 %s ctrlc-twice",
		state, corralBin, corralBin))
	x.waitFor(`agent ready`, 20*time.Second)
	x.keys("x", "y", "q", "d") // one burst: a paste into the wrong place
	x.read(`ignored 1 key`, 10*time.Second)
	if s := x.screen(); !regexp.MustCompile(`corral\s+pty\s+running`).MatchString(s) {
		t.Fatalf("the paste acted:\n%s", s)
	}
	x.keys("Enter")
	x.waitFor(`FOCUS`, 10*time.Second)
	x.keys("C-c")
	x.waitFor(`press Ctrl-C again to exit`, 10*time.Second)
	x.keys("C-c")
	x.waitFor(`bye from the agent`, 10*time.Second)
	x.waitFor(`has ended: its last screen`, 10*time.Second)
	x.keys("C-c")
	x.keys("q")
	s := x.waitFor(`has ended: its last screen`, 10*time.Second)
	if strings.Contains(s, "CORRAL-EXIT") || !strings.Contains(s, "bye from the agent") {
		t.Fatalf("keys after the agent's exit reached Corral:\n%s", s)
	}
	x.keys("C-]")
	x.keys("q")
	x.waitFor(`CORRAL-EXIT=0`, 20*time.Second)
}
