package main

import (
	"bufio"
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
