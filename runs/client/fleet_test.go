package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs"
	"corral/runs/api"
)

// link is a host's network as a test controls it: dial reaches the host's server
// until cut, which closes every connection it opened and refuses new ones (ssh to a
// host that went away); mend lets them through again.
type netLink struct {
	dir     string
	mu      sync.Mutex
	down    bool
	conns   []net.Conn
	dials   int
	stalled bool
	thawed  *sync.Cond // on mu: stalled is false again
}

func (l *netLink) dial() (*Client, error) {
	conn, err := l.open()
	if err != nil {
		return nil, err
	}
	return NewClient(silentConn{conn, l})
}

func (l *netLink) open() (net.Conn, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.dials++
	if l.down {
		return nil, errors.New("ssh: connect to host: Connection refused")
	}
	conn, err := DialSocket(l.dir)
	if err == nil {
		l.conns = append(l.conns, conn)
	}
	return conn, err
}

// silentConn holds what it reads while its link is stalled: the host has gone silent
// without closing anything.
type silentConn struct {
	net.Conn
	l *netLink
}

func (c silentConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.l.mu.Lock()
	for c.l.stalled {
		c.l.thawed.Wait()
	}
	c.l.mu.Unlock()
	return n, err
}

// stall makes the host silent: nothing it says arrives until thaw.
func (l *netLink) stall() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.thawed == nil {
		l.thawed = sync.NewCond(&l.mu)
	}
	l.stalled = true
}

func (l *netLink) thaw() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stalled = false
	if l.thawed != nil {
		l.thawed.Broadcast()
	}
}

func (l *netLink) cut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.down = true
	for _, c := range l.conns {
		c.Close()
	}
	l.conns = nil
}

func (l *netLink) mend() {
	l.mu.Lock()
	l.down = false
	l.mu.Unlock()
}

func (l *netLink) member(name string) Member {
	return Member{Host: Host{Name: name, SSH: name}, Attach: func() (*Remote, error) { return AttachWith(l.dial) }}
}

// twoHosts serves two supervisors and opens a Fleet over both, alpha and beta.
func twoHosts(t *testing.T) (f *Fleet, alpha, beta *netLink) {
	t.Helper()
	da, _, _ := serve(t)
	db, _, _ := serve(t)
	alpha, beta = &netLink{dir: da}, &netLink{dir: db}
	f, err := OpenFleet([]Member{alpha.member("alpha"), beta.member("beta")})
	if err != nil {
		t.Fatal(err)
	}
	// Every host answers, however loaded the machine: a host left out for being slow
	// is the silent host's test's (TestFleetSilentHostHoldsNothingUp).
	f.patience = fleetFanOut
	t.Cleanup(func() { f.Close() })
	return f, alpha, beta
}

func hostState(f *Fleet, name string) api.HostState {
	for _, h := range f.Hosts() {
		if h.Name == name {
			return h
		}
	}
	return api.HostState{}
}

func spawnOn(t *testing.T, f *Fleet, host string, argv ...string) string {
	t.Helper()
	rep, err := api.Spawn.Call(api.OnHost(context.Background(), host), f, api.SpawnArgs{Spec: runs.Spec{Argv: argv}})
	if err != nil {
		t.Fatalf("spawn on %s: %v", host, err)
	}
	return rep.ID
}

// Each operation goes to the server of the run it names; a snapshot is every host's
// runs, each with its host; the events of both come on one channel, each with its
// host; the process trees are asked of each run's own host.
func TestFleetRoutesEachRunToItsHost(t *testing.T) {
	f, _, _ := twoHosts(t)
	for _, h := range f.Hosts() {
		if h.Status != api.HostConnected {
			t.Fatalf("host %s after opening: %+v", h.Name, h)
		}
	}
	a := spawnOn(t, f, "alpha", "sleep", "30")
	b := spawnOn(t, f, "beta", "cat")
	ctx := context.Background()
	for id, host := range map[string]string{a: "alpha", b: "beta"} {
		in, err := api.Info.Call(ctx, f, api.RunRef{ID: id})
		if err != nil || in.Run.Host != host {
			t.Fatalf("info of %s: host %q, %v; want %s", id, in.Run.Host, err, host)
		}
	}
	if _, err := api.Write.Call(ctx, f, api.WriteArgs{ID: b, Data: []byte("to beta\n"), Viewer: f.Viewer()}); err != nil {
		t.Fatal(err)
	}
	eventually.True(t, 10*time.Second, "beta's cat echoes what was written to it through the fleet", func() bool {
		p, err := api.Poll.Call(ctx, f, api.PollArgs{ID: b})
		return err == nil && strings.Contains(string(p.Output), "to beta")
	})

	snap, err := api.Snapshot.Call(ctx, f, api.SnapshotArgs{Viewer: f.Viewer(), All: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, i := range snap.Runs {
		got[i.ID] = i.Host
	}
	if want := map[string]string{a: "alpha", b: "beta"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("snapshot hosts %v, want %v", got, want)
	}
	only, err := api.Snapshot.Call(api.OnHost(ctx, "beta"), f, api.SnapshotArgs{All: true})
	if err != nil || len(only.Runs) != 1 || only.Runs[0].ID != b {
		t.Fatalf("beta's snapshot alone: %+v, %v", only.Runs, err)
	}
	trees, err := api.Trees.Call(ctx, f, api.TreesArgs{IDs: []string{a, b}})
	if err != nil || len(trees[a]) == 0 || len(trees[b]) == 0 {
		t.Fatalf("trees of both hosts' runs: %v, %v", trees, err)
	}

	seen := map[string]string{}
	deadline := time.After(10 * time.Second)
	for len(seen) < 2 {
		select {
		case e := <-f.Events():
			if e.Type == runs.EventSpawn {
				seen[e.Run.ID] = e.Run.Host
			}
		case <-deadline:
			t.Fatalf("spawn events seen: %v", seen)
		}
	}
	if seen[a] != "alpha" || seen[b] != "beta" {
		t.Fatalf("spawn events' hosts: %v", seen)
	}
	if _, err := api.Kill.Call(ctx, f, api.RunRef{ID: "nosuchrun"}); err == nil {
		t.Fatal("a run no host has was killed")
	}
}

// A host whose link goes away shows as unreachable and is tried again with a growing
// delay; meanwhile the other host's runs take keys and spawns as before; once the
// link is back the host is connected again with its runs, which went on.
func TestFleetHostDropsOthersGoOn(t *testing.T) {
	f, _, beta := twoHosts(t)
	a := spawnOn(t, f, "alpha", "cat")
	b := spawnOn(t, f, "beta", "sleep", "60")
	ctx := context.Background()

	beta.cut()
	eventually.True(t, 10*time.Second, "beta unreachable, tried again", func() bool {
		s := hostState(f, "beta")
		return s.Status == api.HostUnreachable && s.Attempt >= 2 && !s.Next.IsZero()
	})
	if s := hostState(f, "alpha"); s.Status != api.HostConnected {
		t.Fatalf("alpha while beta is down: %+v", s)
	}
	if _, err := api.Write.Call(ctx, f, api.WriteArgs{ID: a, Data: []byte("alpha works\n")}); err != nil {
		t.Fatalf("a key to alpha while beta is down: %v", err)
	}
	eventually.True(t, 10*time.Second, "alpha's run echoes", func() bool {
		p, err := api.Poll.Call(ctx, f, api.PollArgs{ID: a})
		return err == nil && strings.Contains(string(p.Output), "alpha works")
	})
	c := spawnOn(t, f, "alpha", "sleep", "30")
	snap, err := api.Snapshot.Call(ctx, f, api.SnapshotArgs{All: true})
	if err != nil || len(snap.Runs) != 2 {
		t.Fatalf("snapshot with beta down: %+v, %v (want alpha's two runs)", snap.Runs, err)
	}
	if _, err := api.Info.Call(ctx, f, api.RunRef{ID: b}); err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Fatalf("a call for beta's run while beta is down: %v, want it to say beta is unreachable", err)
	}

	beta.mend()
	eventually.True(t, 30*time.Second, "beta connected again",
		func() bool { return hostState(f, "beta").Status == api.HostConnected })
	in, err := api.Info.Call(ctx, f, api.RunRef{ID: b})
	if err != nil || in.Run.Ended() || in.Run.Host != "beta" {
		t.Fatalf("beta's run after the link came back: %+v, %v", in.Run, err)
	}
	for _, id := range []string{a, b, c} {
		if _, err := api.Kill.Call(ctx, f, api.RunRef{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
}

// A host whose server speaks another protocol shows as a version mismatch, with the
// server's words, and is tried again.
func TestFleetVersionMismatch(t *testing.T) {
	d, _, _ := serve(t)
	good := &netLink{dir: d}
	bad := Member{Host: Host{Name: "old", SSH: "old"}, Attach: func() (*Remote, error) {
		return nil, &api.Error{Code: api.CodeVersion, Message: "the server speaks protocol 3, this corral 4"}
	}}
	worded := Member{Host: Host{Name: "older", SSH: "older"}, Attach: func() (*Remote, error) {
		return nil, fmt.Errorf("host older: %w: the server speaks protocol 3", api.ErrVersion) // as NewClient words it
	}}
	f, err := OpenFleet([]Member{good.member("new"), bad, worded})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := hostState(f, "old")
	if s.Status != api.HostMismatch || !strings.Contains(s.Err, "protocol 3") {
		t.Fatalf("old host: %+v", s)
	}
	if s := hostState(f, "older"); s.Status != api.HostMismatch {
		t.Fatalf("a host whose hello said another protocol: %+v", s)
	}
	if hostState(f, "new").Status != api.HostConnected {
		t.Fatalf("new host: %+v", hostState(f, "new"))
	}
}

// Every operation's argument that names a viewer gets the UI's token on the run's
// own host in place of the Fleet's stand-in: a new one would otherwise reach each
// server with a token it never gave.
func TestFleetPutsEachHostsTokenInEveryViewer(t *testing.T) {
	for _, name := range api.Names() {
		op, _ := api.Lookup(name)
		args, _ := op.Zero()
		v := reflect.ValueOf(&args).Elem()
		concrete := reflect.New(v.Elem().Type()).Elem()
		concrete.Set(v.Elem())
		field := concrete.FieldByName("Viewer")
		if !field.IsValid() {
			continue
		}
		field.SetString(fleetViewer)
		out := reflect.ValueOf(withViewer(op, concrete.Interface(), "tok"))
		if got := out.FieldByName("Viewer").String(); got != "tok" {
			t.Errorf("%s: Viewer %q after withViewer, want the host's token", op.Name(), got)
		}
	}
}

// An operation that names no run and no host and that is not a listing (a spawn)
// goes to the first host alone: never one run per host.
func TestFleetSpawnWithoutHostGoesToTheFirst(t *testing.T) {
	f, _, _ := twoHosts(t)
	rep, err := api.Spawn.Call(context.Background(), f, api.SpawnArgs{Spec: runs.Spec{Argv: []string{"sleep", "30"}}})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := api.Snapshot.Call(context.Background(), f, api.SnapshotArgs{All: true})
	if err != nil || len(snap.Runs) != 1 || snap.Runs[0].ID != rep.ID || snap.Runs[0].Host != "alpha" {
		t.Fatalf("after a spawn with no host: %+v, %v (want one run, on alpha)", snap.Runs, err)
	}
	api.Kill.Call(context.Background(), f, api.RunRef{ID: rep.ID})
}

// A host gone silent (its link open, nothing coming back) holds up no listing of the
// others: a snapshot returns without it, and one asked while its last call is still
// out does not ask it again; the other host's runs take keys meanwhile; once it
// answers again its runs are listed again.
func TestFleetSilentHostHoldsNothingUp(t *testing.T) {
	f, _, beta := twoHosts(t)
	a := spawnOn(t, f, "alpha", "cat")
	b := spawnOn(t, f, "beta", "sleep", "60")
	t.Cleanup(beta.thaw)
	ctx := context.Background()
	f.patience = fleetPatience
	beta.stall()
	for range 2 {
		snap, err := api.Snapshot.Call(ctx, f, api.SnapshotArgs{All: true})
		if err != nil || len(snap.Runs) != 1 || snap.Runs[0].ID != a {
			t.Fatalf("snapshot with beta silent: %+v, %v (want alpha's run alone)", snap.Runs, err)
		}
	}
	if _, err := api.Write.Call(ctx, f, api.WriteArgs{ID: a, Data: []byte("alpha goes on\n")}); err != nil {
		t.Fatal(err)
	}
	eventually.True(t, 10*time.Second, "alpha echoes while beta is silent", func() bool {
		p, err := api.Poll.Call(ctx, f, api.PollArgs{ID: a})
		return err == nil && strings.Contains(string(p.Output), "alpha goes on")
	})
	beta.thaw()
	eventually.True(t, 20*time.Second, "beta listed again once it answers", func() bool {
		snap, err := api.Snapshot.Call(ctx, f, api.SnapshotArgs{All: true})
		return err == nil && len(snap.Runs) == 2
	})
	for _, id := range []string{a, b} {
		api.Kill.Call(ctx, f, api.RunRef{ID: id})
	}
}

// Different listings asked at once (the UI's refresh asks a snapshot, the metrics and
// the trees together) each get every host: only a host's own call of the same
// listing still out keeps it from being asked.
func TestFleetListingsAtOnceEachGetEveryHost(t *testing.T) {
	f, _, _ := twoHosts(t)
	a := spawnOn(t, f, "alpha", "sleep", "30")
	b := spawnOn(t, f, "beta", "sleep", "30")
	ctx := context.Background()
	for range 20 {
		var wg sync.WaitGroup
		var snapRuns, trees int
		wg.Add(2)
		go func() {
			defer wg.Done()
			s, err := api.Snapshot.Call(ctx, f, api.SnapshotArgs{All: true})
			if err == nil {
				snapRuns = len(s.Runs)
			}

		}()
		go func() {
			defer wg.Done()
			tr, err := api.Trees.Call(ctx, f, api.TreesArgs{IDs: []string{a, b}})
			if err == nil {
				trees = len(tr)
			}
		}()
		wg.Wait()
		if snapRuns != 2 || trees != 2 {
			t.Fatalf("asked at once: snapshot of %d runs, trees of %d; want both hosts' in each", snapRuns, trees)
		}
	}
	for _, id := range []string{a, b} {
		api.Kill.Call(ctx, f, api.RunRef{ID: id})
	}
}
