package main

import (
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
)

// corral wait --until ready exits 124 while the run's readiness probe fails, and 0
// once it passes; corral restart starts the service's next attempt under its id.
func TestWaitUntilReadyAndRestart(t *testing.T) {
	state := serverState(t) // its server and keeper gone before the directory is removed
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
	if r := serverCorral(t, state, "wait", "db", "--until", "ready", "--timeout", "1500ms"); r.code != 124 {
		t.Fatalf("wait --until ready with nothing listening: %+v, want exit 124", r)
	}
	l, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("port %s taken meanwhile: %v", addr, err)
	}
	defer l.Close()
	if r := serverCorral(t, state, "wait", "db", "--until", "ready", "--timeout", "20s"); r.code != 0 || strings.TrimSpace(r.stdout) != id+" ready" {
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

// A service outlives its server: the keeper's next server takes it back as a service
// (its probe judged again, its attempts kept), and restarts it when it crashes there.
func TestServiceRidesAServerCrash(t *testing.T) {
	state := serverState(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	r := serverCorral(t, state, "spawn", "--name", "svc", "--restart", "always", "--backoff", "0", "--ready", "tcp="+l.Addr().String(),
		"--", "sleep", "300")
	if r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	keeper := keeperPID(t, state)
	endLater(t, testkit.Pin(t, keeper), syscall.SIGTERM, "keeper")
	if r := serverCorral(t, state, "wait", "svc", "--until", "ready", "--timeout", "20s"); r.code != 0 {
		t.Fatalf("wait ready: %+v", r)
	}
	old := serverPID(t, state)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	newServerPID(t, state, old)
	if r := serverCorral(t, state, "wait", "svc", "--until", "ready", "--timeout", "20s"); r.code != 0 {
		t.Fatalf("wait ready under the next server: %+v", r)
	}
	pid := lsRuns(t, state)["svc"].PID
	testkit.Pin(t, pid).Signal(syscall.SIGKILL) // a crash under the new server
	eventually.True(t, 20*time.Second, "attempt 2 running", func() bool {
		in := serverCorral(t, state, "info", "svc")
		return strings.Contains(in.stdout, `"attempt": 2`) && strings.Contains(in.stdout, `"state": "running"`)
	})
	if r := serverCorral(t, state, "shutdown"); r.code != 0 {
		t.Fatalf("shutdown: %+v", r)
	}
}
