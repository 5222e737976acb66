package server

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs/api"
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

// A connection over Limits.Conns is refused at once with the reason (logged), and
// one is served again once a connection closed (issue 23.5: no cap; 500 idle
// connections were all held).
func TestConnectionLimit(t *testing.T) {
	h, log := limited(t, Limits{Conns: 2})
	first := dialRaw(t, h)
	io.WriteString(first, `{"v":1,"verb":"hello","args":{"version":1}}`+"\n")
	reply(t, first) // served: counted
	h.client(t)
	over := dialRaw(t, h)
	if resp := reply(t, over); resp.Error == nil || resp.Error.Code != api.CodeBusy ||
		!strings.Contains(resp.Error.Message, "connection limit") {
		t.Fatalf("third connection: %+v, want busy at the connection limit", resp)
	}
	if !strings.Contains(log.String(), "refused connections") {
		t.Errorf("no refusal in the log:\n%s", log)
	}
	first.Close()
	eventually.True(t, 10*time.Second, "a connection to be served again", func() bool {
		c, err := net.Dial("unix", h.ln.Path)
		if err != nil {
			return false
		}
		defer c.Close()
		io.WriteString(c, `{"v":1,"verb":"list"}`+"\n")
		return reply(t, c).Error == nil
	})
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
