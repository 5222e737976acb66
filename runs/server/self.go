package server

import (
	"os"
	"os/exec"
	"time"
)

// StartSelf starts the state dir's server as a daemon: this same binary, as
// `corral server --daemon --state-dir DIR`.
func StartSelf(dir string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	return StartDaemon(exe, "server", "--daemon", "--state-dir", dir)
}

// AttachTo attaches to the state dir's server (started if needed), or with host to
// the one on host over ssh: each of the UI's connections is `ssh HOST corral proxy`
// ($CORRAL_SSH names another ssh), which starts the server there if none runs;
// remoteDir is the state dir there ("" for its default).
func AttachTo(dir, host, remoteDir string) (*Remote, error) {
	if host == "" {
		return Attach(dir, func() error { return StartSelf(dir) }, 10*time.Second)
	}
	ssh := os.Getenv("CORRAL_SSH")
	if ssh == "" {
		ssh = "ssh"
	}
	return AttachWith(func() (*Client, error) {
		args := []string{host, "corral", "proxy"}
		if remoteDir != "" {
			args = append(args, "--state-dir", remoteDir)
		}
		cmd := exec.Command(ssh, args...)
		cmd.Stderr = os.Stderr
		conn, err := CommandConn(cmd)
		if err != nil {
			return nil, err
		}
		return NewClient(conn)
	})
}

// ProxySelf bridges in and out to this host's server for the state dir, starting it
// first if none runs (corral proxy, what attach --ssh runs on the other host).
func ProxySelf(dir string, in *os.File, out *os.File) error {
	c, err := Connect(dir, func() error { return StartSelf(dir) }, 10*time.Second)
	if err != nil {
		return err
	}
	c.Close()
	return Proxy(dir, in, out)
}
