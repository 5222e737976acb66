package client

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

// AttachTo attaches to the state dir's server (started with start if none runs), or
// with host to the one on host over ssh: each of the UI's connections is
// `ssh HOST corral proxy` ($CORRAL_SSH names another ssh), the first of them
// starting the server there if none runs; remoteDir is the state dir there ("" for
// its default).
func AttachTo(dir, host, remoteDir string, start func(dir string) error) (*Remote, error) {
	if host == "" {
		return Attach(dir, func() error { return start(dir) }, 10*time.Second)
	}
	return AttachWith(startingFirst(context.Background(), Host{Name: host, SSH: host, StateDir: remoteDir}))
}

// startingFirst dials h within ctx for one attachment: the first connection starts
// its server when none runs (corral proxy --start), the others only reach it.
func startingFirst(ctx context.Context, h Host) func() (*Client, error) {
	var started atomic.Bool
	return func() (*Client, error) {
		return h.DialContext(ctx, started.CompareAndSwap(false, true))
	}
}

// ExitNoServer is corral proxy's exit code when no server runs for the state dir
// and it was not told to start one (--start): Host.Dial's ErrNoServer.
const ExitNoServer = 3

// ProxySelf bridges in and out to this host's server for the state dir, starting it
// with start first if none runs (corral proxy --start, what spawn --host and a UI's
// first attachment run on the other host).
func ProxySelf(dir string, in io.Reader, out io.Writer, start func(dir string) error) error {
	c, err := Connect(dir, func() error { return start(dir) }, 10*time.Second)
	if err != nil {
		return err
	}
	c.Close()
	return Proxy(dir, in, out)
}

// Proxy bridges one connection to the state dir's server to rw (corral proxy, at the
// far end of `ssh HOST corral proxy`: rw is its stdin and stdout) until either side
// hangs up.
func Proxy(dir string, in io.Reader, out io.Writer) error {
	conn, err := DialSocket(dir)
	if err != nil {
		return err
	}
	defer conn.Close()
	done := make(chan struct{}, 2)
	go func() { io.Copy(conn, in); done <- struct{}{} }()
	go func() { io.Copy(out, conn); done <- struct{}{} }()
	<-done
	return nil
}

// CommandConn runs a command (ssh HOST corral proxy) and is a connection over its
// stdin and stdout: Close closes its stdin and waits for it to exit, for closeGrace at
// most; then it is killed, so a far end that never hangs up (a hung host, a remote
// that answers garbage for ever) cannot keep the caller, or ssh, alive. On Linux ssh
// is also ended when the process that started it dies (endWithParent). Its stderr,
// unless cmd has one, is kept (its last 4 KiB) for Host.Dial to say why it failed,
// never shown.
func CommandConn(cmd *exec.Cmd) (io.ReadWriteCloser, error) {
	stderr := &tail{}
	if cmd.Stderr == nil {
		cmd.Stderr = stderr
	}
	// ssh may leave a helper (a ProxyCommand) holding its stderr: its exit, not
	// theirs, ends Close.
	cmd.WaitDelay = time.Second
	endWithParent(cmd)
	// Pipes of our own, not StdinPipe/StdoutPipe: Wait, called as soon as the command
	// starts (to notice its exit), then leaves what it wrote last to be read.
	inR, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	r, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		w.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	c := &cmdConn{cmd: cmd, r: r, w: w, stderr: stderr, exited: make(chan struct{})}
	go func() {
		c.err = cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

// closeGrace is how long Close waits for the command to end by itself once its input
// is closed (ssh passing the end on, the proxy there hanging up) before killing it.
const closeGrace = 2 * time.Second

type cmdConn struct {
	cmd    *exec.Cmd
	r      io.ReadCloser
	w      io.WriteCloser
	stderr *tail
	once   sync.Once
	exited chan struct{} // closed once Wait returned, with err
	err    error
}

func (c *cmdConn) Read(p []byte) (int, error)  { return c.r.Read(p) }
func (c *cmdConn) Write(p []byte) (int, error) { return c.w.Write(p) }

// Close hangs up: the command sees the end of its input and exits (ssh closes the
// session, the proxy at the far end its socket); its exit is waited for, closeGrace
// at most, then it is killed.
func (c *cmdConn) Close() error { return c.end(closeGrace) }

// Abort ends the connection at once (a call cut short by its deadline: nothing
// more is expected of it): the command is killed, its output no longer read.
func (c *cmdConn) Abort() { c.end(0) }

// end closes the command's input, waits up to grace for it to exit, closes its
// output's read end, and kills it if it is still running; its exit is waited for.
func (c *cmdConn) end(grace time.Duration) error {
	c.once.Do(func() {
		c.w.Close()
		if grace > 0 {
			t := time.NewTimer(grace)
			select {
			case <-c.exited:
			case <-t.C:
			}
			t.Stop()
		}
		c.r.Close() // a writer that goes on gets EPIPE, and a read in flight returns
		select {
		case <-c.exited:
		default:
			c.cmd.Process.Kill()
			<-c.exited
		}
	})
	return c.err
}
