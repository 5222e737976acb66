//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"corral/demo/testkit/eventually"

	"github.com/creack/pty"
)

// A UI attached to a hostile server over ssh (a fake ssh running the test binary as
// a server that speaks the protocol, its frames laden with DCS, APC, PM, SOS and OSC
// strings, a cursor query and ENQ): every byte the UI writes to its terminal is
// read, and none of those strings reaches it, while the frame's text does.
func TestHostileFramesNeverReachTheTerminal(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ssh := filepath.Join(dir, "fake-ssh")
	os.WriteFile(ssh, []byte("#!/bin/sh\n"+hostileEnv+"=1 exec "+self+"\n"), 0o755)
	cfg := filepath.Join(dir, "corral.toml")
	os.WriteFile(cfg, []byte("[[host]]\nname = \"evil\"\nssh = \"evil\"\n"), 0o644)

	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	pty.Setsize(ptmx, &pty.Winsize{Cols: 140, Rows: 40})
	cmd := exec.Command(corralBin, "attach", "--ssh", "evil")
	cmd.Env = append(os.Environ(), "CORRAL_SSH="+ssh, "CORRAL_CONFIG="+cfg, "CORRAL_STATE_DIR="+t.TempDir(), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	var mu sync.Mutex
	var seen bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 32<<10)
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			seen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	screenHas := func(s string) bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(seen.String(), s)
	}
	// The run's frame drawn: its text, and the frames keep coming for a while after.
	eventually.True(t, 30*time.Second, "the hostile run's frame on the terminal", func() bool { return screenHas("HOSTILE-OK") })
	eventually.True(t, 10*time.Second, "its end drawn", func() bool { return screenHas("END") })
	ptmx.Write([]byte("D")) // detach
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case <-waited:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-waited
		t.Error("the UI did not detach")
	}
	<-done
	out := seen.String()
	for _, s := range []string{"hostile-dcs", "hostile-apc", "hostile-pm", "hostile-sos", "hostile-osc", "aG9zdGlsZQ==", "\x1b[6n", "\x05", "hostile-title\x1b"} {
		if strings.Contains(out, s) {
			i := strings.Index(out, s)
			t.Errorf("%q reached the terminal: …%q…", s, out[max(0, i-20):min(len(out), i+len(s)+20)])
		}
	}
}
