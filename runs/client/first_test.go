package client

import (
	"bufio"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/reaper"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/server/servertest"
)

// serveMany serves a supervisor with n runs: the first a PTY run that printed
// "hello" and goes on, the others pipe runs of true, ended (each waited for, so no
// exit of theirs comes after it returns). It returns the state dir and the runs' ids
// in the list's order.
func serveMany(t *testing.T, n int, opts ...runs.Option) (string, *runs.Supervisor, []string) {
	t.Helper()
	dir := t.TempDir()
	sup := servertest.Supervisor(t, dir, opts...)
	first, err := sup.Spawn(runs.Spec{Name: "first", PTY: true, Argv: []string{"sh", "-c", "printf hello; exec sleep 60"}})
	if err != nil {
		t.Fatal(err)
	}
	for range n - 1 {
		if _, err := sup.Spawn(runs.Spec{Argv: []string{"true"}}); err != nil {
			t.Fatal(err)
		}
	}
	eventually.True(t, 10*time.Second, "the first run's hello on its screen", func() bool {
		scr, err := sup.Screen(first)
		return err == nil && strings.Contains(scr.Render(), "hello")
	})
	eventually.True(t, 30*time.Second, "every run of true ended", func() bool {
		ended := 0
		for _, i := range sup.Snapshot() {
			if i.Ended() {
				ended++
			}
		}
		return ended == n-1
	})
	servertest.Serve(t, sup, dir)
	var ids []string
	for _, i := range sup.Snapshot() {
		ids = append(ids, i.ID)
	}
	return dir, sup, ids
}

// rawStream sends one subscribe request line on a connection of its own and returns
// the reply's line and a reader of what follows.
func rawStream(t *testing.T, dir, args string) ([]byte, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("unix", filepath.Join(dir, api.SocketName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := c.Write([]byte(`{"v":1,"verb":"subscribe","args":` + args + "}\n")); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReaderSize(c, 1<<20)
	line, err := r.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	return line, r
}

func replyOf(t *testing.T, line []byte) api.SubscribeReply {
	t.Helper()
	var resp api.Response
	var rep api.SubscribeReply
	if err := json.Unmarshal(line, &resp); err != nil || resp.Error != nil {
		t.Fatalf("subscribe: %v %v", err, resp.Error)
	}
	if err := json.Unmarshal(resp.Result, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// At a thousand runs, a subscriber that asks for the first rows gets a reply a small
// part of the whole one's size: those runs, the first run's screen and the counts of
// the others; the others follow, before anything else, in messages of at most
// api.ListingChunk runs, the last one saying so. Through a Remote they come out as
// EventListed events in the list's order, the last naming no run, and the first run's
// screen is there as soon as it attached.
func TestAttachFirstBoundsTheReply(t *testing.T) {
	dir, sup, ids := serveMany(t, 1000)
	whole, _ := rawStream(t, dir, `{"push":true}`)
	line, r := rawStream(t, dir, `{"push":true,"first":40}`)
	if len(line) > len(whole)/10 || len(line) > 128<<10 {
		t.Errorf("the first rows' reply is %d bytes, the whole one %d", len(line), len(whole))
	}
	rep := replyOf(t, line)
	if len(rep.Runs) != 40 || rep.Rest == nil || rep.Rest.Runs != 960 || rep.Rest.Live != 0 {
		t.Fatalf("the reply: %d runs, the rest %+v", len(rep.Runs), rep.Rest)
	}
	if rep.Frame == nil || rep.Frame.ID != ids[0] || !strings.Contains(rep.Frame.Render, "hello") {
		t.Errorf("the reply's frame: %+v", rep.Frame)
	}
	var rest []string
	for last := false; !last; {
		next, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		var m api.StreamMsg
		if err := json.Unmarshal(next, &m); err != nil || m.Listing == nil {
			t.Fatalf("after %d of the rest, a stream message that is not a listing: %.200s", len(rest), next)
		}
		if len(m.Listing.Runs) > api.ListingChunk {
			t.Errorf("a listing of %d runs", len(m.Listing.Runs))
		}
		for _, i := range m.Listing.Runs {
			rest = append(rest, i.ID)
		}
		last = m.Listing.Last
	}
	if strings.Join(rest, " ") != strings.Join(ids[40:], " ") {
		t.Errorf("the rest listed %d runs, want the %d after the first 40 in order", len(rest), len(ids)-40)
	}

	rem, err := AttachFirst(dir, 40, func() error { return errors.New("no server") }, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer rem.Close()
	if v, err := rem.Screen(ids[0]); err != nil || v == nil || !strings.Contains(v.Render(), "hello") {
		t.Errorf("the first run's screen at attach: %v", err)
	}
	if len(rem.Initial()) != 40 || rem.Rest().Runs != 960 {
		t.Fatalf("Initial %d runs, Rest %+v", len(rem.Initial()), rem.Rest())
	}
	got := listedOf(t, rem.Events())
	if strings.Join(got, " ") != strings.Join(ids[40:], " ") {
		t.Errorf("the Remote listed %d runs, want the %d after the first 40 in order", len(got), len(ids)-40)
	}
	id, err := sup.Spawn(runs.Spec{Argv: []string{"true"}})
	if err != nil {
		t.Fatal(err)
	}
	for e := range rem.Events() {
		// A push at the server's heartbeat may come first, and so may a late word of
		// an older run (its end's cleanup): the new run's first event is its spawn.
		if e.Type != api.EventRefresh && (e.Run.ID == id || e.Type == api.EventListed) {
			if e.Type != runs.EventSpawn || e.Run.ID != id {
				t.Errorf("after the listing, %s of %s (want the spawn of %s)", e.Type, e.Run.ID, id)
			}
			break
		}
	}
}

// listedOf reads EventListed events until the one naming no run: the runs they list.
func listedOf(t *testing.T, events <-chan runs.Event) []string {
	t.Helper()
	var got []string
	timeout := time.After(20 * time.Second)
	for {
		select {
		case e, ok := <-events:
			if !ok || e.Type != api.EventListed {
				t.Fatalf("after %d listed, %v (open %v)", len(got), e.Type, ok)
			}
			if e.Run.ID == "" {
				return got
			}
			got = append(got, e.Run.ID)
		case <-timeout:
			t.Fatalf("%d listed, and no end of the listing", len(got))
		}
	}
}

// A client older than the first rows (it sends no first) gets every run in the
// reply, with none of the new fields, and the stream goes on with events, no listing.
func TestOlderClientGetsEveryRun(t *testing.T) {
	dir, sup, ids := serveMany(t, 300)
	line, r := rawStream(t, dir, `{"push":true}`)
	rep := replyOf(t, line)
	if len(rep.Runs) != len(ids) || strings.Contains(string(line), `"rest"`) || strings.Contains(string(line), `"frame"`) {
		t.Fatalf("an older client's reply: %d runs of %d; rest or frame in it: %.300s", len(rep.Runs), len(ids), line)
	}
	if _, err := sup.Spawn(runs.Spec{Argv: []string{"true"}}); err != nil {
		t.Fatal(err)
	}
	for {
		next, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		var m api.StreamMsg
		if err := json.Unmarshal(next, &m); err == nil && m.Refresh != nil {
			continue // a push at the server's heartbeat
		}
		if m.Event == nil || m.Listing != nil || strings.Contains(string(next), `"listing"`) {
			t.Errorf("an older client's stream began %.300s", next)
		}
		return
	}
}

// A server older than the first rows ignores first and sends every run, with no
// count of a rest: the Remote's Initial is every run, Rest is zero, and its events
// are the server's, with no EventListed.
func TestAttachFirstToAnOlderServer(t *testing.T) {
	rem, err := attachWith(hostileStream(t, func(enc *json.Encoder, _ net.Conn) {
		enc.Encode(api.StreamMsg{Event: &runs.Event{Type: runs.EventSpawn, Run: runs.Info{ID: "r2"}}})
	}), nil, 40)
	if err != nil {
		t.Fatal(err)
	}
	defer rem.Close()
	if len(rem.Initial()) != 1 || rem.Initial()[0].ID != "r1" || rem.Rest() != (api.RunSummary{}) {
		t.Fatalf("Initial %+v, Rest %+v", rem.Initial(), rem.Rest())
	}
	select {
	case e := <-rem.Events():
		if e.Type != runs.EventSpawn || e.Run.ID != "r2" {
			t.Errorf("the first event: %s %s", e.Type, e.Run.ID)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
	}
}

// With the first rows, the reply brings what the UI's first frame shows beside them:
// the counters, the first run's process tree and that run as a snapshot read gives it
// (its watchdog's last output); a Remote hands them on with the first run's screen
// (FirstReads), so the UI reads none of them after its first frame. The tree only
// when the run's cgroup lists its members: without one (its session's tree) it would
// take a scan of every process on the machine before the reply, and the UI reads it
// after its first frame instead.
func TestAttachFirstBringsTheFirstFramesReads(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cgroup bool
	}{{"cgroup", true}, {"session", false}} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []runs.Option
			if tc.cgroup {
				base := runs.FindCgroups("")
				if base.Dir == "" {
					t.Skip(base.Reason)
				}
				opts = append(opts, runs.WithCgroups(base))
			}
			dir, _, ids := serveMany(t, 50, opts...)
			line, _ := rawStream(t, dir, `{"push":true,"first":10}`)
			rep := replyOf(t, line)
			if rep.Metrics == nil || rep.Metrics.SpawnTotal < 50 {
				t.Errorf("the reply's counters: %+v", rep.Metrics)
			}
			hasTree := slices.ContainsFunc(rep.Trees[ids[0]], func(p reaper.TreeProc) bool { return p.Comm == "sleep" })
			if hasTree != tc.cgroup || (!tc.cgroup && rep.Trees != nil) {
				t.Errorf("the reply's tree of the first run (a tree wanted: %v): %+v", tc.cgroup, rep.Trees)
			}
			if len(rep.Runs) == 0 || rep.Runs[0].Watchdog.LastOutput.IsZero() {
				t.Errorf("the first run without its watchdog's last output: %+v", rep.Runs[0].Watchdog)
			}
			rem, err := AttachFirst(dir, 10, func() error { return errors.New("no server") }, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer rem.Close()
			m, trees, scr := rem.FirstReads()
			if m == nil || (trees[ids[0]] != nil) != tc.cgroup || scr == nil || !strings.Contains(scr.Render(), "hello") {
				t.Errorf("FirstReads: %+v, %+v, %v", m, trees, scr)
			}
		})
	}
}
