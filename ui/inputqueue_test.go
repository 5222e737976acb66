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

// beginningCore is the fake as a server's core is to the UI: an input call is taken
// (written) as soon as it is begun, and its reply waits until the test releases the
// replies; a "!" typed is refused.
type beginningCore struct {
	*fakeCore
	release chan struct{}
}

func (b *beginningCore) Begin(ctx context.Context, op api.Operation, args any) (func(context.Context) (any, error), error) {
	_, err := op.Apply(ctx, b.fakeCore, args)
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

// Keys typed into a run whose core takes input before answering go out at once,
// each behind the one before it, while no reply has come back (a slow server): none
// waits for the previous key's reply, none is lost or sent twice, and the error of
// one reply reaches the events pane.
func TestKeysGoOutWithoutWaitingForReplies(t *testing.T) {
	h := twoRuns(t)
	h.key("enter")
	core := &beginningCore{fakeCore: h.core, release: make(chan struct{})}
	h.m.core = core
	written := func() string {
		h.core.mu.Lock()
		defer h.core.mu.Unlock()
		return string(h.core.written["r1"])
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
	close(core.release)
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
