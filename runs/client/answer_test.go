//go:build linux

package client

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs/api"
)

// mute is a client whose server reads every request and never answers, and whose
// server process is stand-in, a sleep the test can stop.
func mute(t *testing.T) (*Client, *exec.Cmd) {
	t.Helper()
	stand := exec.Command("sleep", "300")
	if err := stand.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stand.Process.Kill(); stand.Wait() })
	near, far := net.Pipe()
	go io.Copy(io.Discard, far)
	t.Cleanup(func() { near.Close(); far.Close() })
	return &Client{conn: near, r: bufio.NewReader(near), enc: json.NewEncoder(near), pid: stand.Process.Pid}, stand
}

// A call in flight when its server is stopped ends within about a second with what
// is wrong, even one that may block for ever by design (wait with no timeout): a
// client must never wait for ever on a SIGSTOPped server.
func TestStoppedServerEndsTheCall(t *testing.T) {
	c, stand := mute(t)
	errc := make(chan error, 1)
	go func() {
		_, err := api.Wait.Call(context.Background(), c, api.WaitArgs{ID: "r1"})
		errc <- err
	}()
	stand.Process.Signal(syscall.SIGSTOP)
	start := time.Now()
	err := eventually.Value(t, 5*time.Second, "the call to end", func() (error, bool) {
		select {
		case err := <-errc:
			return err, true
		default:
			return nil, false
		}
	})
	want := fmt.Sprintf("the server does not answer: pid %d, state T (stopped)", stand.Process.Pid)
	if !errors.Is(err, ErrNoAnswer) || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v, want %q", err, want)
	}
	t.Logf("told after %v", time.Since(start).Round(time.Millisecond))
	stand.Process.Signal(syscall.SIGCONT)
}

// A server that runs but does not answer ends a call when its budget passes, with its
// state; a deadline of the caller's own ends it with the caller's error.
func TestUnansweredCallBudget(t *testing.T) {
	c, stand := mute(t)
	op := api.Poll
	start := time.Now()
	err := c.call(context.Background(), op.Name(), api.PollArgs{ID: "r1"}, nil, 300*time.Millisecond)
	want := fmt.Sprintf("pid %d, state S (sleeping): no reply to poll within 300ms", stand.Process.Pid)
	if !errors.Is(err, ErrNoAnswer) || !strings.Contains(err.Error(), want) || time.Since(start) > 5*time.Second {
		t.Fatalf("err %v after %v, want %q", err, time.Since(start), want)
	}
	c2, _ := mute(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := op.Call(ctx, c2, api.PollArgs{ID: "r1"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the caller's DeadlineExceeded", err)
	}
}
