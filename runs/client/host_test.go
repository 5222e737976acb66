package client

import (
	"slices"
	"testing"
)

// The remote command is one line for the remote shell: every word quoted when it
// must be, a ~/ path left for that shell to expand; the destination after --; ssh
// bounded by a connect timeout and keep-alives.
func TestHostCommand(t *testing.T) {
	t.Setenv("CORRAL_SSH", "ssh -F /tmp/cfg")
	h := Host{Name: "gpu", SSH: "me@gpu", Corral: "~/my bin/corral", StateDir: "/data/it's"}
	got := h.Command("ls", "--json").Args
	want := []string{"ssh", "-F", "/tmp/cfg", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3", "--", "me@gpu", `~/'my bin/corral' ls --json --state-dir '/data/it'\''s'`}
	if !slices.Equal(got, want) {
		t.Errorf("Command = %q\nwant      %q", got, want)
	}
	t.Setenv("CORRAL_SSH", "")
	if got := (Host{SSH: "b"}).Command("proxy").Args; !slices.Equal(got, []string{"ssh", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3", "--", "b", "corral proxy"}) {
		t.Errorf("default: %q", got)
	}
}
