//go:build linux

package probe

import (
	"context"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"corral/config"
	"corral/demo/testkit/eventually"
	"corral/watchdog"
)

// blackhole is an address on loopback that never answers a connect: a listener
// with a backlog of 0 that never accepts, its queue filled, drops every SYN (the
// connecting side retransmits and waits). It is proved so before it is returned.
func blackhole(t *testing.T) string {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := unix.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(sa.(*unix.SockaddrInet4).Port)
	// Fill the queue until a connect is left unanswered.
	for i := 0; ; i++ {
		if i == 8 {
			t.Skip("could not fill a listener's queue on loopback")
		}
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				return addr
			}
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
	}
}

// A target that never answers fails the check at its deadline, said as such.
func TestTCPCheckBlackholed(t *testing.T) {
	addr := blackhole(t)
	check := CheckFor(config.Probe{Kind: config.ProbeTCP, Target: addr}, nil, nil)
	start := time.Now()
	res := check(&checkCtx{deadline: time.Now().Add(300 * time.Millisecond)})
	took := time.Since(start)
	if res.OK || !strings.Contains(res.Output, "no answer within") {
		t.Fatalf("blackholed: %+v", res)
	}
	if took < 250*time.Millisecond || took > 5*time.Second {
		t.Fatalf("blackholed check took %s, its deadline was 300ms", took)
	}
}

// A check waiting on a target that never answers ends when its context is
// cancelled, not at its deadline: stopping a run's probes (its end, its next
// attempt) does not wait out a long timeout.
func TestTCPCheckCancelled(t *testing.T) {
	addr := blackhole(t)
	check := CheckFor(config.Probe{Kind: config.ProbeTCP, Target: addr}, nil, nil)

	ctx := &checkCtx{deadline: time.Now().Add(time.Minute)}
	ctx.cancel()
	start := time.Now()
	if res := check(ctx); res.OK {
		t.Fatalf("cancelled before: %+v", res)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("a check cancelled before it began took %s", took)
	}

	// A monitor stopped while its check waits: Stop returns at once.
	m := NewMonitor(config.Probe{Kind: config.ProbeTCP, Target: addr, Timeout: time.Minute, Period: time.Hour},
		check, watchdog.RealClock(), nil, nil)
	m.Start()
	eventually.True(t, 10*time.Second, "the check in flight", func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.running
	})
	start = time.Now()
	m.Stop()
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("Stop waited %s for a check against a target that never answers", took)
	}
}

// A tcp check of an IPv6 literal and of a host name connect, and fail refused.
func TestTCPCheckIPv6AndName(t *testing.T) {
	for _, tc := range []struct{ listen, target string }{
		{"[::1]:0", "[::1]:%d"},
		{"127.0.0.1:0", "localhost:%d"},
		{"127.0.0.1:0", "[::ffff:127.0.0.1]:%d"},
	} {
		l, err := net.Listen("tcp", tc.listen)
		if err != nil {
			t.Logf("%s: %v (skipped)", tc.listen, err)
			continue
		}
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
		target := strings.Replace(tc.target, "%d", strconv.Itoa(l.Addr().(*net.TCPAddr).Port), 1)
		check := CheckFor(config.Probe{Kind: config.ProbeTCP, Target: target}, nil, nil)
		if res := check(&checkCtx{deadline: time.Now().Add(5 * time.Second)}); !res.OK {
			t.Fatalf("%s listening: %+v", target, res)
		}
		l.Close()
		if res := check(&checkCtx{deadline: time.Now().Add(5 * time.Second)}); res.OK || !strings.Contains(res.Output, "refused") {
			t.Fatalf("%s closed: %+v", target, res)
		}
	}
}

// Checks leave no descriptor open: connected, refused, unanswered and cancelled.
func TestTCPCheckLeavesNoDescriptor(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
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
	refused, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedAddr := refused.Addr().String()
	refused.Close()
	hole := blackhole(t)
	count := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(ents)
	}
	up := CheckFor(config.Probe{Kind: config.ProbeTCP, Target: l.Addr().String()}, nil, nil)
	down := CheckFor(config.Probe{Kind: config.ProbeTCP, Target: refusedAddr}, nil, nil)
	never := CheckFor(config.Probe{Kind: config.ProbeTCP, Target: hole}, nil, nil)
	round := func() {
		for i := 0; i < 200; i++ {
			if res := up(&checkCtx{deadline: time.Now().Add(5 * time.Second)}); !res.OK {
				t.Fatalf("up: %+v", res)
			}
			if res := down(&checkCtx{deadline: time.Now().Add(5 * time.Second)}); res.OK {
				t.Fatalf("down: %+v", res)
			}
		}
		for i := 0; i < 5; i++ {
			never(&checkCtx{deadline: time.Now().Add(10 * time.Millisecond)})
			ctx := &checkCtx{deadline: time.Now().Add(time.Minute)}
			ctx.cancel()
			never(ctx)
		}
	}
	round() // anything opened once (the runtime's poller) is open before counting
	before := count()
	round()
	if after := count(); after > before {
		t.Fatalf("descriptors: %d before 410 checks, %d after", before, after)
	}
}

var _ context.Context = (*checkCtx)(nil)

// A tcp check of a link-local IPv6 address with its zone ([fe80::1%eth0]:port)
// connects through that interface, as net's dialer does.
func TestTCPCheckIPv6Zone(t *testing.T) {
	ifs, _ := net.Interfaces()
	var target string
	var l net.Listener
	for _, ifc := range ifs {
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			if !ok || ipn.IP.To4() != nil || !ipn.IP.IsLinkLocalUnicast() {
				continue
			}
			host := net.JoinHostPort(ipn.IP.String()+"%"+ifc.Name, "0")
			if l, _ = net.Listen("tcp", host); l != nil {
				target = net.JoinHostPort(ipn.IP.String()+"%"+ifc.Name, strconv.Itoa(l.Addr().(*net.TCPAddr).Port))
				break
			}
		}
		if l != nil {
			break
		}
	}
	if l == nil {
		t.Skip("no link-local IPv6 address to listen on")
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
	check := CheckFor(config.Probe{Kind: config.ProbeTCP, Target: target}, nil, nil)
	if res := check(&checkCtx{deadline: time.Now().Add(5 * time.Second)}); !res.OK {
		t.Fatalf("%s listening: %+v", target, res)
	}
}
