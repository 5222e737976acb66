package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"corral/ptyhost"
	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/runs"
)

// Remote is a server's supervisor as an attached UI sees it: the same methods as the
// in-process core, each a call over the socket, and screens kept up to date by the
// subscription's frames. It opens three connections: one for keys and other input
// (so a key never waits behind a slow call such as a process tree), one for the
// rest, and the stream.
type Remote struct {
	ctl, input lockedClient
	stream     *Client
	token      string
	initial    []runs.Info
	events     chan runs.Event

	mu      sync.Mutex
	screens map[string]*remoteScreen
	kinds   map[string]runs.Kind // run id → its kind
	watched []string             // most recently asked-for screens first
}

// watchMax is how many screens one UI keeps streamed: the selected run's and a few
// it just showed, so switching back is instant.
const watchMax = 4

type lockedClient struct {
	mu sync.Mutex
	c  *Client
}

func (l *lockedClient) call(verb string, args, result any) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.c.Call(verb, args, result)
}

// Attach connects to the state dir's server (starting it with start when none runs)
// and subscribes.
func Attach(dir string, start func() error, limit time.Duration) (*Remote, error) {
	first := true
	return AttachWith(func() (*Client, error) {
		if first {
			first = false
			return Connect(dir, start, limit)
		}
		return Dial(dir)
	})
}

// AttachWith attaches over the connections dial opens (three: control, input and
// the stream), whatever carries them: the local socket, or ssh to corral proxy.
func AttachWith(dial func() (*Client, error)) (*Remote, error) {
	r := &Remote{events: make(chan runs.Event, 256), screens: map[string]*remoteScreen{}, kinds: map[string]runs.Kind{}}
	var err error
	if r.ctl.c, err = dial(); err != nil {
		return nil, err
	}
	if r.input.c, err = dial(); err == nil {
		r.stream, err = dial()
	}
	if err == nil {
		err = r.subscribe()
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	go r.receive()
	return r, nil
}

func (r *Remote) subscribe() error {
	var rep SubscribeReply
	if err := r.stream.Call("subscribe", nil, &rep); err != nil {
		return fmt.Errorf("subscribe: %w", err)
	}
	r.token, r.initial = rep.Token, Infos(rep.Runs)
	for _, i := range r.initial {
		r.kinds[i.ID] = i.Kind
	}
	return nil
}

// Initial is the snapshot the subscription started from.
func (r *Remote) Initial() []runs.Info { return r.initial }

// Events delivers the server's events, output events included (one per frame
// received); it is closed when the stream ends (the server stopped or went away).
func (r *Remote) Events() <-chan runs.Event { return r.events }

// Server is what the server said of itself when the UI attached.
func (r *Remote) Server() HelloReply { return r.ctl.c.Hello }

// Close detaches: the connections close; the server and its runs go on.
func (r *Remote) Close() error {
	for _, c := range []*Client{r.ctl.c, r.input.c, r.stream} {
		if c != nil {
			c.Close()
		}
	}
	return nil
}

// receive reads the stream until it ends: events are passed on, frames update their
// screen and are passed on as output events.
func (r *Remote) receive() {
	defer close(r.events)
	for {
		line, err := readLine(r.stream.r, MaxMessage+1024)
		if err != nil {
			return
		}
		var m StreamMsg
		if json.Unmarshal(line, &m) != nil {
			continue
		}
		switch {
		case m.Event != nil:
			if k := m.Event.Run.Kind; k != "" {
				r.mu.Lock()
				r.kinds[m.Event.Run.ID] = k
				r.mu.Unlock()
			}
			r.events <- *m.Event
		case m.Frame != nil:
			r.screenOf(m.Frame.ID).update(*m.Frame)
			r.events <- runs.Event{Type: runs.EventOutput, Time: time.Now(), Run: runs.Info{ID: m.Frame.ID}}
		}
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
	r.mu.Lock()
	kind, known := r.kinds[id]
	r.mu.Unlock()
	if !known {
		return nil, fmt.Errorf("%s: %w", id, runs.ErrUnknownRun)
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
	r.mu.Unlock()
	return r.ctl.call("watch", WatchArgs{Token: r.token, IDs: w}, nil)
}

// remoteScreen is a screen as its last frame showed it.
type remoteScreen struct {
	mu    sync.Mutex
	f     Frame
	state screen.ScreenState
}

func (s *remoteScreen) update(f Frame) {
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

// The core's methods, each one call.

func (r *Remote) Snapshot() []runs.Info {
	var rep SnapshotReply
	if r.ctl.call("snapshot", nil, &rep) != nil {
		return nil
	}
	return Infos(rep.Runs)
}

func (r *Remote) Spawn(spec runs.Spec) (string, error) {
	var rep SpawnReply
	if err := r.ctl.call("spawn", Here(spec), &rep); err != nil {
		return "", err
	}
	r.mu.Lock()
	r.kinds[rep.ID] = spec.Kind()
	r.mu.Unlock()
	if rep.SpawnError != "" {
		return rep.ID, errors.New(rep.SpawnError)
	}
	return rep.ID, nil
}

func (r *Remote) ref(verb, id string) error { return r.ctl.call(verb, RunRef{ID: id}, nil) }

func (r *Remote) Cancel(id string) error    { return r.ref("kill", id) }
func (r *Remote) Interrupt(id string) error { return r.ref("interrupt", id) }
func (r *Remote) Pause(id string) error     { return r.ref("pause", id) }
func (r *Remote) Resume(id string) error    { return r.ref("resume", id) }
func (r *Remote) Remove(id string) error    { return r.ref("remove", id) }

func (r *Remote) Stop(id string, reason runs.Reason) error {
	return r.ctl.call("stop", StopArgs{ID: id, Reason: reason}, nil)
}

func (r *Remote) Write(id string, b []byte) error {
	return r.input.call("write", WriteArgs{ID: id, Data: b}, nil)
}

func (r *Remote) SendKeys(id string, items []ptyhost.Item) error {
	return r.input.call("send-items", ItemsArgs{ID: id, Items: items}, nil)
}

func (r *Remote) Paste(id, text string) error {
	return r.input.call("paste", TextArgs{ID: id, Text: text}, nil)
}

func (r *Remote) Submit(id, text string) error {
	return r.input.call("submit", TextArgs{ID: id, Text: text}, nil)
}

func (r *Remote) Resize(id string, cols, rows uint16) error {
	return r.input.call("resize", ResizeArgs{ID: id, Cols: cols, Rows: rows}, nil)
}

func (r *Remote) Reconcile(context.Context) ([]runs.Decision, error) {
	var ds []runs.Decision
	err := r.ctl.call("reconcile", nil, &ds)
	return ds, err
}

func (r *Remote) Trees(ids ...string) (map[string][]reaper.TreeProc, error) {
	var t map[string][]WireProc
	err := r.ctl.call("trees", TreesArgs{IDs: ids}, &t)
	return treesOf(t), err
}

func (r *Remote) Log(id string) (runs.Output, error) {
	var rep OutputReply
	err := r.ctl.call("output", RunRef{ID: id}, &rep)
	return rep.Output, err
}

func (r *Remote) Metrics() runs.Metrics {
	var m runs.Metrics
	r.ctl.call("metrics", nil, &m)
	return m
}

// Shutdown ends every run and the server (the UI's "quit and end the runs").
func (r *Remote) Shutdown(context.Context) error { return r.ctl.call("shutdown", nil, nil) }

// Text is the frame's text with its SGR sequences (all a rendered frame holds) removed.
func (s *remoteScreen) Text() string {
	r := s.Render()
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		if r[i] == 0x1b && i+1 < len(r) && r[i+1] == '[' {
			j := i + 2
			for j < len(r) && (r[j] < 0x40 || r[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(r[i])
	}
	return b.String()
}
