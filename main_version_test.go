package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// nextBin is corral built to speak protocol 2 as corral 0.2.0-next (api's
// protocolOverride, a link-time variable): the newer side of a version mismatch.
var (
	nextOnce sync.Once
	nextBin  string
	nextErr  error
)

func nextCorral(t *testing.T) string {
	t.Helper()
	nextOnce.Do(func() {
		nextBin = filepath.Join(filepath.Dir(corralBin), "corral-next")
		out, err := exec.Command("go", "build", "-o", nextBin, "-ldflags",
			"-X corral/runs/api.protocolOverride=2 -X main.version=0.2.0-next", ".").CombinedOutput()
		if err != nil {
			nextErr = fmt.Errorf("build corral-next: %v\n%s", err, out)
		}
	})
	if nextErr != nil {
		t.Fatal(nextErr)
	}
	return nextBin
}

// withBin is serverCorral with another binary.
func withBin(t *testing.T, bin, state string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(cmd.Environ(), "CORRAL_STATE_DIR="+state)
	return run(t, cmd)
}

// A client and a server of different protocol versions: each way round the client
// fails with one message naming the server's pid, both protocol versions and both
// binaries, and what to do — not a decode error. The server goes on serving clients
// of its own version.
func TestProtocolVersionMismatch(t *testing.T) {
	next := nextCorral(t)
	for _, c := range []struct {
		name                 string
		server, client       string // binaries
		srvProto, cliProto   int
		srvBinary, cliBinary string
		advice               string
	}{
		{"older client", next, corralBin, 2, 1, "0.2.0-next", version, "use the binary the server runs, or a newer corral"},
		{"older server", corralBin, next, 1, 2, version, "0.2.0-next", "move the server to this one: `corral server --upgrade` (with this binary) hands it every run, and none ends"},
	} {
		t.Run(c.name, func(t *testing.T) {
			state := t.TempDir()
			if r := withBin(t, c.server, state, "spawn", "--name", "sleeper", "--", "sleep", "300"); r.code != 0 {
				t.Fatalf("spawn: %+v", r)
			}
			pid := serverPID(t, state)
			t.Cleanup(func() {
				withBin(t, c.server, state, "shutdown")
				waitGone(t, pid, "server")
			})
			r := withBin(t, c.client, state, "poll", "sleeper")
			want := fmt.Sprintf("the server (pid %d, corral %s) runs corral protocol %d, this client (corral %s) speaks %d: ",
				pid, c.srvBinary, c.srvProto, c.cliBinary, c.cliProto)
			if r.code == 0 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, c.advice) {
				t.Fatalf("mismatch: code %d, stderr %q\nwant it to hold %q and %q", r.code, r.stderr, want, c.advice)
			}
			if n := strings.Count(strings.TrimSpace(r.stderr), "\n"); n != 0 {
				t.Errorf("want one line, got %d more: %q", n, r.stderr)
			}
			if strings.Contains(r.stderr, "decode") || strings.Contains(r.stderr, "malformed") {
				t.Errorf("a decode error: %q", r.stderr)
			}
			t.Logf("%s", r.stderr)
			// The server still serves its own version.
			if r := withBin(t, c.server, state, "poll", "sleeper"); r.code != 0 {
				t.Errorf("the server's own client after the mismatch: %+v", r)
			}
		})
	}
}
