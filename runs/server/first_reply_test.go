package server

import (
	"encoding/json"
	"net"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/pacer"
)

// replyState is a stream's state over h's server as stream makes it; what it sends
// is decoded into the returned channel.
func replyState(t *testing.T, h *harness) (*streamState, <-chan api.StreamMsg) {
	t.Helper()
	tok, sb := h.srv.addSub()
	t.Cleanup(func() { h.srv.dropSub(tok) })
	c, peer := net.Pipe()
	t.Cleanup(func() { c.Close(); peer.Close() })
	sent := make(chan api.StreamMsg, 16)
	go func() {
		dec := json.NewDecoder(peer)
		for {
			var m api.StreamMsg
			if dec.Decode(&m) != nil {
				return
			}
			sent <- m
		}
	}()
	st := &streamState{s: h.srv, sb: sb, conn: c, enc: json.NewEncoder(c), pace: pacer.New(FrameInterval), tok: tok}
	t.Cleanup(st.pace.Stop)
	return st, sent
}

// The first reply's first run brings what a snapshot read adds (its watchdog, its
// last output) but is otherwise the subscription's copy: a change made after the
// subscription (here a pause) comes as an event behind the reply, and the UI judges
// that event against the copy it holds, so it must not hold the newer one (an agent
// that came to wait would not be marked for attention).
func TestFirstReplyKeepsTheSubscriptionsCopyOfTheFirstRun(t *testing.T) {
	h := newHarness(t)
	id, err := h.sup.Spawn(runs.Spec{Argv: []string{"sh", "-c", "echo out; exec sleep 30"}})
	if err != nil {
		t.Fatal(err)
	}
	eventually.True(t, 10*time.Second, "the run's output", func() bool {
		i, err := h.sup.Info(id)
		return err == nil && !i.Watchdog.LastOutput.IsZero()
	})
	st, _ := replyState(t, h)
	snap, sub := h.sup.Subscribe()
	defer sub.Close()
	if err := h.sup.Pause(id); err != nil { // after the subscription: an event behind the reply
		t.Fatal(err)
	}
	defer h.sup.Resume(id)
	rep, _ := st.reply(snap, 10)
	got := rep.Runs[0]
	if got.Seq != snap[0].Seq || got.Paused {
		t.Errorf("the reply's first run: seq %d, paused %v; the subscription's copy: seq %d, not paused", got.Seq, got.Paused, snap[0].Seq)
	}
	if got.Watchdog.LastOutput.IsZero() || got.LastOutputAt.IsZero() {
		t.Errorf("the reply's first run lacks its watchdog: %+v", got.Watchdog)
	}
}

// The counters the first reply brought are what the first push compares with: one
// moved with no event to this stream between the reply and the first heartbeat is
// pushed (Counters), not left stale until some event.
func TestFirstPushSaysTheRepliesCountersMoved(t *testing.T) {
	h := newHarness(t)
	if _, err := h.sup.Spawn(runs.Spec{Argv: []string{"sleep", "30"}}); err != nil {
		t.Fatal(err)
	}
	st, sent := replyState(t, h)
	snap, sub := h.sup.Subscribe()
	defer sub.Close()
	rep, _ := st.reply(snap, 10)
	if rep.Metrics == nil {
		t.Fatal("the first reply brought no counters")
	}
	if _, err := h.sup.Spawn(runs.Spec{Argv: []string{"sleep", "30"}}); err != nil { // moves SpawnTotal
		t.Fatal(err)
	}
	if !st.push(time.Now()) {
		t.Fatal("the push was not sent")
	}
	select {
	case m := <-sent:
		if m.Refresh == nil || !m.Refresh.Counters {
			t.Errorf("the first push after the counters moved does not say so (Counters false)")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no push")
	}
}
