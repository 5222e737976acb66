package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"corral/runs"
	"corral/runs/api"
)

// Host is a server Corral reaches: this machine's (SSH empty) or one on another
// machine over OpenSSH, each with its own runs, registry and ownership.
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
func (h Host) Command(args ...string) *exec.Cmd { return h.command(context.Background(), args...) }

// command is Command, killed when ctx ends (as exec.CommandContext).
func (h Host) command(ctx context.Context, args ...string) *exec.Cmd {
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
	argv := append(append(ssh[1:], sshOptions...), "--", h.SSH, strings.Join(line, " "))
	return exec.CommandContext(ctx, ssh[0], argv...)
}

// sshOptions bound what ssh waits for. ConnectTimeout: the TCP connection and ssh's
// own handshake within SSHConnectTimeout, not the system's TCP timeout (minutes)
// for a host that drops packets. ServerAlive: once connected, ssh asks the far end
// every 5 s and gives up after 3 answers missed, so a link that died without a word
// (a host gone off the network, a laptop asleep) ends its connection within 15 s, and
// the UI says the host is unreachable and tries again, rather than waiting on TCP's
// own timeouts (hours). The options in $CORRAL_SSH come first, and ssh takes the first
// value of an option it is given: the user's win.
var sshOptions = []string{"-o", fmt.Sprintf("ConnectTimeout=%d", int(SSHConnectTimeout/time.Second)),
	"-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"}

// How long a host is given. SSHConnectTimeout is ssh's ConnectTimeout; DialLimit
// bounds a whole dial (ssh connecting and logging in, corral proxy starting there,
// the hello) and OutputLimit a whole command run there (corral ls, corral version),
// when the caller gives no deadline (--timeout). Nothing else bounds a far end that
// never answers: a fake or hung ssh, a remote shell that waits on something.
const (
	SSHConnectTimeout = 10 * time.Second
	DialLimit         = SSHConnectTimeout + api.HelloBudget
	OutputLimit       = DialLimit
	// OutputMax bounds what a command there may print (a listing of thousands of
	// runs is a few MiB): a far end that prints more is not answering the question.
	OutputMax = api.MaxMessage
)

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

// Dial opens one connection to the host's server over ssh, within DialLimit:
// corral proxy there attaches to its server only, never starts one (a UI that
// reconnects must not undo a corral shutdown there). ssh's stderr is kept, not shown
// (in the UI a stray line would tear the screen): a connection that fails before the
// server said hello is one error saying why, from ssh's exit and its last line.
func (h Host) Dial() (*Client, error) { return h.DialContext(context.Background(), false) }

// DialStart is Dial, starting the server there when none runs (corral proxy
// --start): for spawn, and a UI's first attachment.
func (h Host) DialStart() (*Client, error) { return h.DialContext(context.Background(), true) }

// DialContext is Dial (start: DialStart) within ctx's deadline, or DialLimit when it
// has none. A far end that does not greet in time, or answers something else than
// the protocol (helloMax), is one error saying so; its ssh is ended.
func (h Host) DialContext(ctx context.Context, start bool) (*Client, error) {
	limit, stated := limitOf(ctx, DialLimit)
	// The dial's own deadline, whose cause says what was waited for (ctx's own, if it
	// comes first, is worded so too).
	late := fmt.Errorf("%w within %v: ssh did not connect, or corral there did not greet", ErrNoAnswer, stated)
	ctx, cancel := context.WithTimeoutCause(ctx, limit, late)
	defer cancel()
	args := []string{"proxy"}
	if start {
		args = append(args, "--start")
	}
	conn, err := CommandConn(h.Command(args...))
	if err != nil {
		return nil, fmt.Errorf("host %s: %w", h.Name, err)
	}
	c, err := newClient(ctx, conn)
	if errors.Is(err, late) || errors.Is(err, context.DeadlineExceeded) { // one wording, whichever deadline came first
		err = late
	}
	if err != nil {
		cc := conn.(*cmdConn)
		if errors.Is(err, ErrNotProtocol) || errors.Is(err, ErrNoAnswer) || errors.Is(err, context.Canceled) {
			cc.Abort() // nothing more to wait for from that far end, or the caller gave up
		}
		return nil, h.failed(err, cc.Close(), cc.stderr.last())
	}
	return c, nil
}

// limitKey holds the limit a WithLimit context was given, with the deadline it set.
type limitKey struct{}

type statedLimit struct {
	d        time.Duration
	deadline time.Time
}

// WithLimit is context.WithTimeout(ctx, d) that also remembers d, so a host call
// made under it names the limit the user set ("within 5s") rather than what was
// left of it when the call began ("within 4.999s").
func WithLimit(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if pd, ok := ctx.Deadline(); ok && time.Until(pd) < d {
		return context.WithTimeout(ctx, d) // the parent's, shorter, is the limit
	}
	l := &statedLimit{d: d}
	ctx, cancel := context.WithTimeout(context.WithValue(ctx, limitKey{}, l), d)
	l.deadline, _ = ctx.Deadline()
	return ctx, cancel
}

// limitOf is how long a call under ctx may take (what remains of its deadline, or
// dflt without one) and how to name that limit: WithLimit's own when it set the
// deadline (not an earlier one set under it), else the remainder to the millisecond.
func limitOf(ctx context.Context, dflt time.Duration) (limit, stated time.Duration) {
	d, ok := ctx.Deadline()
	if !ok {
		return dflt, dflt
	}
	limit = time.Until(d)
	if l, ok := ctx.Value(limitKey{}).(*statedLimit); ok && l.deadline.Equal(d) {
		return limit, l.d
	}
	return limit, limit.Round(time.Millisecond)
}

// Output runs `corral ARGS…` on the host over ssh and returns what it printed,
// within OutputLimit and OutputMax; a failure is worded as Dial's.
func (h Host) Output(args ...string) ([]byte, error) {
	return h.OutputContext(context.Background(), args...)
}

// OutputContext is Output within ctx's deadline (OutputLimit when it has none): ssh
// is killed when it passes, or when the command prints more than OutputMax.
func (h Host) OutputContext(ctx context.Context, args ...string) ([]byte, error) {
	limit, stated := limitOf(ctx, OutputLimit)
	late := fmt.Errorf("%w within %v: ssh did not connect, or corral %s there did not finish", ErrNoAnswer, stated, args[0])
	ctx, cancel := context.WithTimeoutCause(ctx, limit, late)
	defer cancel()
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	cmd := h.command(ctx, args...)
	cmd.WaitDelay = time.Second
	endWithParent(cmd)
	stderr := &tail{}
	out := &capped{max: OutputMax, over: func() {
		stop(fmt.Errorf("%w: corral %s there printed over %d bytes", ErrNotProtocol, args[0], OutputMax))
	}}
	cmd.Stdout, cmd.Stderr = out, stderr
	err := cmd.Run()
	cause := context.Cause(ctx)
	if errors.Is(cause, context.DeadlineExceeded) { // the caller's deadline, come first
		cause = late
	}
	if errors.Is(cause, ErrNoAnswer) || errors.Is(cause, ErrNotProtocol) {
		return nil, h.failed(cause, err, stderr.last())
	}
	if err != nil {
		return out.buf, h.failed(err, err, stderr.last())
	}
	return out.buf, nil
}

// capped keeps what is written to it up to max bytes; over it, it calls over once
// and fails the write.
type capped struct {
	max  int
	buf  []byte
	over func()
	done bool
}

func (c *capped) Write(p []byte) (int, error) {
	if c.done || len(c.buf)+len(p) > c.max {
		if !c.done {
			c.done = true
			c.over()
		}
		return 0, ErrNotProtocol
	}
	c.buf = append(c.buf, p...)
	return len(p), nil
}

// Exit codes that say what went wrong before corral ran there: ssh's own (it
// could not connect or log in), and the remote shell's for a command it could
// not find or not execute.
const (
	exitSSH         = 255
	exitNoServer    = ExitNoServer
	exitUsage       = 2
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
	at := fmt.Sprintf("host %s (ssh %s)", h.Name, h.SSH)
	switch {
	case errors.Is(err, ErrNoAnswer):
		if last != "" {
			return &hostError{fmt.Sprintf("%s: %v (ssh's last words: %q)", at, err, last), ErrUnreachable}
		}
		return &hostError{fmt.Sprintf("%s: %v", at, err), ErrUnreachable}
	case errors.Is(err, ErrNotProtocol):
		return &hostError{fmt.Sprintf("%s: %v (does a login script there print to stdout?); its ssh was ended", at, err), ErrNotProtocol}
	}
	var ee *exec.ExitError
	if !errors.As(exit, &ee) || errors.Is(err, api.ErrVersion) { // a mismatch: corral there answered
		return fmt.Errorf("host %s: %w", h.Name, err)
	}
	said := ""
	if last != "" {
		said = fmt.Sprintf(" (the remote shell: %q)", last)
	}
	switch code := ee.ExitCode(); {
	case code == exitUsage && strings.Contains(last, "unknown flag"):
		return fmt.Errorf("%s: the corral there does not know what this one asks (%q): it is older; install the same version there", at, last)
	case code == exitNoServer:
		return &hostError{fmt.Sprintf("%s: no corral server is running there (corral spawn --host %s starts one)", at, h.Name), ErrNoServer}
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
