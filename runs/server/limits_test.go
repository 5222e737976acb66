package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs/api"
	"corral/runs/client"
)

// logBuffer is a server log the test reads while the server writes it.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// limited serves with lim (zero fields: the defaults) and a log the test reads.
func limited(t *testing.T, lim Limits) (*harness, *logBuffer) {
	t.Helper()
	d := DefaultLimits()
	for _, f := range []struct{ dst, src *time.Duration }{{&d.Silent, &lim.Silent}, {&d.Slow, &lim.Slow}} {
		if *f.src != 0 {
			*f.dst = *f.src
		}
	}
	if lim.Conns != 0 {
		d.Conns = lim.Conns
	}
	if lim.Buffered != 0 {
		d.Buffered = lim.Buffered
	}
	if lim.Reserve != 0 {
		d.Reserve = lim.Reserve
	}
	log := &logBuffer{}
	return serveWith(t, t.TempDir(), Options{Limits: d, Log: slog.New(slog.NewTextHandler(log, nil))}), log
}

// dialRaw opens a connection the test drives byte by byte.
func dialRaw(t *testing.T, h *harness) net.Conn {
	t.Helper()
	c, err := net.Dial("unix", h.ln.Path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// reply reads one response from c, within a bound.
func reply(t *testing.T, c net.Conn) api.Response {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	var resp api.Response
	if err := json.NewDecoder(c).Decode(&resp); err != nil {
		t.Fatalf("no response: %v", err)
	}
	return resp
}

// A server at Limits.Conns makes room for a newcomer by closing an idle connection,
// the one idle longest; a connection that never greeted goes before any that did.
// Before: the newcomer was refused, and 300 idle connections any process of the user
// can hold locked every client out.
func TestIdleConnectionsMakeRoom(t *testing.T) {
	noGreetGrace(t)
	h, log := limited(t, Limits{Conns: 3})
	oldest := h.client(t) // greeted, now idle
	// Idle since the server took it back after its hello, which it marks just after
	// the reply the client may read first: wait for it, or the two could be marked
	// idle in either order.
	idleConns := func(n int) func() bool {
		return func() bool {
			h.srv.mu.Lock()
			defer h.srv.mu.Unlock()
			k := 0
			for _, ci := range h.srv.conns {
				if ci.state == connIdle {
					k++
				}
			}
			return k == n
		}
	}
	eventually.True(t, 10*time.Second, "the oldest connection to be idle", idleConns(1))
	newer := h.client(t)
	eventually.True(t, 10*time.Second, "both connections to be idle", idleConns(2))
	silent := dialRaw(t, h) // never greets
	eventually.True(t, 10*time.Second, "three connections to be served", func() bool {
		h.srv.mu.Lock()
		defer h.srv.mu.Unlock()
		return len(h.srv.conns) == 3
	})
	if _, err := api.List.Call(ctx, h.client(t), struct{}{}); err != nil {
		t.Fatalf("a newcomer to a full server: %v", err)
	}
	if resp := reply(t, silent); resp.Error == nil || resp.Error.Code != api.CodeBusy {
		t.Errorf("the connection that never greeted was not the one closed: %+v", resp)
	}
	if _, err := api.List.Call(ctx, h.client(t), struct{}{}); err != nil {
		t.Fatalf("a second newcomer to a full server: %v", err)
	}
	if _, err := api.List.Call(ctx, oldest, struct{}{}); err == nil {
		t.Errorf("the connection idle longest was not closed")
	} else if oldest.Broken() == nil {
		t.Errorf("a client whose connection was closed is not broken (a lane would not dial again): %v", err)
	}
	if _, err := api.List.Call(ctx, newer, struct{}{}); err != nil {
		t.Errorf("a connection idle for less long was closed: %v", err)
	}
	if !strings.Contains(log.String(), "closed idle connections") {
		t.Errorf("no closing in the log:\n%s", log)
	}
}

// noGreetGrace makes a full server take a connection that has not greeted for one
// that never will at once, for the test.
func noGreetGrace(t *testing.T) {
	old := greetGrace
	greetGrace = 0
	t.Cleanup(func() { greetGrace = old })
}

// A connection that never greets is dropped after Limits.Silent even when the server
// has room, and when the server is full and a newcomer needs its slot as soon as
// greetGrace has passed, told why.
func TestNeverGreetingDropped(t *testing.T) {
	h, _ := limited(t, Limits{Conns: 4, Silent: 300 * time.Millisecond})
	c := dialRaw(t, h)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if resp := reply(t, c); resp.Error == nil || !strings.Contains(resp.Error.Message, "silent client") {
		t.Errorf("a connection that never greeted: %+v, want cut as silent", resp)
	}
	noGreetGrace(t)
	h2, _ := limited(t, Limits{Conns: 4})
	var silent []net.Conn
	for range 4 {
		silent = append(silent, dialRaw(t, h2))
	}
	for i := range 4 {
		if _, err := api.List.Call(ctx, h2.client(t), struct{}{}); err != nil {
			t.Fatalf("newcomer %d to a server full of silent connections: %v", i, err)
		}
	}
	for i, c := range silent {
		if resp := reply(t, c); resp.Error == nil || resp.Error.Code != api.CodeBusy || !strings.Contains(resp.Error.Message, "had not greeted") {
			t.Errorf("silent connection %d: %+v, want closed as busy", i, resp)
		}
	}
}

// With every connection busy (in the middle of a request), a newcomer is served from
// Limits.Reserve for the control verbs only; once the reserve is taken too it is
// refused, told the server is busy and how many connections it serves, never that no
// server runs.
func TestBusyServerReservesControlVerbs(t *testing.T) {
	old := greetGrace
	greetGrace = time.Hour // the requests held in the middle count as busy, not stalled
	t.Cleanup(func() { greetGrace = old })
	h, log := limited(t, Limits{Conns: 2, Reserve: 1})
	busy := func() net.Conn {
		c := dialRaw(t, h)
		io.WriteString(c, `{"v":1,"verb":"list","args":{"pad":"`) // never finished
		return c
	}
	busy()
	busy()
	eventually.True(t, 10*time.Second, "two busy connections", func() bool {
		h.srv.mu.Lock()
		defer h.srv.mu.Unlock()
		n := 0
		for _, ci := range h.srv.conns {
			if ci.state == connReading {
				n++
			}
		}
		return n == 2
	})
	reserve := h.client(t)
	if _, err := api.List.Call(ctx, reserve, struct{}{}); err != nil {
		t.Fatalf("list from the reserve: %v", err)
	}
	if _, err := api.Kill.Call(ctx, reserve, api.RunRef{ID: "nosuch"}); err == nil || strings.Contains(err.Error(), "busy") {
		t.Fatalf("kill from the reserve: %v, want the run's error", err)
	}
	if _, err := api.Metrics.Call(ctx, reserve, struct{}{}); err == nil || !strings.Contains(err.Error(), "busy") {
		t.Fatalf("metrics from the reserve: %v, want busy", err)
	}
	eventually.True(t, 10*time.Second, "the reserve connection to be closed after metrics", func() bool {
		h.srv.mu.Lock()
		defer h.srv.mu.Unlock()
		return len(h.srv.conns) == 2 && h.srv.reserved == 0
	})
	busy() // takes the reserve's slot
	eventually.True(t, 10*time.Second, "three busy connections, one from the reserve", func() bool {
		h.srv.mu.Lock()
		defer h.srv.mu.Unlock()
		n := 0
		for _, ci := range h.srv.conns {
			if ci.state == connReading {
				n++
			}
		}
		return n == 3 && h.srv.reserved == 1
	})
	_, err := client.Dial(h.dir)
	if err == nil || errors.Is(err, client.ErrNoServer) || !strings.Contains(err.Error(), "busy") ||
		!strings.Contains(err.Error(), "3 connections") {
		t.Fatalf("a client refused by a busy server: %v, want busy with the count", err)
	}
	if !strings.Contains(log.String(), "refused connections") {
		t.Errorf("no refusal in the log:\n%s", log)
	}
}

// A client that connects and says nothing is cut after Limits.Silent; one that stops
// in the middle of a request after Limits.Slow; each told why, and the log says it.
// A client idle between requests is not cut (an attached UI's lanes are).
func TestSilentAndSlowClientsCut(t *testing.T) {
	h, log := limited(t, Limits{Silent: 200 * time.Millisecond, Slow: 200 * time.Millisecond})
	silent := dialRaw(t, h)
	if resp := reply(t, silent); resp.Error == nil || !strings.Contains(resp.Error.Message, "silent client") {
		t.Errorf("silent client: %+v", resp)
	}
	for _, hello := range []bool{false, true} {
		slow := dialRaw(t, h)
		dec := json.NewDecoder(slow)
		if hello { // a second request, under Limits.Slow
			io.WriteString(slow, `{"v":1,"verb":"hello","args":{"version":1}}`+"\n")
			dec.Decode(&api.Response{})
		}
		io.WriteString(slow, `{"v":1,"verb":`)
		var resp api.Response
		slow.SetReadDeadline(time.Now().Add(10 * time.Second))
		if err := dec.Decode(&resp); err != nil || resp.Error == nil || !strings.Contains(resp.Error.Message, "slow client") {
			t.Errorf("slow client (after hello %v): %+v %v", hello, resp, err)
		}
	}
	for _, reason := range []string{"silent client", "slow client"} {
		if !strings.Contains(log.String(), reason) {
			t.Errorf("no %q in the log:\n%s", reason, log)
		}
	}
	idle := h.client(t)
	// A silent connection opened now is cut after Silent (= Slow): by then the idle
	// client has been idle longer than Slow.
	if resp := reply(t, dialRaw(t, h)); resp.Error == nil {
		t.Fatalf("silent client: %+v", resp)
	}
	if _, err := api.List.Call(ctx, idle, struct{}{}); err != nil {
		t.Errorf("a client idle between requests was cut: %v", err)
	}
}

// Unfinished requests share Limits.Buffered: one that would pass it is refused (busy),
// the one within it is served, and every byte is given back once answered.
func TestRequestBudget(t *testing.T) {
	h, log := limited(t, Limits{Buffered: 256 << 10})
	a, b := dialRaw(t, h), dialRaw(t, h)
	part := `{"v":1,"verb":"list","args":{"pad":"` + strings.Repeat("x", 150<<10)
	io.WriteString(a, part)
	eventually.True(t, 10*time.Second, "the first request to be held", func() bool {
		return h.srv.buf.used.Load() >= 150<<10
	})
	go io.WriteString(b, part) // the server stops reading it midway
	if resp := reply(t, b); resp.Error == nil || resp.Error.Code != api.CodeBusy {
		t.Fatalf("request over the budget: %+v, want busy", resp)
	}
	io.WriteString(a, `"}}`+"\n")
	if resp := reply(t, a); resp.Error != nil {
		t.Fatalf("request within the budget: %+v", resp.Error)
	}
	if n := h.srv.buf.used.Load(); n != 0 {
		t.Errorf("%d bytes still counted after the requests ended", n)
	}
	if !strings.Contains(log.String(), "unfinished requests") {
		t.Errorf("no busy cut in the log:\n%s", log)
	}
}

// A connection just made, not yet greeted, is not the first to make room: a client
// says hello at once, and a stream of newcomers must not close it before it could.
func TestFreshConnectionKeepsItsSlot(t *testing.T) {
	h, _ := limited(t, Limits{Conns: 2})
	idle := h.client(t)
	// Idle since the server took it back after its hello (it marks it so just after
	// the reply, which the client may read first): before the fresh one was made.
	eventually.True(t, 10*time.Second, "the first connection to be idle", func() bool {
		h.srv.mu.Lock()
		defer h.srv.mu.Unlock()
		for _, ci := range h.srv.conns {
			if ci.state != connIdle {
				return false
			}
		}
		return len(h.srv.conns) == 1
	})
	fresh := dialRaw(t, h)
	eventually.True(t, 10*time.Second, "two connections to be served", func() bool {
		h.srv.mu.Lock()
		defer h.srv.mu.Unlock()
		return len(h.srv.conns) == 2
	})
	if _, err := api.List.Call(ctx, h.client(t), struct{}{}); err != nil {
		t.Fatalf("a newcomer: %v", err)
	}
	io.WriteString(fresh, `{"v":1,"verb":"hello","args":{"version":1}}`+"\n")
	if resp := reply(t, fresh); resp.Error != nil {
		t.Errorf("the fresh connection was closed for the newcomer: %+v", resp.Error)
	}
	if _, err := api.List.Call(ctx, idle, struct{}{}); err == nil {
		t.Errorf("the idle connection kept its slot, the fresh one did not lose it either")
	}
}

// Many peers, each within its fair share, holding every slot and the reserve in the
// middle of requests they never finish do not lock the control verbs out: a request
// begun and not finished within greetGrace makes room as a connection that never
// greeted does. Before: kill was refused busy until Limits.Slow cut them, and again
// once they were opened anew.
func TestStalledRequestsOfManyPeersMakeRoom(t *testing.T) {
	noGreetGrace(t)
	h, _ := limited(t, Limits{Conns: 16, Reserve: 2})
	h.srv.mu.Lock()
	for i := range 18 {
		c, other := net.Pipe()
		t.Cleanup(func() { c.Close(); other.Close() })
		go io.Copy(io.Discard, other)
		h.srv.conns[c] = &connInfo{pid: 100000 + i, state: connReading, since: time.Now().Add(-time.Minute), reserve: i >= 16}
	}
	h.srv.reserved = 2
	h.srv.mu.Unlock()
	c, err := client.Dial(h.dir)
	if err != nil {
		t.Fatalf("dial with every connection stalled: %v", err)
	}
	defer c.Close()
	if _, err := api.Kill.Call(ctx, c, api.RunRef{ID: "nosuch"}); err == nil || strings.Contains(err.Error(), "busy") {
		t.Fatalf("kill with every connection stalled: %v, want the run's error", err)
	}
}
