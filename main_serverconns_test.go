package main

import (
	"bufio"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/runs/server"
)

// lockoutConns is how many idle connections the lockout test holds: more than the
// server serves at once (server.DefaultLimits().Conns).
const lockoutConns = 300

// Any process of the user (a run can) holding lockoutConns idle connections, greeted
// and not, cannot lock the control verbs out: ls and kill are served, the idle
// connections beyond their share closed oldest first. Before: kill failed with "no
// corral server is running … spawn starts one".
func TestIdleConnectionsCannotLockOut(t *testing.T) {
	state := serverState(t)
	sp := serverCorral(t, state, "spawn", "--name", "victim", "--", "sleep", "300")
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	id := strings.TrimSpace(sp.stdout)
	sock := filepath.Join(state, "server.sock")
	held := 0
	for i := range lockoutConns {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		t.Cleanup(func() { c.Close() })
		if i%2 == 0 { // half of them never say anything
			continue
		}
		io.WriteString(c, `{"v":1,"verb":"hello","args":{"version":1}}`+"\n")
		if line, err := bufio.NewReader(c).ReadString('\n'); err == nil && !strings.Contains(line, `"error"`) {
			held++
		}
	}
	t.Logf("%d connections greeted and held", held)
	if r := serverCorral(t, state, "ls"); r.code != 0 || !strings.Contains(r.stdout, "victim") {
		t.Fatalf("ls with %d idle connections held: %+v", lockoutConns, r)
	}
	if r := serverCorral(t, state, "kill", id); r.code != 0 {
		t.Fatalf("kill with %d idle connections held: %+v", lockoutConns, r)
	}
}

// Nor can it by holding every slot and the reserve with connections each in the
// middle of a request it never finishes (cut only after Limits.Slow, and opened again
// at once): the connections of a peer over its fair share are closed for a newcomer,
// busy or not. Before: kill was refused "busy" for as long as they were held.
func TestBusyConnectionsCannotLockOut(t *testing.T) {
	state := serverState(t)
	sp := serverCorral(t, state, "spawn", "--name", "victim", "--", "sleep", "300")
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	id := strings.TrimSpace(sp.stdout)
	sock := filepath.Join(state, "server.sock")
	const partial = `{"v":1,"verb":"hello","args":{"pad":"` // a request never finished
	dial := func() net.Conn {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	for range server.DefaultLimits().Conns + server.DefaultLimits().Reserve {
		io.WriteString(dial(), partial)
	}
	// Then one at a time, each greeting first (so the server has read every one before
	// it) and left busy, until the server refuses one: every slot and the reserve are
	// busy. A server that closes a busy connection of the peer over its share for each
	// never refuses.
	for i := range 40 {
		c := dial()
		io.WriteString(c, `{"v":1,"verb":"hello","args":{"version":1}}`+"\n")
		c.SetReadDeadline(time.Now().Add(20 * time.Second))
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			t.Fatalf("connection %d: no answer: %v", i, err)
		}
		if strings.Contains(line, `"error"`) {
			t.Logf("connection %d refused: %s", i, line)
			break
		}
		io.WriteString(c, partial)
	}
	if r := serverCorral(t, state, "ls"); r.code != 0 || !strings.Contains(r.stdout, "victim") {
		t.Fatalf("ls with every connection busy: %+v", r)
	}
	if r := serverCorral(t, state, "kill", id); r.code != 0 {
		t.Fatalf("kill with every connection busy: %+v", r)
	}
}
