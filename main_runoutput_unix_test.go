//go:build unix

package main

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// atTerminal runs corral with its stdout on a new PTY, as at a user's terminal, and
// returns what the terminal was given (its line discipline's CR before each LF
// included) and the exit code.
func atTerminal(t *testing.T, state string, args ...string) (string, int) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	cmd := corral(t, args...)
	cmd.Env = append(cmd.Env, "CORRAL_STATE_DIR="+state)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = tty, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	read := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(ptmx) // EIO once corral has exited and the terminal is hung up
		read <- b
	}()
	err = cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	out := <-read
	if code != 0 {
		t.Logf("corral %v: exit %d: %s", args, code, stderr.String())
	}
	return string(out), code
}

// A run that prints terminal queries (cursor position ESC[6n, device attributes
// ESC[c, ENQ) and a title: corral log and poll at a terminal show them as cat -v
// does, so the terminal answers nothing into the user's shell, colours kept; --raw
// passes the queries (the risk its help names); piped, the output is the bytes as
// the run wrote them.
func TestRunOutputAtTerminalNeutralised(t *testing.T) {
	state := serverState(t)
	const printed = "before\x1b[31mred\x1b[0m\x1b[6n\x1b[c\x05\x1b]0;title\x07after\n"
	sp := serverCorral(t, state, "spawn", "--name", "asker", "--shell", "--", `printf 'before\033[31mred\033[0m\033[6n\033[c\005\033]0;title\007after\n'`)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	if r := serverCorral(t, state, "wait", "asker"); r.code != 0 {
		t.Fatalf("wait: %+v", r)
	}
	const shown = "before\x1b[31mred\x1b[0m^[[6n^[[c^E^[]0;title^Gafter\r\n"
	for _, verb := range []string{"log", "poll"} {
		out, code := atTerminal(t, state, verb, "asker")
		if code != 0 || out != shown {
			t.Errorf("%s at a terminal: exit %d, %q; want %q", verb, code, out, shown)
		}
	}
	out, code := atTerminal(t, state, "log", "--raw", "asker")
	if code != 0 || !strings.Contains(out, "\x1b[6n\x1b[c\x05") || strings.Contains(out, "title") {
		t.Errorf("log --raw at a terminal: exit %d, %q; want the queries passed, the title dropped", code, out)
	}
	if r := serverCorral(t, state, "log", "asker"); r.code != 0 || r.stdout != printed {
		t.Errorf("log piped: %+v; want %q", r, printed)
	}
	if r := serverCorral(t, state, "log", "--raw", "asker"); r.code != 0 || r.stdout != printed {
		t.Errorf("log --raw piped: %+v; want %q", r, printed)
	}
	if h := serverCorral(t, state, "log", "--help"); !strings.Contains(h.stdout, "ESC[6n") || !strings.Contains(h.stdout, "typed into your shell") {
		t.Errorf("log --help does not say what --raw risks: %q", h.stdout)
	}
}
