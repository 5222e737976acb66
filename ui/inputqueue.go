package ui

import (
	"context"
	"errors"
	"sync"

	"corral/ptyhost/keys"
	"corral/runs/api"

	tea "charm.land/bubbletea/v2"
)

// maxQueuedInput bounds input not yet answered for (queued or on its way); past it
// the run is not reading and keys are dropped with an error.
const maxQueuedInput = 1 << 20

// maxUnanswered bounds the writes one writer has sent whose replies it has not read:
// past it, it reads the oldest before it sends more.
const maxUnanswered = 64

// errInputBacklog: the run has not taken the input already sent.
var errInputBacklog = errors.New("input backlog: the run is not reading its input")

// beginner is a core whose input calls go out at once, behind the ones sent before
// them, without waiting for their replies (client.Remote): begin returns once the
// call is sent, and finish waits for its reply.
type beginner interface {
	Begin(ctx context.Context, op api.Operation, args any) (finish func(context.Context) (any, error), err error)
}

// inputQueues keeps each run's input in order. Bubble Tea runs commands concurrently,
// so one writer per run at a time sends what was typed, in order: it takes all that
// is queued, sends it, and takes what was typed meanwhile, until nothing is left. To
// a core that takes calls before their replies (a server's), a write goes out as
// soon as the one before it is sent, not when it is answered: a key never waits for
// the round trip of the key before it.
type inputQueues map[string]*inputQueue

// inputQueue is one run's input: what waits for the writer, and whether one runs.
// Update queues; the writer (a command) takes, so both are under mu.
type inputQueue struct {
	mu      sync.Mutex
	writing bool        // a writer runs (or is on its way)
	items   []keys.Item // typed, not yet taken by the writer
	size    int         // bytes, about, queued or sent and not yet answered for
}

// send queues items for run id and returns a writer unless one runs; a run that has
// not taken its input yet makes errInputBacklog.
func (qs inputQueues) send(core Core, id string, items []keys.Item) (tea.Cmd, error) {
	if id == "" || len(items) == 0 {
		return nil, nil
	}
	q := qs[id]
	if q == nil {
		q = &inputQueue{}
		qs[id] = q
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	n := itemsSize(items)
	if q.size+n > maxQueuedInput {
		return nil, errInputBacklog
	}
	q.size += n
	if q.writing {
		q.items = append(q.items, items...)
		return nil, nil
	}
	q.writing = true
	return q.writer(core, id, items), nil
}

// written takes what a writer reports (WrittenMsg) off run id's backlog.
func (qs inputQueues) written(id string, size int) {
	q := qs[id]
	if q == nil || size == 0 {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.size = max(q.size-size, 0)
}

// take is what was typed since the writer last took, and whether there was any; with
// none, the writer ends (the next send starts another).
func (q *inputQueue) take() ([]keys.Item, int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		q.writing = false
		return nil, 0, false
	}
	items := q.items
	q.items = nil
	return items, itemsSize(items), true
}

// writer sends items to run id, then what is queued meanwhile until none is left,
// then waits for the replies and reports them as one WrittenMsg: the first error,
// and the bytes answered for.
func (q *inputQueue) writer(core Core, id string, items []keys.Item) tea.Cmd {
	return func() tea.Msg {
		b, pipelined := core.(beginner)
		var (
			pending []func(context.Context) (any, error) // sent, reply not yet read
			first   error
			size    int
		)
		note := func(err error) {
			if first == nil {
				first = err
			}
		}
		reply := func() {
			_, err := pending[0](bg)
			note(err)
			pending = pending[1:]
		}
		for n, ok := itemsSize(items), true; ok; items, n, ok = q.take() {
			size += n
			args := api.InputArgs{ID: id, Items: items, Viewer: core.Viewer()}
			if !pipelined {
				_, err := api.Input.Call(bg, core, args)
				note(err)
				continue
			}
			if len(pending) >= maxUnanswered {
				reply()
			}
			finish, err := b.Begin(bg, api.Input, args)
			if err != nil {
				note(err)
				continue
			}
			pending = append(pending, finish)
		}
		for len(pending) > 0 {
			reply()
		}
		return WrittenMsg{ID: id, Err: first, Size: size}
	}
}

// itemsSize is about the bytes items encode to (a key, a few).
func itemsSize(items []keys.Item) int {
	n := 0
	for _, it := range items {
		n += len(it.Text) + len(it.Data) + 1
	}
	return n
}
