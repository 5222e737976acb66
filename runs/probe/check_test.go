package probe

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"corral/config"
	"corral/watchdog"
)

// A tcp check connects to a listener, and says a refused port as net's dialer does.
func TestTCPCheck(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	check := CheckFor(config.Probe{Kind: config.ProbeTCP, Target: addr}, nil, nil)
	ctx := &checkCtx{deadline: time.Now().Add(time.Second)}
	if res := check(ctx); !res.OK || res.Output != "connected to "+addr {
		t.Fatalf("listening: %+v", res)
	}
	l.Close()
	res := check(&checkCtx{deadline: time.Now().Add(time.Second)})
	if res.OK || !strings.Contains(res.Output, "dial tcp: "+addr+": connect: connection refused") {
		t.Fatalf("closed: %+v", res)
	}
}

// A check's context ends at its deadline for whoever waits on it, when cancelled,
// and reads as past its deadline to one that only asks.
func TestCheckContext(t *testing.T) {
	c := &checkCtx{deadline: time.Now().Add(50 * time.Millisecond)}
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done not closed at the deadline")
	}
	if c.Err() != context.DeadlineExceeded {
		t.Fatalf("err %v", c.Err())
	}
	c = &checkCtx{deadline: time.Now().Add(time.Hour)}
	c.cancel()
	if <-c.Done(); c.Err() != context.Canceled {
		t.Fatalf("cancelled: %v", c.Err())
	}
	c = &checkCtx{deadline: time.Now().Add(-time.Millisecond)}
	if c.Err() != context.DeadlineExceeded {
		t.Fatalf("past its deadline: %v", c.Err())
	}
	// A check that waits on its context, on the real clock, is ended at the timeout.
	got := make(chan Result, 1)
	m := NewMonitor(config.Probe{Kind: config.ProbeExec, Timeout: 50 * time.Millisecond, Period: time.Hour},
		func(ctx context.Context) Result { <-ctx.Done(); return Result{} }, watchdog.RealClock(),
		func(_ State, r Result) { got <- r }, nil)
	m.Start()
	defer m.Stop()
	select {
	case r := <-got:
		if r.OK || r.Output != "no answer within 50ms" {
			t.Fatalf("timed out: %+v", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the check was not ended at its timeout")
	}
}
