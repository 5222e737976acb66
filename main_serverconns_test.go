package main

import (
	"bufio"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
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
