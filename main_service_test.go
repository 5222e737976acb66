package main

import (
	"net"
	"strings"
	"testing"
)

// corral wait --until ready exits 124 while the run's readiness probe fails, and 0
// once it passes; corral restart starts the service's next attempt under its id.
func TestWaitUntilReadyAndRestart(t *testing.T) {
	state := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	r := serverCorral(t, state, "spawn", "--name", "db", "--restart", "on-failure", "--ready", "tcp="+addr, "--", "sleep", "300")
	if r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	id := strings.TrimSpace(r.stdout)
	defer serverCorral(t, state, "shutdown")
	if r := serverCorral(t, state, "wait", "db", "--until", "ready", "--timeout", "1500ms"); r.code != 124 {
		t.Fatalf("wait --until ready with nothing listening: %+v, want exit 124", r)
	}
	l, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("port %s taken meanwhile: %v", addr, err)
	}
	defer l.Close()
	if r := serverCorral(t, state, "wait", "db", "--until", "ready", "--timeout", "20s"); r.code != 0 || !strings.Contains(r.stderr, "db is ready") {
		t.Fatalf("wait --until ready with a listener: %+v, want exit 0", r)
	}
	if r := serverCorral(t, state, "restart", "db"); r.code != 0 || strings.TrimSpace(r.stdout) != id {
		t.Fatalf("restart: %+v, want %s", r, id)
	}
	if r := serverCorral(t, state, "wait", "db", "--until", "ready", "--timeout", "20s"); r.code != 0 {
		t.Fatalf("wait --until ready after the restart: %+v", r)
	}
	ls := serverCorral(t, state, "ls", "--json")
	if !strings.Contains(ls.stdout, `"attempt": 2`) && !strings.Contains(ls.stdout, `"attempt":2`) {
		t.Errorf("ls --json does not show attempt 2:\n%s", ls.stdout)
	}
	if r := serverCorral(t, state, "wait", "--until", "ready", "nosuch"); r.code == 0 {
		t.Errorf("wait on no run: %+v", r)
	}
}
