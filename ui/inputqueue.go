package ui

import (
	"context"
	"errors"
	"strings"
	"sync"

	"corral/ptyhost/hoptrace"
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

// inputQueues keeps each run's input in order. One writer goroutine per run sends
// what was typed, in order: it takes all that is queued, sends it, and takes what was
// typed meanwhile, until nothing is left (a round), then waits for the next key. It is
// started by a command (the first key's), and lives until the run is forgotten; after
// that, Update hands it a key by a channel send, not a call: a key typed into the
// focused run is on its way while Update returns, without waiting for Bubble Tea to
// start a command's goroutine (two goroutine hand-offs, each a wait for a core on a
// busy machine). To a core that takes calls before their replies (a server's), a
// write goes out as soon as the one before it is sent, not when it is answered: a key
// never waits for the round trip of the key before it. The replies are read by the
// round's report command, off the writer, which reports them as one WrittenMsg.
type inputQueues map[string]*inputQueue

// inputQueue is one run's input: what waits for the writer, and whether a round runs.
// Update queues; the writer takes, so both are under mu.
type inputQueue struct {
	mu      sync.Mutex
	writing bool          // a round runs (or its kick is on its way)
	items   []keys.Item   // typed, not yet taken by the writer
	size    int           // bytes, about, queued or sent and not yet answered for
	kick    chan struct{} // capacity 1: a round starts; nil until the writer is started
	round   *inputRound   // the round the next kick starts
	closed  bool          // the run is forgotten: its writer ends
}

// inputRound is one round of the writer's: from the key that found it idle to the take
// that found nothing left. Its report command waits until it has sent all (sent
// closed), then reads the replies of what it sent.
type inputRound struct {
	items   []keys.Item // the key that started it: the round's first write
	sent    chan struct{}
	pending []func(context.Context) (any, error) // sent, reply not yet read
	first   error
	size    int
}

func (r *inputRound) note(err error) {
	if r.first == nil {
		r.first = err
	}
}

// reply reads the oldest reply not yet read.
func (r *inputRound) reply() {
	_, err := r.pending[0](bg)
	r.note(err)
	r.pending = r.pending[1:]
}

// send queues items for run id and starts a round unless one runs: it returns the
// command that reports the round (and, the first time, starts the run's writer). A
// run that has not taken its input yet makes errInputBacklog.
func (qs inputQueues) send(engine Engine, id string, items []keys.Item) (tea.Cmd, error) {
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
	if hoptrace.On() {
		hoptrace.Mark("ui.queue", itemsText(items))
	}
	if q.writing {
		q.items = append(q.items, items...) // the round that runs takes them
		return nil, nil
	}
	q.writing = true
	r := &inputRound{sent: make(chan struct{}), items: items}
	q.round = r
	report := r.report(id)
	if q.kick == nil {
		q.kick = make(chan struct{}, 1)
		q.kick <- struct{}{}
		return func() tea.Msg {
			go q.writer(engine, id)
			return report()
		}, nil
	}
	// No round runs, so the writer has taken the last kick (a round ends only on
	// the writer's take): this send never blocks.
	q.kick <- struct{}{}
	return report, nil
}

// written takes what a round reports (WrittenMsg) off run id's backlog.
func (qs inputQueues) written(id string, size int) {
	q := qs[id]
	if q == nil || size == 0 {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.size = max(q.size-size, 0)
}

// drop forgets run id's queue; its writer ends once its round is sent.
func (qs inputQueues) drop(id string) {
	q := qs[id]
	if q == nil {
		return
	}
	delete(qs, id)
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	if q.kick != nil && !q.writing {
		close(q.kick)
	}
}

// take is what was typed since the writer last took, and whether there was any; with
// none, the round ends (the next send starts another).
func (q *inputQueue) take() ([]keys.Item, int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		q.writing = false
		if q.closed {
			close(q.kick)
		}
		return nil, 0, false
	}
	items := q.items
	q.items = nil
	return items, itemsSize(items), true
}

// current is the round a kick starts.
func (q *inputQueue) current() *inputRound {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.round
}

// writer sends run id's input, a round per kick, until the run is forgotten.
func (q *inputQueue) writer(engine Engine, id string) {
	b, pipelined := engine.(beginner)
	for range q.kick {
		r := q.current()
		for items, n, ok := r.items, itemsSize(r.items), true; ok; items, n, ok = q.take() {
			r.size += n
			args := api.InputArgs{ID: id, Items: items, Viewer: engine.Viewer()}
			if hoptrace.On() {
				hoptrace.Mark("ui.send", itemsText(items))
			}
			if !pipelined {
				_, err := api.Input.Call(bg, engine, args)
				r.note(err)
				continue
			}
			if len(r.pending) >= maxUnanswered {
				r.reply()
			}
			finish, err := b.Begin(bg, api.Input, args)
			hoptrace.Mark("ui.sent", "")
			if err != nil {
				r.note(err)
				continue
			}
			r.pending = append(r.pending, finish)
		}
		close(r.sent)
	}
}

// report waits until the round has sent all, reads its replies and reports them as
// one WrittenMsg: the first error, and the bytes answered for.
func (r *inputRound) report(id string) tea.Cmd {
	return func() tea.Msg {
		<-r.sent
		for len(r.pending) > 0 {
			r.reply()
		}
		return WrittenMsg{ID: id, Err: r.first, Size: r.size}
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

// itemsText is the text items type, for a hop's trace.
func itemsText(items []keys.Item) string {
	var b strings.Builder
	for _, it := range items {
		b.WriteString(it.Text)
	}
	return b.String()
}
