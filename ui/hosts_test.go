package ui

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/api"
)

// hostedFake is a fake engine over several hosts, as client.Fleet is one: it says the
// hosts' states, answers a snapshot for one host with that host's runs alone, and
// notes which host each spawn went to.
type hostedFake struct {
	*fakeEngine
	mu         sync.Mutex
	hosts      []api.HostState
	spawnHosts []string
}

func (h *hostedFake) Hosts() []api.HostState {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.hosts)
}

func (h *hostedFake) setHost(s api.HostState) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := range h.hosts {
		if h.hosts[i].Name == s.Name {
			h.hosts[i] = s
		}
	}
}

func (h *hostedFake) HistoryOf(string) []runs.Event { return nil }

func (h *hostedFake) Invoke(ctx context.Context, op api.Operation, args any) (any, error) {
	host := api.HostOf(ctx)
	if op.Name() == api.Spawn.Name() {
		h.mu.Lock()
		h.spawnHosts = append(h.spawnHosts, host)
		h.mu.Unlock()
	}
	rep, err := h.fakeEngine.Invoke(ctx, op, args)
	if s, ok := rep.(api.SnapshotReply); ok && host != "" {
		s.Runs = slices.DeleteFunc(s.Runs, func(i runs.Info) bool { return i.Host != host })
		return s, err
	}
	return rep, err
}

func onHostRun(i runs.Info, host string) runs.Info { i.Host = host; return i }

// hostsHarness is a UI over alpha (connected) and beta (unreachable), each with two
// runs, listed in the order a1 b1 a2 b2.
func hostsHarness(t *testing.T) (*harness, *hostedFake) {
	t.Helper()
	rs := []runs.Info{onHostRun(liveRun("a1", "alpha-one", true), "alpha"), onHostRun(liveRun("b1", "beta-one", true), "beta"),
		onHostRun(endedRun("a2", "alpha-two"), "alpha"), onHostRun(endedRun("b2", "beta-two"), "beta")}
	engine := &hostedFake{fakeEngine: newFake(rs...), hosts: []api.HostState{
		{Name: "alpha", Where: "ssh alpha", Status: api.HostConnected, Since: t0, Server: 11},
		{Name: "beta", Where: "ssh beta", Status: api.HostUnreachable, Since: t0.Add(-time.Minute), Err: "ssh: connect to host beta: Connection refused", Next: t0.Add(4 * time.Second), Attempt: 3},
	}}
	clk := &clock{t: t0}
	m, err := newModel(Options{Engine: engine, Initial: rs, Detachable: true}, clk.now)
	if err != nil {
		t.Fatal(err)
	}
	m.tick = func(int) tea.Cmd { return nil }
	h := &harness{t: t, m: m, engine: engine.fakeEngine, clk: clk}
	h.run(m.Init())
	h.send(tea.WindowSizeMsg{Width: 160, Height: 40})
	return h, engine
}

// Over several hosts the list groups the runs under a header per host that says its
// link and counts; the selection moves over the runs from one group into the next,
// never onto a header; a host that is down says since when and why, and when it is
// tried next.
func TestHostsGroupTheList(t *testing.T) {
	h, _ := hostsHarness(t)
	if got, want := h.drawn(), []string{"a1", "a2", "b1", "b2"}; !slices.Equal(got, want) {
		t.Fatalf("rows drawn %v, want %v (grouped by host)", got, want)
	}
	v := stripANSI(h.m.list.View())
	alpha, beta := strings.Index(v, "alpha · connected · 1 live of 2 · ssh alpha"), strings.Index(v, "beta · unreachable since 09:")
	if alpha < 0 || beta < 0 {
		t.Fatalf("host headers missing:\n%s", v)
	}
	if !(alpha < strings.Index(v, "alpha-one") && strings.Index(v, "alpha-two") < beta && beta < strings.Index(v, "beta-one")) {
		t.Fatalf("headers not above their runs:\n%s", v)
	}
	if !strings.Contains(v, "· retry 4s") {
		t.Fatalf("beta's header does not say why and when next:\n%s", v)
	}
	h.key("down")
	if k := h.m.list.SelectedKey(); k != "a2" {
		t.Fatalf("down from a1 selected %s, want a2", k)
	}
	h.key("down")
	if k := h.m.list.SelectedKey(); k != "b1" {
		t.Fatalf("down from alpha's last run selected %s, want beta's first", k)
	}
	if !strings.Contains(h.view(), "beta-one b1 on beta") {
		t.Fatalf("the details do not name the run's host:\n%s", h.view())
	}
	ended := onHostRun(endedRun("b1", "beta-one"), "beta")
	ended.Seq = 20
	h.send(EventMsg{Event: runs.Event{Type: runs.EventExit, Time: t0, Run: ended}})
	if v := h.view(); !strings.Contains(v, "beta-one b1@beta exited") {
		t.Fatalf("the events pane does not name the run's host:\n%s", v)
	}
	h.key("/")
	h.typeText("beta")
	h.key("enter")
	if got := h.drawn(); !slices.Equal(got, []string{"b1", "b2"}) {
		t.Fatalf("filter by host name drew %v", got)
	}
}

// A host that comes back is said in the events pane and its runs are fetched from its
// server alone: one it no longer has leaves the list; the other host's runs stay.
func TestHostBackResyncsItsRunsAlone(t *testing.T) {
	h, engine := hostsHarness(t)
	engine.mu.Lock()
	engine.fakeEngine.snap = slices.DeleteFunc(engine.fakeEngine.snap, func(i runs.Info) bool { return i.ID == "b2" || i.Host == "alpha" })
	engine.mu.Unlock()
	engine.setHost(api.HostState{Name: "beta", Where: "ssh beta", Status: api.HostConnected, Since: t0.Add(time.Second), Server: 22})
	h.send(EventMsg{Event: runs.Event{Type: api.EventHostState, Time: t0, Run: runs.Info{Host: "beta"}}})
	v := h.view()
	if !strings.Contains(v, "host beta connected (ssh beta), server pid 22 after 1m1s away") {
		t.Fatalf("the events pane does not say beta is back:\n%s", v)
	}
	if _, ok := h.m.list.Run("b2"); ok {
		t.Fatal("a run beta's server no longer has is still listed")
	}
	for _, id := range []string{"a1", "a2", "b1"} {
		if _, ok := h.m.list.Run(id); !ok {
			t.Fatalf("%s left the list when beta came back", id)
		}
	}
	if !strings.Contains(v, "beta · connected · 1 live of 1") {
		t.Fatalf("beta's header:\n%s", v)
	}
}

// The new-run form asks for the host, at first the selected run's; the run starts on
// the host chosen; a restart goes to the ended run's own host.
func TestNewRunAsksForTheHost(t *testing.T) {
	h, engine := hostsHarness(t)
	h.key("n")
	if v := h.view(); !strings.Contains(v, "host") || !strings.Contains(v, "[alpha] beta") {
		t.Fatalf("the form does not offer the hosts, alpha first:\n%s", v)
	}
	h.typeText("make test")
	h.key("down", "down", "down", "down", "down", "down", "down", "down", "space") // the host row
	if v := h.view(); !strings.Contains(v, " alpha [beta]") {
		t.Fatalf("space on the host row did not choose beta:\n%s", v)
	}
	h.key("enter")
	h.key("down") // a2, ended on alpha
	h.key("R")
	engine.mu.Lock()
	got := slices.Clone(engine.spawnHosts)
	engine.mu.Unlock()
	if !slices.Equal(got, []string{"beta", "alpha"}) {
		t.Fatalf("spawns went to %v, want the form's beta, then the restart's alpha", got)
	}
	engine.fakeEngine.mu.Lock()
	spec := engine.fakeEngine.specs[0]
	engine.fakeEngine.mu.Unlock()
	if spec.Dir != "~" || spec.BaseEnv != nil {
		t.Fatalf("a run started on another machine took this one's directory %q or environment (%d vars)", spec.Dir, len(spec.BaseEnv))
	}
}
