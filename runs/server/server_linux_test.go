package server

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"corral/runs/api"
	"corral/runs/client"
)

func TestForeignSocketRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to chown the socket")
	}
	h := newHarness(t)
	os.Chown(h.ln.Path, 65534, 65534)
	if _, err := client.Dial(h.dir); !errors.Is(err, api.ErrForeign) {
		t.Fatalf("dial another user's socket: %v", err)
	}
}

// A client of another uid is refused by the kernel's word (SO_PEERCRED), even when the
// file modes would let it connect.
func TestForeignPeerRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as another uid")
	}
	h := newHarness(t)
	exe, _ := os.Executable()
	bin := filepath.Join(t.TempDir(), "client")
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(bin, data, 0o755)
	for _, d := range []string{filepath.Dir(bin), filepath.Dir(filepath.Dir(bin)), h.dir, filepath.Dir(h.dir)} {
		os.Chmod(d, 0o755)
	}
	os.Chmod(h.ln.Path, 0o666)
	cmd := exec.Command(bin)
	cmd.Env = []string{peerTestEnv + "=" + h.ln.Path}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("client as uid 65534: %v: %s", err, out)
	}
	if !strings.Contains(string(out), "another user") || !strings.Contains(string(out), "peer uid 65534") {
		t.Fatalf("foreign peer got: %s", out)
	}
}
