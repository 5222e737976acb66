package probe

import (
	"context"
	"net"
	"testing"
	"time"

	"corral/config"
	"corral/watchdog"
)

// BenchmarkTCPCheck is one tcp check of a listener on 127.0.0.1 (another goroutine
// of this process accepts: its cost is counted too).
func BenchmarkTCPCheck(b *testing.B) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	check := CheckFor(config.Probe{Kind: config.ProbeTCP, Target: l.Addr().String()}, nil, nil)
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		if !check(ctx).OK {
			b.Fatal("refused")
		}
		cancel()
	}
}

// BenchmarkMonitorTick is a monitor's whole round on a fake clock with a check that
// does nothing: the timer, the goroutine, the judging and the callbacks.
func BenchmarkMonitorTick(b *testing.B) {
	clk := watchdog.NewFakeClock(time.Unix(0, 0))
	done := make(chan struct{}, 1)
	m := NewMonitor(config.Probe{Kind: config.ProbeTCP, Period: time.Second}, func(context.Context) Result { return Result{OK: true} },
		clk, func(State, Result) { done <- struct{}{} }, nil)
	m.Start()
	for b.Loop() {
		clk.Advance(time.Second)
		<-done
	}
	m.Stop()
}
