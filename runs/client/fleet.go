package client

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"corral/config"
	"corral/ptyhost/screen"
	"corral/runs"
	"corral/runs/api"
)

// Fleet is several hosts' servers as one core: a UI over all of them
// calls it as it calls one Remote. Each host keeps its own server, runs, registry and
// ownership; the Fleet only routes: an operation on a run goes to the server of that
// run's host, one that names no run to the host its context names (api.OnHost), else
// to every connected host with the replies merged. Each host is attached on its own
// (a Remote of its own, its own connections), so a host that is slow or gone never
// holds up the keys and screens of another: it shows as unreachable and is tried
// again, more slowly each time, while the others go on.
type Fleet struct {
	members []*member
	events  chan runs.Event
	// patience is how long a listing waits for the other hosts after the first
	// answer (fleetPatience; tests on a loaded machine wait longer).
	patience time.Duration
	done     chan struct{}
	ctx      context.Context // ends when the Fleet closes: attachments under way end
	cancel   context.CancelFunc
	once     sync.Once
	wg       sync.WaitGroup
	joining  sync.Mutex // a host attached is checked against the others, one at a time (join)

	mu      sync.Mutex
	where   map[string]*member // run id → its host
	initial []runs.Info
	history []runs.Event
}

// Member is one host of a Fleet and how it is attached: with AttachContext when set
// (its ctx ends when the Fleet closes, so an attachment under way, to a host that
// does not answer, ends with it), else with Attach.
type Member struct {
	Host          Host
	Attach        func() (*Remote, error)
	AttachContext func(ctx context.Context) (*Remote, error)
}

// Local is this machine's server for the state dir as a Fleet's member: started
// with start when none runs, the first time. Its Remote reconnects by itself when the
// server is lost; when it stopped on purpose, it is only dialled again, never
// started: whoever stopped it meant it.
func Local(dir string, start func() error) Member {
	var once sync.Once
	return Member{Host: Host{Name: config.LocalHost, StateDir: dir}, Attach: func() (*Remote, error) {
		first := false
		once.Do(func() { first = true })
		if first {
			return Attach(dir, start, fleetStartLimit)
		}
		return Attach(dir, func() error { return ErrNoServer }, fleetStartLimit)
	}}
}

// Over is a host reached over ssh as a Fleet's member. Until it has been attached
// once, an attachment's first connection starts its server when none runs there;
// after, it is only reached, never started: a server stopped there (corral shutdown)
// was stopped on purpose, as Local's.
func Over(h Host) Member {
	var attached atomic.Bool
	return Member{Host: h, AttachContext: func(ctx context.Context) (*Remote, error) {
		if attached.Load() {
			return AttachWith(func() (*Client, error) { return h.DialContext(ctx, false) })
		}
		rem, err := AttachWith(startingFirst(ctx, h))
		if err == nil {
			attached.Store(true)
		}
		return rem, err
	}}
}

// How long opening a Fleet waits for the hosts' first attempts before the UI shows
// (the rest come in as they attach; a host is tried again as fleetBackoff says).
const (
	fleetOpenWait   = 3 * time.Second
	fleetStartLimit = 10 * time.Second
	// fleetFanOut bounds a call every host is asked (a listing); fleetPatience is how
	// long after the first answer the others are waited for (fleet_merge.go ask).
	fleetFanOut   = 5 * time.Second
	fleetPatience = 1500 * time.Millisecond
)

// member is one host and its link.
type member struct {
	host   Host
	attach func(ctx context.Context) (*Remote, error)

	mu    sync.Mutex
	rem   *Remote // nil while not attached
	state api.HostState
	first chan struct{} // closed after the first attempt
	// What the UI asked of the host, asked again of its next Remote: the screens it
	// holds (the same objects go on), the runs it watches, the run its user looks at.
	screens map[string]*remoteScreen
	watched []string
	focus   *api.FocusArgs
	out     map[string]bool // the listings whose call to it is still out, by name (fleet_merge.go ask)
}

// send notes that a call of listing op goes out to m, unless one is out already.
func (m *member) send(op string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.out[op] {
		return false
	}
	if m.out == nil {
		m.out = map[string]bool{}
	}
	m.out[op] = true
	return true
}

// back notes that listing op's call to m returned.
func (m *member) back(op string) {
	m.mu.Lock()
	delete(m.out, op)
	m.mu.Unlock()
}

// OpenFleet attaches to every member's host at once and returns when each has been
// tried once, or after fleetOpenWait: a host still connecting then, or unreachable,
// comes in later (api.EventHostState). The first member is the default host of an
// operation that names none and has no host to go to (metrics aside, merged).
func OpenFleet(members []Member) (*Fleet, error) {
	if len(members) == 0 {
		return nil, errors.New("no host to attach to")
	}
	f := &Fleet{events: make(chan runs.Event, 256), done: make(chan struct{}), where: map[string]*member{}, patience: fleetPatience}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	seen := map[string]bool{}
	for _, mb := range members {
		if seen[mb.Host.Name] {
			return nil, fmt.Errorf("host %q is named twice", mb.Host.Name)
		}
		seen[mb.Host.Name] = true
		m := &member{host: mb.Host, attach: mb.AttachContext, first: make(chan struct{})}
		if m.attach == nil {
			m.attach = func(context.Context) (*Remote, error) { return mb.Attach() }
		}
		m.state = m.fresh(api.HostConnecting)
		f.members = append(f.members, m)
	}
	for _, m := range f.members {
		f.wg.Add(1)
		go f.keep(m)
	}
	deadline := time.After(fleetOpenWait)
	for _, m := range f.members {
		select {
		case <-m.first:
		case <-deadline:
		}
	}
	return f, nil
}

// join makes rem m's Remote (attached), unless its server is another host's already
// (twin): one at a time, so two entries attaching at once to one server cannot both.
func (f *Fleet) join(m *member, rem *Remote) error {
	f.joining.Lock()
	defer f.joining.Unlock()
	if err := f.twin(m, rem); err != nil {
		return err
	}
	f.attached(m, rem)
	return nil
}

// twin is why m, attached with rem, is another host's server again (nil if it is
// not): two entries that reach one server (an alias, localhost and the machine's
// name) would list its runs twice under two names. The server's instance says.
func (f *Fleet) twin(m *member, rem *Remote) error {
	inst := rem.Server().Instance
	for _, o := range f.members {
		if r := o.remote(); o != m && r != nil && inst != "" && r.Server().Instance == inst {
			return fmt.Errorf("the same server as host %s (instance %s, state dir %s): one host is listed once", o.host.Name, inst, rem.Server().StateDir)
		}
	}
	return nil
}

// fresh is m's state as it enters status now.
func (m *member) fresh(status api.HostStatus) api.HostState {
	where := "this machine"
	if m.host.Remote() {
		where = "ssh " + m.host.SSH
	}
	return api.HostState{Name: m.host.Name, Where: where, Local: !m.host.Remote(), Status: status, Since: time.Now()}
}

// keep attaches m, passes its events on while attached, and attaches it again when
// its link ends, until the Fleet closes: at once, then as fleetBackoff says while
// attempts fail.
func (f *Fleet) keep(m *member) {
	defer f.wg.Done()
	for {
		var rem *Remote
		fleetBackoff.retry(f.done, func(int) error {
			r, err := m.attach(f.ctx)
			if err == nil {
				err = f.join(m, r)
			}
			if err == nil || f.closed() {
				rem = r
				return nil
			}
			if r != nil {
				r.Close()
			}
			return err
		}, func(_ int, err error, next time.Duration) bool {
			f.failed(m, err, next)
			m.firstDone()
			return true
		})
		m.firstDone()
		if f.closed() {
			if rem != nil {
				rem.Close()
			}
			return
		}
		f.forward(m, rem)
		rem.Close()
		f.dropped(m, rem.endedWith())
	}
}

func (m *member) firstDone() {
	select {
	case <-m.first:
	default:
		close(m.first)
	}
}

// attached makes rem m's Remote, learns its runs and says so. A Remote after the
// first takes on what the UI had of the last: its screens, watches and focus.
func (f *Fleet) attached(m *member, rem *Remote) {
	initial := stamped(rem.Initial(), m.host.Name)
	m.mu.Lock()
	rem.adopt(m.screens)
	watched, focus := slices.Clone(m.watched), m.focus
	m.mu.Unlock()
	for _, id := range slices.Backward(watched) {
		rem.Watch(id) // the most recent last: first in the Remote's list
	}
	if focus != nil {
		rem.Invoke(context.Background(), api.Focus, withViewer(api.Focus, *focus, rem.Viewer()))
	}
	m.mu.Lock()
	m.rem = rem
	m.state = m.fresh(api.HostConnected)
	m.state.Server = rem.Server().PID
	m.mu.Unlock()
	f.mu.Lock()
	for _, i := range initial {
		f.where[i.ID] = m
	}
	select {
	case <-m.first: // a later attachment: the UI fetches its runs when told
	default:
		f.initial = append(f.initial, initial...)
		f.history = append(f.history, stampedEvents(rem.History(), m.host.Name)...)
	}
	f.mu.Unlock()
	f.changed(m)
}

// failed records a failed attempt; the next comes after delay.
func (f *Fleet) failed(m *member, err error, delay time.Duration) {
	status := api.HostUnreachable
	var ae *api.Error
	if errors.Is(err, api.ErrVersion) || errors.As(err, &ae) && ae.Code == api.CodeVersion {
		status = api.HostMismatch
	}
	m.mu.Lock()
	s := m.state
	if s.Status != status {
		s.Since = time.Now()
	}
	s.Status, s.Err, s.Next, s.Attempt, s.Server = status, err.Error(), time.Now().Add(delay), s.Attempt+1, 0
	m.state = s
	m.mu.Unlock()
	f.changed(m)
}

// dropped: m's link ended (the stream closed: the server stopped, or ssh went away).
func (f *Fleet) dropped(m *member, why error) {
	m.mu.Lock()
	if m.rem != nil {
		m.screens = m.rem.screensHeld()
	}
	m.rem = nil
	m.state = m.fresh(api.HostUnreachable)
	m.state.Err = "the link to its server ended"
	if errors.Is(why, ErrNotProtocol) {
		m.state.Err += ": " + why.Error()
	}
	m.mu.Unlock()
	f.changed(m)
}

// changed tells the UI that m's state changed.
func (f *Fleet) changed(m *member) {
	f.send(runs.Event{Type: api.EventHostState, Time: time.Now(), Run: runs.Info{Host: m.host.Name}})
}

// forward passes m's events on, each stamped with its host, until its stream ends.
// The local server's own lost and back events become its host's state.
func (f *Fleet) forward(m *member, rem *Remote) {
	for ev := range rem.Events() {
		switch ev.Type {
		case api.EventServerLost:
			m.mu.Lock()
			if m.state.Status != api.HostLost {
				m.state.Since = time.Now()
			}
			m.state.Status, m.state.Err, m.state.Server = api.HostLost, ev.Detail, 0
			m.mu.Unlock()
			f.changed(m)
			continue
		case api.EventServerBack:
			m.mu.Lock()
			m.state = m.fresh(api.HostConnected)
			m.state.Server = ev.Run.PID
			m.mu.Unlock()
			f.changed(m)
			continue
		}
		ev.Run.Host = m.host.Name
		if ev.Run.ID != "" {
			f.learn(ev.Run.ID, m)
		}
		if !f.send(ev) {
			return
		}
	}
}

func (f *Fleet) learn(id string, m *member) {
	f.mu.Lock()
	f.where[id] = m
	f.mu.Unlock()
}

// send passes e on, unless the Fleet closes first.
func (f *Fleet) send(e runs.Event) bool {
	select {
	case f.events <- e:
		return true
	case <-f.done:
		return false
	}
}

func (f *Fleet) closed() bool { return isDone(f.done) }

// Close detaches from every host: their servers and runs go on.
func (f *Fleet) Close() error {
	f.once.Do(func() { close(f.done); f.cancel() })
	var closing sync.WaitGroup
	for _, m := range f.members {
		if r := m.remote(); r != nil {
			closing.Go(func() { r.Close() }) // at once: a host slow to hang up holds up no other
		}
	}
	closing.Wait()
	f.wg.Wait()
	return nil
}

// Events delivers every host's events, each with Run.Host set, and the Fleet's own
// EventHostState; closed by Close.
func (f *Fleet) Events() <-chan runs.Event { return f.events }

// Initial is the runs of the hosts attached when the Fleet opened, Run.Host set.
func (f *Fleet) Initial() []runs.Info {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]runs.Info(nil), f.initial...)
}

// History is the recent events of the hosts attached when the Fleet opened, oldest
// first.
func (f *Fleet) History() []runs.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := append([]runs.Event(nil), f.history...)
	sortEvents(h)
	return h
}

// HistoryOf is one host's recent events, from when it last attached.
func (f *Fleet) HistoryOf(host string) []runs.Event {
	m := f.member(host)
	if m == nil {
		return nil
	}
	if r := m.remote(); r != nil {
		return stampedEvents(r.History(), host)
	}
	return nil
}

// Hosts is every host's state, in the order they were given.
func (f *Fleet) Hosts() []api.HostState {
	out := make([]api.HostState, len(f.members))
	for i, m := range f.members {
		m.mu.Lock()
		out[i] = m.state
		m.mu.Unlock()
	}
	return out
}

// Viewer is the Fleet's stand-in for the UI's token: each host knows the UI by its own
// subscription's token, which the Fleet puts in place of this one (withViewer).
func (f *Fleet) Viewer() string { return fleetViewer }

const fleetViewer = "fleet"

func (f *Fleet) member(host string) *member {
	for _, m := range f.members {
		if m.host.Name == host {
			return m
		}
	}
	return nil
}

func (m *member) remote() *Remote {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.rem
}

// connected is m's Remote, or why there is none.
func (m *member) connected() (*Remote, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rem != nil {
		return m.rem, nil
	}
	s := m.state
	if s.Status == api.HostConnecting {
		return nil, fmt.Errorf("host %s: connecting", m.host.Name)
	}
	return nil, fmt.Errorf("host %s: %s since %s: %s", m.host.Name, s.Status, s.Since.Format("15:04:05"), s.Err)
}

// invoke calls op on m's server, with the UI's token there, and stamps the reply.
func (m *member) invoke(ctx context.Context, op api.Operation, args any) (any, error) {
	r, err := m.connected()
	if err != nil {
		return nil, err
	}
	if fa, ok := args.(api.FocusArgs); ok {
		m.mu.Lock()
		m.focus = &fa
		if !fa.Focused {
			m.focus = nil
		}
		m.mu.Unlock()
	}
	rep, err := r.Invoke(ctx, op, withViewer(op, args, r.Viewer()))
	return stampReply(op, rep, m.host.Name), err
}

// Screen is run id's screen, from its host's Remote.
func (f *Fleet) Screen(id string) (screen.View, error) {
	m, err := f.owner(id)
	if err != nil {
		return nil, err
	}
	r, err := m.connected()
	if err != nil {
		return nil, err
	}
	return r.Screen(id)
}

// Watch asks run id's host for its frames ("" asks nothing).
func (f *Fleet) Watch(id string) error {
	if id == "" {
		return nil
	}
	m, err := f.owner(id)
	if err != nil {
		return err
	}
	m.mu.Lock()
	m.watched = slices.DeleteFunc(m.watched, func(x string) bool { return x == id })
	m.watched = append([]string{id}, m.watched[:min(len(m.watched), watchMax-1)]...)
	m.mu.Unlock()
	r, err := m.connected()
	if err != nil {
		return err
	}
	return r.Watch(id)
}

// owner is run id's host: as its events and replies said, else the connected host
// whose server knows it (a reference by name or prefix, or a run not seen yet).
func (f *Fleet) owner(id string) (*member, error) {
	f.mu.Lock()
	m, ok := f.where[id]
	f.mu.Unlock()
	if ok {
		return m, nil
	}
	type found struct {
		m  *member
		id string
	}
	var hits []found
	for _, a := range f.ask(context.Background(), "", fleetFanOut, f.patience, func(ctx context.Context, m *member) (any, error) {
		return m.invoke(ctx, api.Info, api.RunRef{ID: id})
	}) {
		if a.err == nil {
			hits = append(hits, found{a.m, a.rep.(api.InfoReply).Run.ID})
		}
	}
	switch len(hits) {
	case 0:
		return nil, fmt.Errorf("no run %q on any connected host", id)
	case 1:
		f.learn(hits[0].id, hits[0].m)
		return hits[0].m, nil
	}
	return nil, fmt.Errorf("%q names runs on %d hosts: give the run id and its host", id, len(hits))
}

// Invoke routes op: to the host ctx names, else to the host of the run args name,
// else to every connected host, merged, for a listing, ending or reconciling; else to
// the first host (fleet_merge.go).
func (f *Fleet) Invoke(ctx context.Context, op api.Operation, args any) (any, error) {
	if h := api.HostOf(ctx); h != "" {
		m := f.member(h)
		if m == nil {
			return nil, fmt.Errorf("%s: no host %q (hosts: %s)", op.Name(), h, f.names())
		}
		return f.invoke(ctx, m, op, args)
	}
	if id, ok := api.RunOf(args); ok && id != "" {
		m, err := f.owner(id)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op.Name(), err)
		}
		return f.invoke(ctx, m, op, args)
	}
	return f.fanOut(ctx, op, args)
}

// invoke calls op on m and learns which runs are m's from the reply.
func (f *Fleet) invoke(ctx context.Context, m *member, op api.Operation, args any) (any, error) {
	rep, err := m.invoke(ctx, op, args)
	f.learnReply(op, rep, m)
	return rep, err
}

// learnReply learns which runs are m's from its reply to op: the one it started (a
// spawn), the ones it returns (a listing, a run's info).
func (f *Fleet) learnReply(op api.Operation, rep any, m *member) {
	ids := []string{op.Started(rep)}
	op.EachRun(rep, func(i *runs.Info) { ids = append(ids, i.ID) })
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, id := range ids {
		if id != "" {
			f.where[id] = m
		}
	}
}

func (f *Fleet) names() string {
	s := ""
	for i, m := range f.members {
		if i > 0 {
			s += ", "
		}
		s += m.host.Name
	}
	return s
}
