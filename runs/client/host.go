package client

import (
	"os"
	"os/exec"
	"strings"

	"corral/config"
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

// sshCommand is ssh running corral proxy on the host: $CORRAL_SSH, split into words
// as GIT_SSH_COMMAND is (no shell), names the ssh and its options ("ssh -F cfg").
func (h Host) sshCommand() *exec.Cmd {
	ssh := strings.Fields(os.Getenv("CORRAL_SSH"))
	if len(ssh) == 0 {
		ssh = []string{"ssh"}
	}
	corral := h.Corral
	if corral == "" {
		corral = "corral"
	}
	args := append(ssh[1:], h.SSH, corral, "proxy")
	if h.StateDir != "" {
		args = append(args, "--state-dir", h.StateDir)
	}
	return exec.Command(ssh[0], args...)
}

// Dial opens one connection to the host's server over ssh (corral proxy there
// starts the server if none runs).
func (h Host) Dial() (*Client, error) {
	cmd := h.sshCommand()
	cmd.Stderr = os.Stderr
	conn, err := CommandConn(cmd)
	if err != nil {
		return nil, err
	}
	return NewClient(conn)
}
