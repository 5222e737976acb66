package ui

import (
	"errors"

	"corral/ptyhost/keys"

	tea "charm.land/bubbletea/v2"
)

// maxQueuedInput bounds input waiting for an earlier write to finish; past it the
// run is not reading and keys are dropped with an error.
const maxQueuedInput = 1 << 20

// errInputBacklog: the run has not taken the input already sent.
var errInputBacklog = errors.New("input backlog: the run is not reading its input")

// inputQueues keeps each run's input in order: Bubble Tea runs commands concurrently,
// so only one write per run is in flight and the keys typed meanwhile go in the next.
type inputQueues map[string]*inputQueue

// inputQueue is one run's input: a write in flight, and what waits for it (size
// bytes of it, about).
type inputQueue struct {
	busy  bool
	items []keys.Item
	size  int
}

// send queues items for run id and returns a write unless one is in flight; a run
// that has not taken its input yet makes errInputBacklog.
func (qs inputQueues) send(core Core, id string, items []keys.Item) (tea.Cmd, error) {
	if id == "" || len(items) == 0 {
		return nil, nil
	}
	q := qs[id]
	if q == nil {
		q = &inputQueue{}
		qs[id] = q
	}
	if !q.busy {
		q.busy = true
		return inputCmd(core, id, items), nil
	}
	n := itemsSize(items)
	if q.size+n > maxQueuedInput {
		return nil, errInputBacklog
	}
	q.items, q.size = append(q.items, items...), q.size+n
	return nil, nil
}

// written ends run id's write in flight and returns the next, of what was queued
// meanwhile.
func (qs inputQueues) written(core Core, id string) tea.Cmd {
	q := qs[id]
	if q == nil {
		return nil
	}
	q.busy = false
	if len(q.items) == 0 {
		return nil
	}
	items := q.items
	q.items, q.size, q.busy = nil, 0, true
	return inputCmd(core, id, items)
}

// itemsSize is about the bytes items encode to (a key, a few).
func itemsSize(items []keys.Item) int {
	n := 0
	for _, it := range items {
		n += len(it.Text) + len(it.Data) + 1
	}
	return n
}
