//go:build linux

package sshtest

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"corral/demo/testkit"
	"corral/reaper"
)

// ssh runs `ssh -F cfg host cmd` with extra environment and returns its output
// and exit code.
func ssh(t *testing.T, f *Fleet, env []string, host, cmd string) (string, int) {
	t.Helper()
	c := exec.Command("sh", "-c", f.SSH+` "$0" "$1"`, host, cmd)
	c.Env = append(os.Environ(), env...)
	out, err := c.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// Each host is its own sshd with its own state dir: what its sessions see as
// CORRAL_STATE_DIR is the host's, whatever this side's environment says.
func TestHostsAreSeparate(t *testing.T) {
	f := Start(t, "alpha", "beta")
	for _, name := range []string{"alpha", "beta"} {
		out, code := ssh(t, f, []string{"CORRAL_STATE_DIR=/elsewhere", "CORRAL_CONFIG=/x.toml"}, name,
			`echo "$CORRAL_STATE_DIR|$CORRAL_CONFIG"`)
		if want := f.Host(name).StateDir + "|\n"; code != 0 || out != want {
			t.Errorf("%s: %q (exit %d), want %q", name, out, code, want)
		}
	}
	if f.Host("alpha").Port() == f.Host("beta").Port() {
		t.Error("two hosts on one port")
	}
}

// Stop drops the host's connections (a client's ssh exits 255 and the command its
// session ran ends) and refuses new ones; Restart takes them again on the same port.
func TestStopAndRestart(t *testing.T) {
	f := Start(t, "alpha")
	h := f.Host("alpha")
	port := h.Port()
	c := exec.Command("sh", "-c", f.SSH+` alpha 'echo $$; exec sleep 600'`)
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	pid, _ := strconv.Atoi(strings.TrimSpace(line))
	sleeper := testkit.Pin(t, pid)
	h.Stop()
	var ee *exec.ExitError
	if err := c.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 255 {
		t.Errorf("ssh after Stop: %v, want exit 255", err)
	}
	if !gone([]reaper.Fingerprint{sleeper}, startLimit) {
		t.Error("the stopped host's command is still running")
	}
	if out, code := ssh(t, f, nil, "alpha", "true"); code != 255 {
		t.Errorf("a stopped host answered: %q (exit %d)", out, code)
	}
	h.Restart()
	if out, code := ssh(t, f, nil, "alpha", "echo back"); code != 0 || out != "back\n" || h.Port() != port {
		t.Errorf("after Restart: %q (exit %d), port %d (was %d)", out, code, h.Port(), port)
	}
}
