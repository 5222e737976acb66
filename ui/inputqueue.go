package ui

import (
	"errors"

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

// inputQueue is one run's input: a write in flight, and what waits for it.
type inputQueue struct {
	busy bool
	buf  []byte
}

// send queues b for run id and returns a write unless one is in flight; a run that
// has not taken its input yet makes errInputBacklog.
func (qs inputQueues) send(core Core, id string, b []byte) (tea.Cmd, error) {
	if id == "" || len(b) == 0 {
		return nil, nil
	}
	q := qs[id]
	if q == nil {
		q = &inputQueue{}
		qs[id] = q
	}
	if !q.busy {
		q.busy = true
		return writeCmd(core, id, append([]byte(nil), b...)), nil
	}
	if len(q.buf)+len(b) > maxQueuedInput {
		return nil, errInputBacklog
	}
	q.buf = append(q.buf, b...)
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
	if len(q.buf) == 0 {
		return nil
	}
	b := q.buf
	q.buf, q.busy = nil, true
	return writeCmd(core, id, b)
}
