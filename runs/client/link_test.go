package client

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/server/servertest"
)

// next waits for the next event of type typ, passing others by.
func next(t *testing.T, r *Remote, typ runs.EventType, ok func(runs.Event) bool) runs.Event {
	t.Helper()
	e, found := eventually.Event(20*time.Second, r.Events(), func(e runs.Event) bool {
		return e.Type == typ && (ok == nil || ok(e))
	})
	if !found {
		t.Fatalf("no %s event within 20s (or the events ended)", typ)
	}
	return e
}

// A server lost under an attached Remote (its connections closed, its socket left):
// the Remote says so on its events, refuses calls at once with ErrServerLost, tries
// again through its start function (which fails at first: each failure is an event),
// and once a server listens again it says so with the server's pid, is subscribed
// again (a new viewer token) and works: a run spawned then is heard of on the same
// events.
func TestRemoteReconnects(t *testing.T) {
	dir := t.TempDir()
	sup := servertest.Supervisor(t, dir)
	crash := servertest.Crashable(t, sup, dir)
	var allow atomic.Bool
	var starts atomic.Int32
	start := func() error {
		starts.Add(1)
		if !allow.Load() {
			return errors.New("not yet")
		}
		servertest.Crashable(t, sup, dir)
		return nil
	}
	r, err := Attach(dir, start, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	sp, err := api.Spawn.Call(context.Background(), r, api.SpawnArgs{Spec: runs.Spec{Argv: []string{"sleep", "30"}, PTY: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sup.Cancel(sp.ID) })
	if err := r.Watch(sp.ID); err != nil {
		t.Fatal(err)
	}
	token := r.Viewer()

	crash()
	lost := next(t, r, api.EventServerLost, nil)
	if lost.Run.PID != os.Getpid() {
		t.Errorf("lost: pid %d, want the lost server's (%d)", lost.Run.PID, os.Getpid())
	}
	if _, err := api.Write.Call(context.Background(), r, api.WriteArgs{ID: sp.ID, Data: []byte("x")}); !errors.Is(err, api.ErrServerLost) {
		t.Errorf("a write while lost: %v, want ErrServerLost", err)
	}
	next(t, r, api.EventServerLost, func(e runs.Event) bool { return strings.Contains(e.Detail, "attempt 1: start the server: not yet") })

	allow.Store(true)
	back := next(t, r, api.EventServerBack, nil)
	if back.Run.PID != os.Getpid() || starts.Load() < 2 {
		t.Errorf("back: pid %d, %d starts", back.Run.PID, starts.Load())
	}
	if r.Viewer() == token || r.Viewer() == "" {
		t.Errorf("viewer token %q after reconnecting, was %q", r.Viewer(), token)
	}
	if _, err := api.Write.Call(context.Background(), r, api.WriteArgs{ID: sp.ID, Data: []byte("x")}); err != nil {
		t.Errorf("a write once back: %v", err)
	}
	done, err := api.Spawn.Call(context.Background(), r, api.SpawnArgs{Spec: runs.Spec{Argv: []string{"true"}}})
	if err != nil {
		t.Fatal(err)
	}
	next(t, r, runs.EventExit, func(e runs.Event) bool { return e.Run.ID == done.ID })
}

// A server that stops on purpose (shutdown: its socket removed first) is not
// reconnected to: the events end, as they did before reconnecting existed.
func TestRemoteDoesNotReconnectToAStoppedServer(t *testing.T) {
	dir, _, stop := serve(t)
	r := attach(t, dir)
	stop()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case e, open := <-r.Events():
			if !open {
				return
			}
			if e.Type == api.EventServerLost {
				t.Fatalf("reconnecting to a server that stopped: %+v", e)
			}
		case <-deadline:
			t.Fatal("the events did not end")
		}
	}
}

// A live event the history already holds (logged as it was published, just before
// the subscription) is dropped once; one that only looks like it, or comes much
// later, is not.
func TestLiveEventRepeatingHistoryDropped(t *testing.T) {
	at := time.Now()
	h := runs.Event{Type: runs.EventExit, Time: at, Run: runs.Info{ID: "r1", Seq: 7, State: runs.Exited}, Detail: "exit"}
	r := &Remote{kinds: map[string]runs.Kind{}}
	r.subscribed(nil, api.SubscribeReply{History: []runs.Event{h}})
	live := h
	live.Time = at.Add(3 * time.Millisecond)
	other := live
	other.Run.Seq = 8
	if r.repeats(other) {
		t.Error("another sequence number dropped")
	}
	if !r.repeats(live) {
		t.Error("the repeat not dropped")
	}
	if r.repeats(live) {
		t.Error("dropped twice")
	}
	r.subscribed(nil, api.SubscribeReply{History: []runs.Event{h}})
	live.Time = at.Add(time.Hour)
	if r.repeats(live) {
		t.Error("an event an hour later dropped")
	}
}
