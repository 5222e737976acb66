package ui

import (
	"context"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/pacer"
)

func startBridge(ctx context.Context, frame time.Duration) (chan runs.Event, chan tea.Msg, chan struct{}) {
	c := make(chan runs.Event)
	msgs := make(chan tea.Msg, 100000)
	done := make(chan struct{})
	go func() {
		Bridge(ctx, c, func(m tea.Msg) { msgs <- m }, frame)
		close(done)
	}()
	return c, msgs, done
}

func ev(typ runs.EventType, id string) runs.Event {
	return runs.Event{Type: typ, Run: runs.Info{ID: id}}
}

func TestBridgeCoalescesAFlood(t *testing.T) {
	const frame = 16 * time.Millisecond
	c, msgs, done := startBridge(context.Background(), frame)
	start := time.Now()
	c <- ev(runs.EventSpawn, "r1")
	for i := range 20000 {
		c <- ev(runs.EventOutput, []string{"r1", "r2"}[i%2])
	}
	c <- ev(runs.EventExit, "r1")
	close(c)
	<-done
	elapsed := time.Since(start)
	close(msgs)
	var life []runs.EventType
	var outputs int
	ids := map[string]bool{}
	var last tea.Msg
	for m := range msgs {
		switch m := m.(type) {
		case EventMsg:
			life = append(life, m.Event.Type)
		case OutputMsg:
			outputs++
			for _, id := range m.IDs {
				ids[id] = true
			}
		}
		last = m
	}
	if !slices.Equal(life, []runs.EventType{runs.EventSpawn, runs.EventExit}) {
		t.Errorf("lifecycle events %v", life)
	}
	// One per frame interval, the pacer's burst at the start, the last at the close.
	if limit := int(elapsed/frame) + pacer.Burst + 1; outputs > limit {
		t.Errorf("%d output messages in %s: more than one per frame (%d)", outputs, elapsed, limit)
	}
	if !ids["r1"] || !ids["r2"] {
		t.Errorf("changed runs %v", ids)
	}
	if _, ok := last.(OutputMsg); !ok {
		t.Errorf("the last output was not followed by an OutputMsg (last %T)", last)
	}
}

func TestBridgeLastChangeGetsAFrame(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, msgs, _ := startBridge(ctx, 5*time.Millisecond)
	for range 3 { // a burst: the first may go at once, the rest within a frame
		c <- ev(runs.EventOutput, "r1")
	}
	c <- ev(runs.EventOutput, "r2")
	deadline := time.After(10 * time.Second)
	seen := map[string]bool{}
	for !seen["r2"] {
		select {
		case m := <-msgs:
			if o, ok := m.(OutputMsg); ok {
				for _, id := range o.IDs {
					seen[id] = true
				}
			}
		case <-deadline:
			t.Fatal("the last change never got an OutputMsg")
		}
	}
}

func TestBridgeStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	_, _, done := startBridge(ctx, time.Millisecond)
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Bridge did not return when ctx ended")
	}
}

// A run whose output keeps coming is drawn every pacer.BusyFrames frames once it is
// busy (its first few changes go at once, as an echo's do); a run that was quiet goes
// out at once, even while another is busy; typing never counts as busy. The bridge
// runs on a clock of the test's: its pacer's timer fires when due, on that clock.
func TestBridgeSlowsOnlyBusyRuns(t *testing.T) {
	const frame = 16 * time.Millisecond
	var sent []time.Duration // when each OutputMsg went, from the start
	var ids [][]string
	at := time.Now()
	now := at
	b := &bridge{send: func(m tea.Msg) { sent, ids = append(sent, now.Sub(at)), append(ids, m.(OutputMsg).IDs) },
		pace: pacer.New(frame), now: func() time.Time { return now }}
	defer b.pace.Stop()
	step := func(d time.Duration, id string) {
		if due, ok := b.pace.Due(); ok && !due.After(at.Add(d)) { // the timer fires first
			now = due
			b.flush()
		}
		now = at.Add(d)
		if due, _ := b.receive(ev(runs.EventOutput, id), true); due {
			b.flush()
		}
	}
	for d := time.Duration(0); d <= frame+2*pacer.BusyFrames*frame+10*time.Millisecond; d += 4 * time.Millisecond {
		step(d, "r1") // r1 prints every 4 ms
	}
	var want []time.Duration
	for i := range pacer.Burst { // at once, as an echo in a few writes
		want = append(want, time.Duration(i)*4*time.Millisecond)
	}
	want = append(want, frame, frame+pacer.BusyFrames*frame, frame+2*pacer.BusyFrames*frame)
	if !slices.Equal(sent, want) {
		t.Fatalf("a busy run was drawn at %v, want %v", sent, want)
	}
	r2 := sent[len(sent)-1] + frame + 2*time.Millisecond // a quiet run, a frame after the last message
	step(r2, "r2")
	if got := sent[len(sent)-1]; got != r2 || !slices.Equal(ids[len(ids)-1], []string{"r1", "r2"}) {
		t.Fatalf("a quiet run's change waited for the busy one: at %v, %v", got, ids[len(ids)-1])
	}
	// r3 echoes keys 20 ms apart, faster than anyone types: each goes out at once.
	for d := r2 + 50*time.Millisecond; d < r2+250*time.Millisecond; d += 20 * time.Millisecond {
		step(d, "r3")
		if got := sent[len(sent)-1]; got != d {
			t.Fatalf("an echo at %v went out at %v", d, got)
		}
	}
}

// What was typed comes back at once, however fast the lines go: a token's echo in
// three reads, then its Enter's echo and the app's answer, a line every 25 ms (the
// budget spent, and the run busy by the changes' rate), each an echo
// (runs.DetailEcho): every read goes out in an OutputMsg as it comes, which says it
// carries an echo. The same output with no input before it is paced.
func TestBridgeSendsEchoesAtOnce(t *testing.T) {
	const frame = 16 * time.Millisecond
	for _, echo := range []bool{true, false} {
		var sent []time.Duration
		var echoes []bool
		at := time.Now()
		now := at
		b := &bridge{send: func(m tea.Msg) {
			sent, echoes = append(sent, now.Sub(at)), append(echoes, m.(OutputMsg).Echo)
		}, pace: pacer.New(frame), now: func() time.Time { return now }}
		held := 0
		for line := range 20 {
			for _, d := range []time.Duration{0, 1, 2, 5, 6} {
				d = time.Duration(line)*25*time.Millisecond + d*time.Millisecond
				if due, ok := b.pace.Due(); ok && !due.After(at.Add(d)) {
					now = due
					b.flush()
				}
				now = at.Add(d)
				e := ev(runs.EventOutput, "r1")
				if echo {
					e.Detail = runs.DetailEcho
				}
				if due, _ := b.receive(e, true); due {
					b.flush()
				}
				if len(sent) == 0 || sent[len(sent)-1] != d {
					held++
					if echo {
						t.Fatalf("an echo at %v was held (messages at %v)", d, sent)
					}
				}
			}
		}
		if !echo && held == 0 {
			t.Fatal("output with no input before it, faster than the budget, was never paced")
		}
		if echo && slices.Contains(echoes, false) {
			t.Fatalf("an echo's OutputMsg did not say so: %v", echoes)
		}
		b.pace.Stop()
	}
}
