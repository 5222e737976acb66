package client

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"corral/ptyhost/hoptrace"
	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/cli/foreground/hostterm"

	"github.com/charmbracelet/x/ansi"
)

// Remote is a server's supervisor as an attached UI sees it: the same methods as the
// in-process core, each a call over the socket, and screens kept up to date by the
// subscription's frames. It opens three connections: one for keys and other input
// (so a key never waits behind a slow call such as a process tree), one for the
// rest, and the stream.
type Remote struct {
	main, input lane
	initial     []runs.Info
	rest        api.RunSummary // what the reply left out of initial: it follows as EventListed events
	widest      []runs.Info    // the widest of those (api.Widest), for the list's columns
	metrics     *runs.Metrics  // the counters and the first run's tree, read with the reply (AttachFirst)
	trees       map[string][]reaper.TreeProc
	first       string // the run whose whole frame came with the reply
	history     []runs.Event
	events      chan runs.Event
	link        link // reconnecting when the server is lost (link.go)

	mu      sync.Mutex
	stream  *Client // replaced when the link comes back
	token   string
	screens map[string]*remoteScreen
	kinds   map[string]runs.Kind    // run id → its kind
	watched []string                // most recently asked-for screens first
	recent  map[recentKey]time.Time // the history's events a live one may repeat
	ended   error                   // why the stream ended, once Events is closed
}

// endedWith is why the stream ended (nil: the server closed it, or it is still on).
func (r *Remote) endedWith() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ended
}

// watchMax is how many screens one UI keeps streamed: the selected run's and a few
// it just showed, so switching back is instant.
const watchMax = 4

// lane is one connection's calls: one at a time, or, on a pipelined lane (input),
// each sent at once behind the ones before it without waiting for their replies. A
// call cut short by its context leaves its client unusable; the next call dials a new
// one.
type lane struct {
	mu        sync.Mutex             // one call at a time; on a pipelined lane, one send
	c         atomic.Pointer[Client] // swapped under mu; Close reads it without
	dial      func() (*Client, error)
	pipelined bool
}

func (l *lane) invoke(ctx context.Context, op api.Operation, args any) (any, error) {
	if l.pipelined {
		finish, err := l.begin(ctx, op, args)
		if err != nil {
			return nil, err
		}
		return finish(ctx)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	c, err := l.client(op)
	if err != nil {
		return nil, err
	}
	return c.Invoke(ctx, op, args)
}

// begin sends op's request on the lane's connection, after every one sent before
// it, and returns what waits for its reply (Client.Begin).
func (l *lane) begin(ctx context.Context, op api.Operation, args any) (func(context.Context) (any, error), error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c, err := l.client(op)
	if err != nil {
		return nil, err
	}
	return c.Begin(ctx, op, args)
}

// client is the lane's connection, a new one dialled when it is broken, l.mu held.
// The calls still reading replies on the broken one end with its error.
func (l *lane) client(op api.Operation) (*Client, error) {
	c := l.c.Load()
	if c.Broken() != nil && l.dial != nil {
		next, err := l.dial()
		if err != nil {
			return nil, fmt.Errorf("%s: reconnect: %w", op.Name(), err)
		}
		c.Close()
		l.c.Store(next)
		c = next
	}
	return c, nil
}

// open dials the lane's first connection.
func (l *lane) open() error {
	c, err := l.dial()
	if err == nil {
		l.c.Store(c)
	}
	return err
}

// Attach connects to the state dir's server (starting it with start when none runs)
// and subscribes. When the server is lost under it (killed, crashed) it reconnects by
// itself the same way, starting a new server (link.go).
func Attach(dir string, start func() error, limit time.Duration) (*Remote, error) {
	return attachWith(attachDial(dir, start, limit), localLink(dir, start, limit), 0)
}

// attachDial dials a state dir's server for one attachment: the first connection
// starts a server when none runs, the others only dial it.
func attachDial(dir string, start func() error, limit time.Duration) func() (*Client, error) {
	var started atomic.Bool // only the first connection starts a server
	return func() (*Client, error) {
		if started.CompareAndSwap(false, true) {
			return Connect(dir, start, limit)
		}
		return Dial(dir)
	}
}

// AttachFirst is Attach for a UI that draws its first frame from the first first
// rows of its run list: the runs after those follow the subscription's reply on the
// stream, and come out of Events as api.EventListed events, the last naming no run
// (api.SubscribeArgs.First). Rest counts them; a server older than that sends every
// run at once, and Rest is zero.
func AttachFirst(dir string, first int, start func() error, limit time.Duration) (*Remote, error) {
	return attachWith(attachDial(dir, start, limit), localLink(dir, start, limit), first)
}

// AttachWith attaches over the connections dial opens (three: main, input and
// the stream), whatever carries them: the local socket, or ssh to corral proxy.
func AttachWith(dial func() (*Client, error)) (*Remote, error) { return attachWith(dial, nil, 0) }

// attachWith is AttachWith, reconnecting with re when the server is lost (nil: never),
// with the first runs only in the reply when first > 0 (AttachFirst).
func attachWith(dial func() (*Client, error), re *relinker, first int) (*Remote, error) {
	r := &Remote{events: make(chan runs.Event, 256), screens: map[string]*remoteScreen{}, kinds: map[string]runs.Kind{}}
	r.link.init(re)
	r.main.dial, r.input.dial = dial, dial
	r.input.pipelined = true
	if err := r.main.open(); err != nil {
		return nil, err
	}
	err := r.input.open()
	var stream *Client
	if err == nil {
		stream, err = dial()
	}
	var rep api.SubscribeReply
	if err == nil {
		rep, err = subscribe(stream, first)
	}
	if err != nil {
		if stream != nil {
			stream.Close()
		}
		r.Close()
		return nil, err
	}
	r.initial, r.history = rep.Runs, rep.History
	if rep.Rest != nil {
		r.rest, r.widest = *rep.Rest, rep.Widest
	}
	r.metrics, r.trees = rep.Metrics, rep.Trees
	if rep.Frame != nil {
		r.screenOf(rep.Frame.ID).update(*rep.Frame)
		r.first = rep.Frame.ID
	}
	r.subscribed(stream, rep)
	go r.receive()
	return r, nil
}

// subscribe subscribes on stream: with every run in the reply, or the first first
// (api.SubscribeArgs.First). A reattach asks for every run: the UI fetches them all
// again anyway.
func subscribe(stream *Client, first int) (api.SubscribeReply, error) {
	rep, err := api.Subscribe.Call(context.Background(), stream, api.SubscribeArgs{Push: true, First: first})
	if err != nil {
		return rep, fmt.Errorf("subscribe: %w", err)
	}
	return rep, nil
}

// subscribed makes stream, subscribed with rep, the Remote's.
func (r *Remote) subscribed(stream *Client, rep api.SubscribeReply) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stream, r.token = stream, rep.Token
	for _, i := range rep.Runs {
		r.kinds[i.ID] = i.Kind
	}
	r.recent = map[recentKey]time.Time{}
	for _, e := range rep.History {
		r.recent[keyOf(e)] = e.Time
	}
}

// recentKey is what makes a live event the same as one of the history's: the server
// logs an event as it publishes it, so the last one logged before the subscription
// may also come live.
type recentKey struct {
	id, detail string
	typ        runs.EventType
	seq        uint64
	state      runs.State
}

func keyOf(e runs.Event) recentKey {
	return recentKey{id: e.Run.ID, detail: e.Detail, typ: e.Type, seq: e.Run.Seq, state: e.Run.State}
}

// repeats reports whether live event e is one the history already held: the same
// run, type, sequence number, state and detail, within a second of it.
func (r *Remote) repeats(e runs.Event) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := keyOf(e)
	at, ok := r.recent[k]
	if !ok {
		return false
	}
	delete(r.recent, k)
	return e.Time.Sub(at).Abs() < time.Second
}

// Viewer is this UI as the server knows it: its subscription's token. What it looked
// at is forgotten when the subscription ends.
func (r *Remote) Viewer() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.token
}

// Initial is the snapshot the subscription started from: with AttachFirst, its
// first runs, the others counted by Rest.
func (r *Remote) Initial() []runs.Info { return r.initial }

// Rest counts the runs of the first snapshot that Initial leaves out (AttachFirst):
// they come out of Events as api.EventListed events before any other. Zero: Initial
// is every run.
func (r *Remote) Rest() api.RunSummary { return r.rest }

// FirstReads are the counters, the first run's process tree and its screen as the
// subscription's reply brought them (AttachFirst; nil from an older server, or
// without First): the first frame shows them without reading them after it.
func (r *Remote) FirstReads() (*runs.Metrics, map[string][]reaper.TreeProc, screen.View) {
	var s screen.View
	if r.first != "" {
		s = r.screenOf(r.first)
	}
	return r.metrics, r.trees, s
}

// Widest is a few of the runs Rest counts, those with the widest cells (api.Widest):
// the first frame's columns are sized with them.
func (r *Remote) Widest() []runs.Info { return r.widest }

// History is the events of the state dir's log from before the UI attached, or
// reattached after the server was lost (api.SubscribeReply.History).
func (r *Remote) History() []runs.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.history
}

// Events delivers the server's events, output events included (one per frame
// received); it is closed when the stream ends (the server stopped or went away).
func (r *Remote) Events() <-chan runs.Event { return r.events }

// Server is what the server said of itself when the UI attached (or, after the
// server was lost, when the UI reconnected).
func (r *Remote) Server() api.HelloReply { return r.main.c.Load().Hello }

// Close detaches: the connections close; the server and its runs go on. A reconnect
// under way stops.
func (r *Remote) Close() error {
	r.link.close()
	r.mu.Lock()
	stream := r.stream
	r.mu.Unlock()
	var closing sync.WaitGroup
	for _, c := range []*Client{r.main.c.Load(), r.input.c.Load(), stream} {
		if c != nil {
			closing.Go(func() { c.Close() }) // at once: each over ssh may wait for its far end
		}
	}
	closing.Wait()
	return nil
}

// receive reads the stream until it ends, and again after each reconnect: events are
// passed on, frames update their screen and are passed on as output events.
func (r *Remote) receive() {
	defer close(r.events)
	for {
		r.mu.Lock()
		stream := r.stream
		r.mu.Unlock()
		err := r.read(stream)
		if !r.relink(err) {
			r.mu.Lock()
			r.ended = err
			r.mu.Unlock()
			return
		}
	}
}

// read passes on what stream brings until it ends, with the error it ended with.
func (r *Remote) read(stream *Client) error {
	for {
		line, err := api.ReadLine(stream.r, api.MaxMessage+1024)
		if err != nil {
			return err
		}
		var m api.StreamMsg
		if json.Unmarshal(line, &m) != nil {
			// Not the protocol: the stream ends here, as a lost server's does.
			return fmt.Errorf("stream: %w: it began %s", ErrNotProtocol, Excerpt(line))
		}
		switch {
		case m.Event != nil:
			if r.repeats(*m.Event) {
				continue
			}
			if k := m.Event.Run.Kind; k != "" {
				r.mu.Lock()
				r.kinds[m.Event.Run.ID] = k
				r.mu.Unlock()
			}
			if !r.send(*m.Event) {
				return nil
			}
		case m.Refresh != nil:
			if !r.refreshed(*m.Refresh) {
				return nil
			}
		case m.Listing != nil:
			if !r.listed(*m.Listing) {
				return nil
			}
		case m.Frame != nil:
			if hoptrace.On() { // the detail is made only when traced: a frame's length is over 99, an allocation
				hoptrace.Mark("cli.frame", strconv.Itoa(len(line)))
			}
			r.screenOf(m.Frame.ID).update(*m.Frame)
			e := runs.Event{Type: runs.EventOutput, Time: time.Now(), Run: runs.Info{ID: m.Frame.ID}}
			if m.Frame.Echo {
				e.Detail = runs.DetailEcho
			}
			if !r.send(e) {
				return nil
			}
		}
	}
}

// refreshed hands on what the server pushed at its heartbeat (api.Refresh): each run
// as an EventRefresh, the counters' move as one with DetailCounters, and an empty
// push (the first: the server pushes) as one that names nothing.
func (r *Remote) refreshed(p api.Refresh) bool {
	now := time.Now()
	for _, i := range p.Runs {
		if !r.send(runs.Event{Type: api.EventRefresh, Time: now, Run: i}) {
			return false
		}
	}
	switch {
	case p.Counters:
		return r.send(runs.Event{Type: api.EventRefresh, Time: now, Detail: api.DetailCounters})
	case len(p.Runs) == 0:
		return r.send(runs.Event{Type: api.EventRefresh, Time: now})
	}
	return true
}

// listed hands on runs the subscription's reply left out (api.Listing), each as an
// api.EventListed, and after the last of them one naming no run.
func (r *Remote) listed(l api.Listing) bool {
	r.mu.Lock()
	for _, i := range l.Runs {
		r.kinds[i.ID] = i.Kind
	}
	r.mu.Unlock()
	now := time.Now()
	for _, i := range l.Runs {
		if !r.send(runs.Event{Type: api.EventListed, Time: now, Run: i}) {
			return false
		}
	}
	return !l.Last || r.send(runs.Event{Type: api.EventListed, Time: now})
}

// send passes e on, unless the Remote is closed first.
func (r *Remote) send(e runs.Event) bool {
	select {
	case r.events <- e:
		return true
	case <-r.link.done:
		return false
	}
}

func (r *Remote) screenOf(id string) *remoteScreen {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.screens[id]
	if s == nil {
		s = &remoteScreen{}
		r.screens[id] = s
	}
	return s
}

// Screen returns run id's screen (nil for a pipe run): what the last frame showed,
// and its attention count, which every run's output keeps up to date.
func (r *Remote) Screen(id string) (screen.View, error) {
	kind, err := r.kind(id)
	if err != nil {
		return nil, err
	}
	if kind != runs.KindPTY {
		return nil, nil
	}
	return r.screenOf(id), nil
}

// Watch asks the server for frames of the run the UI shows, and of the few it showed
// last, so that switching back is instant.
func (r *Remote) Watch(id string) error {
	r.mu.Lock()
	var w []string
	if id != "" {
		w = append(w, id)
	}
	for _, x := range r.watched {
		if x != id && len(w) < watchMax {
			w = append(w, x)
		}
	}
	r.watched = w
	tok := r.token
	r.mu.Unlock()
	if r.link.lost.Load() {
		return nil // the reconnect asks for them again
	}
	_, err := r.main.invoke(context.Background(), api.Watch, api.WatchArgs{Token: tok, IDs: w})
	return err
}

// kind is run id's kind: as its events said, or, for a run whose spawn event has not
// come yet (one this UI has just spawned), as the server says.
func (r *Remote) kind(id string) (runs.Kind, error) {
	r.mu.Lock()
	kind, known := r.kinds[id]
	r.mu.Unlock()
	if known {
		return kind, nil
	}
	in, err := api.Info.Call(context.Background(), r, api.RunRef{ID: id})
	if err != nil {
		return "", err
	}
	r.mu.Lock()
	r.kinds[id] = in.Run.Kind
	r.mu.Unlock()
	return in.Run.Kind, nil
}

// screensHeld is the Remote's screens, for the next Remote of its host (Fleet).
func (r *Remote) screensHeld() map[string]*remoteScreen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.screens)
}

// adopt takes the screens a host's previous Remote held, so that the screens a UI
// holds go on showing its runs: a frame that came to a screen of this Remote's own
// meanwhile is moved into the old one.
func (r *Remote) adopt(old map[string]*remoteScreen) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, s := range old {
		if cur, ok := r.screens[id]; ok {
			s.takeFrom(cur)
		}
		r.screens[id] = s
	}
}

// remoteScreen is a screen as its last frame showed it.
type remoteScreen struct {
	mu    sync.Mutex
	f     api.Frame
	state screen.ScreenState
}

// update takes frame f. Whatever server sent it, what reaches the UI's terminal is
// made safe here: the rendering keeps its text, newlines and SGR only (no OSC, DCS,
// APC, PM or SOS string, no other sequence, no control character: hostterm.Frame,
// the filter run output goes through), and the state's texts their printable
// characters.
func (s *remoteScreen) update(f api.Frame) {
	if !f.Light {
		f.Render = hostterm.Clean(f.Render, hostterm.Frame)
		if f.State != nil {
			st := *f.State
			st.Title, st.LastNotice, st.Err = runs.Printable(st.Title), runs.Printable(st.LastNotice), runs.Printable(st.Err)
			f.State = &st
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f.Light {
		s.f.Attention, s.state.Attention = f.Attention, f.Attention
		return
	}
	s.f = f
	if f.State != nil {
		s.state = *f.State
	}
}

// takeFrom makes s show what o shows: its attention count, and its frame if it has
// one.
func (s *remoteScreen) takeFrom(o *remoteScreen) {
	o.mu.Lock()
	f, state := o.f, o.state
	o.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.f.Attention, s.state.Attention = f.Attention, f.Attention
	if f.Version > 0 || f.Render != "" {
		s.f, s.state = f, state
	}
}

func (s *remoteScreen) Render() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f.Render
}

func (s *remoteScreen) State() screen.ScreenState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

func (s *remoteScreen) Attention() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f.Attention
}

func (s *remoteScreen) Version() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f.Version
}

func (s *remoteScreen) Size() (int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f.Cols, s.f.Rows
}

// Invoke calls op on the server, on its lane's connection. While the server is lost
// and the Remote reconnects, nothing is sent: the call fails at once with
// api.ErrServerLost (a key typed then is not delivered later, to a server it was not
// typed for).
func (r *Remote) Invoke(ctx context.Context, op api.Operation, args any) (any, error) {
	if r.link.lost.Load() {
		return nil, fmt.Errorf("%s: %w", op.Name(), api.ErrServerLost)
	}
	l := &r.main
	if op.Lane() == api.LaneInput {
		l = &r.input
	}
	return l.invoke(ctx, op, args)
}

// Begin sends op's request and returns before its reply, which finish waits for: an
// input operation's request goes out at once behind the ones sent before it, without
// waiting for their replies (so the keys typed meanwhile are not held for a round
// trip), and the server takes them in that order; any other is called whole first.
func (r *Remote) Begin(ctx context.Context, op api.Operation, args any) (finish func(context.Context) (any, error), err error) {
	if op.Lane() != api.LaneInput {
		v, err := r.Invoke(ctx, op, args)
		return func(context.Context) (any, error) { return v, err }, nil
	}
	if r.link.lost.Load() {
		return nil, fmt.Errorf("%s: %w", op.Name(), api.ErrServerLost)
	}
	return r.input.begin(ctx, op, args)
}

// Text is the frame's text with its SGR sequences (all a rendered frame holds) removed.
func (s *remoteScreen) Text() string { return ansi.Strip(s.Render()) }
