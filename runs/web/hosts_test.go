package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"corral/config"
	"corral/demo/testkit/eventually"
	"corral/runs"
	"corral/runs/api"
	corral "corral/runs/client"
	"corral/runs/server/servertest"
)

// serveDir serves a supervisor of its own in a state dir of its own: a host.
func serveDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	sup := servertest.Supervisor(t, dir)
	servertest.Serve(t, sup, dir)
	return dir
}

func noStart() error { return errors.New("no server to start") }

// hostsOfMsg is the hosts a list message heads its groups with, name → status.
func hostsOfMsg(m map[string]any) map[string]string {
	out := map[string]string{}
	hs, _ := m["hosts"].([]any)
	for _, h := range hs {
		hm := h.(map[string]any)
		out[hm["name"].(string)] = hm["status"].(string)
	}
	return out
}

// Over several hosts (two servers in two state dirs, this machine's and beta, which
// cannot be reached at first) the list heads a group per host, beta's as unreachable;
// once beta is reached its runs come into its group; an action on beta's run reaches
// that run on beta's server, and its screen is beta's.
func TestHostGroups(t *testing.T) {
	local, beta := serveDir(t), serveDir(t)
	direct, err := corral.Attach(beta, noStart, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { direct.Close() })
	ctx := context.Background()
	rep, err := api.Spawn.Call(ctx, direct, api.SpawnArgs{Spec: runs.Spec{Name: "on-beta", Argv: []string{"cat"}, PTY: true}})
	if err != nil {
		t.Fatal(err)
	}
	betaRun := rep.ID

	var reachable atomic.Bool
	f, err := corral.OpenFleet([]corral.Member{corral.Local(local, noStart),
		{Host: corral.Host{Name: "beta", SSH: "beta"}, Attach: func() (*corral.Remote, error) {
			if !reachable.Load() {
				return nil, errors.New("ssh: connect to host beta: Connection refused")
			}
			return corral.Attach(beta, noStart, 5*time.Second)
		}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if _, err := api.Spawn.Call(api.OnHost(ctx, config.LocalHost), f, api.SpawnArgs{Spec: runs.Spec{Name: "here", Argv: []string{"sleep", "30"}}}); err != nil {
		t.Fatal(err)
	}

	s := New(f, Options{Token: testToken})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close) // after the live channels' ends (cleanups run last first)
	go s.Pump()

	lr := openLive(t, s, ts, "")
	lr.next(t, "hello")
	m := lr.next(t, "runs")
	if hs := hostsOfMsg(m); hs[config.LocalHost] != "connected" || hs["beta"] != "unreachable" {
		t.Fatalf("hosts while beta cannot be reached: %v", m["hosts"])
	}

	reachable.Store(true)
	var list map[string]any
	deadline := time.Now().Add(20 * time.Second)
	for list == nil && time.Now().Before(deadline) {
		m := lr.next(t, "runs") // a fresh list once beta is back
		if hostsOfMsg(m)["beta"] == "connected" {
			list = m
		}
	}
	if list == nil {
		t.Fatal("beta never came back in the list")
	}
	got := map[string]string{}
	for _, r := range list["runs"].([]any) {
		rm := r.(map[string]any)
		got[rm["name"].(string)], _ = rm["host"].(string)
	}
	if got["here"] != config.LocalHost || got["on-beta"] != "beta" {
		t.Fatalf("the list's runs by host: %v", got)
	}

	view := openLive(t, s, ts, betaRun)
	view.next(t, "hello")
	own := map[string]string{"Origin": ts.URL}
	if code, body := do(t, ts, "POST", "/api/runs/"+betaRun+"/submit", own, cookieOf(s), `{"text":"hello-beta"}`); code != http.StatusNoContent {
		t.Fatalf("submit to beta's run: %d %s", code, body)
	}
	eventually.True(t, 10*time.Second, "beta's cat got the line", func() bool {
		p, err := api.Poll.Call(ctx, direct, api.PollArgs{ID: betaRun})
		return err == nil && strings.Contains(string(p.Output), "hello-beta")
	})
	eventually.True(t, 10*time.Second, "beta's screen in the view shows the line", func() bool {
		for {
			select {
			case m := <-view.msgs:
				if m["type"] == "screen" {
					b, _ := json.Marshal(m)
					if strings.Contains(string(b), "hello-beta") {
						return true
					}
				}
			default:
				return false
			}
		}
	})
}
