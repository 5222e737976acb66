package client

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"

	"corral/config"
	"corral/runs"
	"corral/runs/api"
)

// LocalHost is the name of this machine's server among several hosts (DESIGN §19):
// a [[host]] entry cannot take it.
const LocalHost = config.LocalHost

// Host is a server Corral reaches: this machine's (SSH empty) or one on another
// machine over OpenSSH, each with its own runs, registry and ownership (DESIGN §19).
type Host struct {
	Name     string // as the UI shows it and --host names it
	SSH      string // the ssh destination (an alias of ~/.ssh/config, user@host…); "" for this machine
	Corral   string // the corral binary there ("" for corral on the remote PATH)
	StateDir string // the state dir there ("" for its default)
}

// Remote reports whether the host is reached over ssh.
func (h Host) Remote() bool { return h.SSH != "" }

// Command is ssh running `corral ARGS… [--state-dir DIR]` on the host: the one
// construction of every ssh command Corral runs (Dial's corral proxy, corral ls
// across hosts). $CORRAL_SSH, split into words as GIT_SSH_COMMAND is (no shell),
// names the ssh and its options ("ssh -F cfg"). ssh hands the remote user's shell
// one line, so each word is quoted for it; a path under ~/ keeps its ~ unquoted
// for that shell to expand.
func (h Host) Command(args ...string) *exec.Cmd {
	ssh := strings.Fields(os.Getenv("CORRAL_SSH"))
	if len(ssh) == 0 {
		ssh = []string{"ssh"}
	}
	words := append([]string{h.corral()}, args...)
	if h.StateDir != "" {
		words = append(words, "--state-dir", h.StateDir)
	}
	line := make([]string, len(words))
	for i, w := range words {
		line[i] = shellWord(w)
	}
	// "--" ends ssh's options: a destination can never be read as one.
	argv := append(append(ssh[1:], keepAlive...), "--", h.SSH, strings.Join(line, " "))
	return exec.Command(ssh[0], argv...)
}

// keepAlive makes ssh ask the far end every 5 s and give up after 3 answers missed: a
// link that died without a word (a host gone off the network, a laptop asleep) ends
// its connection within 15 s, so the UI says the host is unreachable and tries again,
// rather than waiting on TCP's own timeouts (hours). ssh's -o wins over its config.
var keepAlive = []string{"-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"}

func (h Host) corral() string {
	if h.Corral == "" {
		return "corral"
	}
	return h.Corral
}

// shellWord is w quoted for a POSIX shell (a leading ~/ left for it to expand).
func shellWord(w string) string {
	if rest, ok := strings.CutPrefix(w, "~/"); ok {
		return "~/" + shellWord(rest)
	}
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// Dial opens one connection to the host's server over ssh (corral proxy there
// starts the server if none runs). ssh's stderr is kept, not shown (in the UI a
// stray line would tear the screen): a connection that fails before the server
// said hello is one error saying why, from ssh's exit and its last line.
func (h Host) Dial() (*Client, error) {
	cmd := h.Command("proxy")
	conn, err := CommandConn(cmd)
	if err != nil {
		return nil, fmt.Errorf("host %s: %w", h.Name, err)
	}
	c, err := NewClient(conn)
	if err != nil {
		cc := conn.(*cmdConn)
		return nil, h.failed(err, cc.Close(), cc.stderr.last())
	}
	return c, nil
}

// Output runs `corral ARGS…` on the host over ssh and returns what it printed; a
// failure is worded as Dial's.
func (h Host) Output(args ...string) ([]byte, error) {
	cmd := h.Command(args...)
	stderr := &tail{}
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		return out, h.failed(err, err, stderr.last())
	}
	return out, nil
}

// Exit codes that say what went wrong before corral ran there: ssh's own (it
// could not connect or log in), and the remote shell's for a command it could
// not find or not execute.
const (
	exitSSH         = 255
	exitNotFound    = 127
	exitCannotExec  = 126
	remoteSetupHelp = "install it there or set corral = \"/path/to/corral\" in its [[host]] entry"
)

// hostError is a host's failure in the user's words, of a kind (ErrUnreachable,
// ErrNoCorral) errors.Is finds.
type hostError struct {
	msg  string
	kind error
}

func (e *hostError) Error() string { return e.msg }
func (e *hostError) Unwrap() error { return e.kind }

// failed words the failure err of a command on the host, given how ssh exited
// (exit: Wait's error) and the last line it wrote to stderr.
func (h Host) failed(err, exit error, last string) error {
	var ee *exec.ExitError
	if !errors.As(exit, &ee) || errors.Is(err, api.ErrVersion) { // a mismatch: corral there answered
		return fmt.Errorf("host %s: %w", h.Name, err)
	}
	said := ""
	if last != "" {
		said = fmt.Sprintf(" (the remote shell: %q)", last)
	}
	at := fmt.Sprintf("host %s (ssh %s)", h.Name, h.SSH)
	switch code := ee.ExitCode(); {
	case code == exitSSH:
		if last == "" {
			last = "ssh exited with status 255"
		}
		return &hostError{fmt.Sprintf("host %s: ssh %s: %s", h.Name, h.SSH, last), ErrUnreachable}
	case code == exitNotFound && h.Corral == "":
		return &hostError{fmt.Sprintf("%s: corral is not installed on its PATH%s; %s", at, said, remoteSetupHelp), ErrNoCorral}
	case code == exitNotFound || code == exitCannotExec:
		return &hostError{fmt.Sprintf("%s: no corral runs as %s there%s; install it there or fix corral = %q in its [[host]] entry",
			at, h.Corral, said, h.Corral), ErrNoCorral}
	case last != "":
		return fmt.Errorf("%s: %s (exit %d)", at, last, code)
	}
	return fmt.Errorf("%s: %w (ssh exited with status %d)", at, err, ee.ExitCode())
}

// tail keeps the last tailSize bytes written to it: a command's stderr, for its
// last line.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 4 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(p), nil
}

// last is the last line that says something, printable.
func (t *tail) last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := bytes.Split(bytes.TrimRight(t.buf, "\r\n\t "), []byte("\n"))
	return strings.TrimSpace(runs.Printable(string(lines[len(lines)-1])))
}
