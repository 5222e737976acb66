package ui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs/api"

	tea "charm.land/bubbletea/v2"
)

// beginningEngine is the fake as a server's engine is to the UI: an input call is taken
// (written) as soon as it is begun, and its reply waits until the test releases the
// replies; a "!" typed is refused.
type beginningEngine struct {
	*fakeEngine
	release chan struct{}
}

func (b *beginningEngine) Begin(ctx context.Context, op api.Operation, args any) (func(context.Context) (any, error), error) {
	_, err := op.Apply(ctx, b.fakeEngine, args)
	if a, ok := args.(api.InputArgs); ok {
		for _, it := range a.Items {
			if strings.Contains(it.Text, "!") {
				err = errors.New("refused the bang")
			}
		}
	}
	return func(context.Context) (any, error) {
		<-b.release
		return nil, err
	}, nil
}

// Keys typed into a run whose engine takes input before answering go out at once,
// each behind the one before it, while no reply has come back (a slow server): none
// waits for the previous key's reply, none is lost or sent twice, and the error of
// one reply reaches the events pane.
func TestKeysGoOutWithoutWaitingForReplies(t *testing.T) {
	h := twoRuns(t)
	h.key("enter")
	engine := &beginningEngine{fakeEngine: h.engine, release: make(chan struct{})}
	h.m.engine = engine
	written := func() string {
		h.engine.mu.Lock()
		defer h.engine.mu.Unlock()
		return string(h.engine.written["r1"])
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		msgs []tea.Msg
	)
	run := func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		wg.Go(func() {
			msg := cmd()
			mu.Lock()
			msgs = append(msgs, msg)
			mu.Unlock()
		})
	}
	typed := ""
	for _, k := range strings.Split("abcdefghij!klm", "") {
		next, cmd := h.m.Update(keyMsg(k))
		h.m = next.(Model)
		run(cmd)
		typed += k
		eventually.True(t, 5*time.Second, "key "+k+" written before any reply", func() bool {
			return written() == typed
		})
	}
	close(engine.release)
	wg.Wait()
	for _, msg := range msgs {
		h.send(msg)
	}
	if got := written(); got != "abcdefghij!klm" {
		t.Errorf("written %q, want abcdefghij!klm", got)
	}
	if v := h.view(); !strings.Contains(v, "refused the bang") {
		t.Errorf("the refused write is not reported:\n%s", v)
	}
	if q := h.m.inputs["r1"]; q.size != 0 || q.writing || len(q.items) != 0 {
		t.Errorf("the queue is left with %d bytes, writing %v, %d items", q.size, q.writing, len(q.items))
	}
}

// stallingEngine is the fake as an in-process engine whose next input call can be held:
// with hold set, the next input call says so on stalled and waits, before it writes,
// until resume is closed (a run whose writer is busy).
type stallingEngine struct {
	*fakeEngine
	mu      sync.Mutex
	hold    bool
	stalled chan struct{}
	resume  chan struct{}
}

func (s *stallingEngine) Invoke(ctx context.Context, op api.Operation, args any) (any, error) {
	s.mu.Lock()
	hold := s.hold && op == api.Input
	if hold {
		s.hold = false
	}
	s.mu.Unlock()
	if hold {
		close(s.stalled)
		<-s.resume
	}
	return s.fakeEngine.Invoke(ctx, op, args)
}

// Once a run's writer is started (by the first key's command), a key typed into the
// focused run reaches the run with no command run: Update hands it to the writer, so
// it does not wait for Bubble Tea to start a goroutine for it. While the writer is
// busy (a call that does not return), keys typed meanwhile wait behind it and go out
// after it in the order typed, each once; each round's report command still says
// what was answered for, and the queue ends empty.
func TestKeysReachTheWriterWithoutACommand(t *testing.T) {
	h := twoRuns(t)
	h.key("enter")
	engine := &stallingEngine{fakeEngine: h.engine, stalled: make(chan struct{}), resume: make(chan struct{})}
	h.m.engine = engine
	written := func() string {
		h.engine.mu.Lock()
		defer h.engine.mu.Unlock()
		return string(h.engine.written["r1"])
	}
	var reports []tea.Cmd
	update := func(k string) {
		next, cmd := h.m.Update(keyMsg(k))
		h.m = next.(Model)
		if cmd != nil {
			reports = append(reports, cmd)
		}
	}
	update("a")
	if len(reports) != 1 {
		t.Fatal("the first key returned no command to start the writer")
	}
	first := make(chan tea.Msg, 1)
	go func() { first <- reports[0]() }() // starts the writer
	eventually.True(t, 5*time.Second, "key a written", func() bool { return written() == "a" })
	h.send(<-first)
	typed := "a"
	for _, k := range strings.Split("bcdefg", "") {
		update(k) // its command (the round's report) is not run
		typed += k
		eventually.True(t, 5*time.Second, "key "+k+" written with no command run", func() bool {
			return written() == typed
		})
	}
	// The writer busy: one call held, keys typed behind it.
	engine.mu.Lock()
	engine.hold = true
	engine.mu.Unlock()
	update("h")
	select {
	case <-engine.stalled:
	case <-time.After(5 * time.Second):
		t.Fatal("key h never reached the writer")
	}
	for _, k := range strings.Split("ijklmnopqrstuvwxyz", "") {
		update(k)
	}
	if got := written(); got != typed {
		t.Fatalf("written %q while the writer was held, want %q", got, typed)
	}
	close(engine.resume)
	want := typed + "hijklmnopqrstuvwxyz"
	eventually.True(t, 5*time.Second, "every key written once, in order", func() bool { return written() == want })
	for _, cmd := range reports[1:] {
		h.send(cmd())
	}
	if got := written(); got != want {
		t.Errorf("written %q, want %q", got, want)
	}
	q := h.m.inputs["r1"]
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.size != 0 || q.writing || len(q.items) != 0 {
		t.Errorf("the queue is left with %d bytes, writing %v, %d items", q.size, q.writing, len(q.items))
	}
}

// A forgotten run's writer ends.
func TestForgottenRunsWriterEnds(t *testing.T) {
	h := twoRuns(t)
	h.key("enter")
	next, cmd := h.m.Update(keyMsg("a"))
	h.m = next.(Model)
	h.run(cmd)
	q := h.m.inputs["r1"]
	h.m.inputs.drop("r1")
	select {
	case _, open := <-q.kick:
		if open {
			t.Fatal("a kick after the run was forgotten")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the writer's kick was not closed")
	}
}

// A key typed into the focused run changes nothing on screen (its echo will), so the
// frame package is told the last frame stands (Still) and composes no View for it, nor
// for the report that it was written; a key refused (the run not reading) is reported
// in the events pane, which is a change.
func TestTypedKeyLeavesTheFrameStanding(t *testing.T) {
	h := twoRuns(t)
	h.key("enter")
	next, cmd := h.m.Update(keyMsg("a"))
	h.m = next.(Model)
	if cmd == nil || !h.m.Still() {
		t.Fatalf("a typed key: command %v, Still %v; want its writer and the frame standing", cmd != nil, h.m.Still())
	}
	for _, msg := range h.collect(cmd) { // the round's report: written, no error
		next, _ = h.m.Update(msg)
		h.m = next.(Model)
		if _, ok := msg.(WrittenMsg); ok && !h.m.Still() {
			t.Errorf("%#v moved the frame: nothing on screen changed", msg)
		}
	}
	q := h.m.inputs["r1"]
	q.mu.Lock()
	q.size = maxQueuedInput // the run has not taken its input
	q.mu.Unlock()
	next, _ = h.m.Update(keyMsg("b"))
	h.m = next.(Model)
	if h.m.Still() {
		t.Error("a refused key left the frame standing: its error is not drawn")
	}
	if v := h.view(); !strings.Contains(v, "input backlog") {
		t.Errorf("the refused key is not reported:\n%s", v)
	}
}
