package client

import (
	"context"
	"slices"
	"testing"
	"time"
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

// A call under WithLimit names the limit as set, however much of it had passed
// when the call began; under a shorter deadline set inside it, or a plain one, it
// names what remained.
func TestLimitStated(t *testing.T) {
	ctx, cancel := WithLimit(context.Background(), 5*time.Second)
	defer cancel()
	if limit, stated := limitOf(ctx, time.Minute); stated != 5*time.Second || limit > 5*time.Second {
		t.Errorf("under WithLimit(5s): limit %v, stated %v; want at most 5s, stated 5s", limit, stated)
	}
	inner, cancel2 := context.WithTimeout(ctx, 2*time.Second)
	defer cancel2()
	if _, stated := limitOf(inner, time.Minute); stated > 2*time.Second || stated < time.Second {
		t.Errorf("a shorter deadline inside WithLimit is stated as %v, want its own remainder", stated)
	}
	short, cancel3 := context.WithTimeout(context.Background(), time.Second)
	defer cancel3()
	outer, cancel4 := WithLimit(short, 5*time.Second)
	defer cancel4()
	if _, stated := limitOf(outer, time.Minute); stated > time.Second {
		t.Errorf("WithLimit(5s) under a 1s deadline is stated as %v, want at most 1s", stated)
	}
	if limit, stated := limitOf(context.Background(), time.Minute); limit != time.Minute || stated != time.Minute {
		t.Errorf("without a deadline: %v, %v; want the default", limit, stated)
	}
}
