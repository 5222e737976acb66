package client

import (
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"
)

// AttachTo attaches to the state dir's server (started with start if none runs), or
// with host to the one on host over ssh: each of the UI's connections is
// `ssh HOST corral proxy` ($CORRAL_SSH names another ssh), which starts the server
// there if none runs; remoteDir is the state dir there ("" for its default).
func AttachTo(dir, host, remoteDir string, start func(dir string) error) (*Remote, error) {
	if host == "" {
		return Attach(dir, func() error { return start(dir) }, 10*time.Second)
	}
	return AttachWith(Host{Name: host, SSH: host, StateDir: remoteDir}.Dial)
}

// ProxySelf bridges in and out to this host's server for the state dir, starting it
// with start first if none runs (corral proxy, what attach --ssh runs on the other
// host).
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
// stdin and stdout: Close closes its stdin and waits for it to exit. Its stderr,
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
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	return &cmdConn{cmd: cmd, r: r, w: w, stderr: stderr}, nil
}

type cmdConn struct {
	cmd    *exec.Cmd
	r      io.Reader
	w      io.WriteCloser
	stderr *tail
	once   sync.Once
	err    error
}

func (c *cmdConn) Read(p []byte) (int, error)  { return c.r.Read(p) }
func (c *cmdConn) Write(p []byte) (int, error) { return c.w.Write(p) }

// Close hangs up: the command sees the end of its input and exits (ssh closes the
// session, the proxy at the far end its socket); its exit is waited for.
func (c *cmdConn) Close() error {
	c.once.Do(func() {
		c.w.Close()
		c.err = c.cmd.Wait()
	})
	return c.err
}
