//go:build linux

package sshtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// Fleet is the hosts one Start started, and the ssh that reaches them.
type Fleet struct {
	// SSH is $CORRAL_SSH for a client of these hosts: ssh with the fleet's config.
	SSH string
	// Config is the ssh config file: every host's name is an alias in it.
	Config string
	hosts  map[string]*Host
}

// Host returns the host started under name.
func (f *Fleet) Host(name string) *Host {
	h, ok := f.hosts[name]
	if !ok {
		panic("sshtest: no host " + name)
	}
	return h
}

// Start starts one sshd per name, each reachable as `ssh -F f.Config NAME`. It
// skips the test when sshd is not installed, unless CI is set (then it fails).
func Start(t testing.TB, names ...string) *Fleet {
	t.Helper()
	sshd := findSSHD(t)
	dir := t.TempDir()
	hostKey, clientKey := filepath.Join(dir, "host_ed25519"), filepath.Join(dir, "client_ed25519")
	for _, k := range []string{hostKey, clientKey} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "sshtest", "-f", k).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	pub, err := os.ReadFile(clientKey + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	authorized := filepath.Join(dir, "authorized_keys")
	writeFile(t, authorized, string(pub))
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	f := &Fleet{Config: filepath.Join(dir, "ssh_config"), hosts: map[string]*Host{}}
	f.SSH = "ssh -F " + f.Config
	var cfg strings.Builder
	for _, name := range names {
		h := &Host{Name: name, t: t, sshd: sshd, dir: filepath.Join(dir, name), StateDir: filepath.Join(dir, name, "state")}
		if err := os.MkdirAll(h.StateDir, 0o700); err != nil {
			t.Fatal(err)
		}
		h.config = func(port int) string { return sshdConfig(h, port, hostKey, authorized) }
		f.hosts[name] = h
		t.Cleanup(h.cleanup) // after the test's own cleanups, which may still use the host
		h.start(t)
		cfg.WriteString(clientConfig(h, me.Username, clientKey))
	}
	writeFile(t, f.Config, cfg.String())
	return f
}

// findSSHD is the sshd to start, or the test skipped (failed under CI) without one.
func findSSHD(t testing.TB) string {
	t.Helper()
	sshd, err := exec.LookPath("sshd")
	if err != nil {
		sshd, err = exec.LookPath("/usr/sbin/sshd")
	}
	if err == nil {
		_, err = exec.LookPath("ssh-keygen")
	}
	if err == nil && os.Geteuid() == 0 {
		// Run as root, sshd wants its privilege-separation directory, which its
		// service makes at boot; .ci/run makes it when no service runs.
		if _, serr := os.Stat("/run/sshd"); serr != nil {
			err = fmt.Errorf("sshd run as root needs /run/sshd (mkdir -m 0755 /run/sshd, as .ci/run does): %w", serr)
		}
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no usable OpenSSH server (.ci/run installs openssh-server): %v", err)
		}
		t.Skipf("no usable OpenSSH server: %v", err)
	}
	return sshd
}

// sshdConfig is one host's sshd_config: public keys only, no PAM (no login
// session, no password), modes not checked (the keys live in a test's temp dir),
// the CORRAL_* variables a client sets accepted.
func sshdConfig(h *Host, port int, hostKey, authorized string) string {
	return fmt.Sprintf(`ListenAddress 127.0.0.1:%d
HostKey %s
AuthorizedKeysFile %s
PidFile %s
StrictModes no
UsePAM no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
PrintMotd no
AcceptEnv CORRAL_*
`, port, hostKey, authorized, filepath.Join(h.dir, "sshd.pid"))
}

// clientConfig is one host's alias. Nothing of this machine's environment goes
// over but CORRAL_CGROUP_ROOT (so a host owns its runs as the test asked: the
// sessions pass of make test sets it off): the test's CORRAL_STATE_DIR,
// CORRAL_CONFIG, CORRAL_RUN_ID and the like name this side's things, and a host's
// state dir is its own, set as a remote's login environment would give it.
func clientConfig(h *Host, userName, key string) string {
	return fmt.Sprintf(`Host %s
  HostName 127.0.0.1
  Port %d
  User %s
  IdentityFile %s
  IdentitiesOnly yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  GlobalKnownHostsFile /dev/null
  LogLevel ERROR
  BatchMode yes
  ConnectTimeout 10
  SendEnv CORRAL_CGROUP_ROOT
  SetEnv CORRAL_STATE_DIR=%s
`, h.Name, h.port, userName, key, h.StateDir)
}

// freePort is a 127.0.0.1 port nothing listens on now.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
