package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"maps"
	"net"
	"reflect"
	"slices"
	"sync"
	"time"

	"corral/ptyhost/hoptrace"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/pacer"
)

// An attached UI opens one connection with "subscribe": the reply is a snapshot of
// every run (or of the first runs, the others right after it: api.SubscribeArgs.First)
// and a token, and from then on the server only writes StreamMsgs on it,
// one per line: every lifecycle event as it happens (never dropped), and frames of
// the screens the UI watches (the "watch" verb, on another connection, with the
// token), paced by a pacer.Pacer (FrameInterval). A run with output that the UI
// does not watch gets a light frame (its attention count only), so the run list can
// still mark it without the server emulating its screen. The screen is emulated and
// rendered once, here, where its bytes are: a frame is the same string an in-process
// UI would draw (frames, not a client-side emulator, were chosen by measurement:
// frames keep one emulator per run, and a 120×40 frame is ~10 KB).
// A UI that subscribes with Push also gets, at each heartbeat, what its snapshot would
// bring that moved with no event (push), and need not ask while nothing happens.

// FrameInterval is the frame interval of a stream's pacer (package pacer: a lone
// change goes out at once, a busy run every few frames, the last change always gets
// a frame). The attached UI passes every frame on at once: the server is the one place
// its output is paced.
const FrameInterval = 16 * time.Millisecond

// subscriber is one attached UI's stream state.
type subscriber struct {
	mu      sync.Mutex
	watched map[string]bool
	wake    chan struct{} // capacity 1: the watch set changed
}

func (s *Server) addSub() (string, *subscriber) {
	b := make([]byte, 8)
	rand.Read(b)
	tok := hex.EncodeToString(b)
	sb := &subscriber{watched: map[string]bool{}, wake: make(chan struct{}, 1)}
	s.mu.Lock()
	if s.subs == nil {
		s.subs = map[string]*subscriber{}
	}
	s.subs[tok] = sb
	s.mu.Unlock()
	return tok, sb
}

func (s *Server) dropSub(tok string) {
	s.mu.Lock()
	delete(s.subs, tok)
	s.mu.Unlock()
}

func watch(s *Server, _ context.Context, a api.WatchArgs) (struct{}, error) {
	s.mu.Lock()
	sb := s.subs[a.Token]
	s.mu.Unlock()
	if sb == nil {
		return struct{}{}, api.Errorf(api.CodeBadRequest, "no subscription %q", a.Token)
	}
	sb.mu.Lock()
	sb.watched = map[string]bool{}
	for _, id := range a.IDs {
		sb.watched[id] = true
	}
	sb.mu.Unlock()
	select {
	case sb.wake <- struct{}{}:
	default:
	}
	return struct{}{}, nil
}

// stream serves a subscription until the client hangs up or the server stops.
func (s *Server) stream(ctx context.Context, c net.Conn, enc *json.Encoder, args api.SubscribeArgs) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	snap, sub := s.core.Subscribe()
	defer sub.Close()
	tok, sb := s.addSub()
	defer s.dropSub(tok)
	defer s.core.Unfocus(tok) // a UI that went away looks at nothing
	s.core.SentTo(tok, snap)  // its first snapshot (viewer tok) carries what changed since
	st := &streamState{s: s, sb: sb, conn: c, enc: enc, pace: pacer.New(FrameInterval), tok: tok}
	defer st.pace.Stop()
	rep, rest := st.reply(snap, args.First)
	if enc.Encode(api.Response{V: api.Version, Result: mustJSON(rep)}) != nil || !st.listing(rest) {
		return
	}
	// The client never writes on a stream; a read returns when it hangs up.
	go func() {
		io.Copy(io.Discard, c)
		cancel()
	}()
	var beat <-chan struct{} // nil: no pushes (not asked, or a core with no heartbeat)
	b, beats := s.core.(beater)
	if args.Push && beats {
		beat = b.Beat()
	}
	for {
		var ok bool
		select {
		case ev, open := <-sub.C:
			ok = open && st.event(ev)
		case <-sb.wake: // newly watched runs get their whole frame now
			ok = st.flush(st.watched()...)
		case <-st.pace.C():
			ok = st.flush()
		case <-beat:
			beat = b.Beat()
			ok = st.push(time.Now())
		case <-ctx.Done():
		}
		if !ok {
			return
		}
	}
}

// reply is the subscription's reply over snapshot snap: every run, or, when the
// subscriber asked for the first runs only (first > 0), those, the first one's
// screen (watched from now on) and the counts of the rest, which it returns.
func (st *streamState) reply(snap []runs.Info, first int) (api.SubscribeReply, []runs.Info) {
	rep := api.SubscribeReply{Token: st.tok, Runs: snap, History: st.s.history()}
	if first <= 0 || len(snap) == 0 {
		return rep, nil
	}
	st.sb.mu.Lock()
	st.sb.watched[snap[0].ID] = true
	st.sb.mu.Unlock()
	if f, ok := st.frame(snap[0].ID); ok {
		rep.Frame = &f
	}
	// The first run gets what a snapshot read gives and the subscription's copy lacks
	// (its watchdog, its last output, what its cgroup used): the details pane shows
	// them in the first frame, not after the UI's first snapshot read. Only those: the
	// rest of a newer copy (its state, its Seq) would be newer than the events that
	// follow the reply, and a change among them would then look like no change to the
	// UI (an agent that came to wait would not be marked for attention).
	if i, err := st.s.core.Info(snap[0].ID); err == nil {
		snap[0].Watchdog, snap[0].Usage, snap[0].LastOutputAt = i.Watchdog, i.Usage, i.LastOutputAt
	}
	m := st.s.core.Metrics()
	rep.Metrics, st.counters, st.seeded = &m, m, true // the first push says whether they moved since
	// Its process tree, when its cgroup lists its members. A run without one has its
	// tree from a scan of every process on the machine: the reply does not wait for
	// that, and the UI reads it after its first frame.
	if !snap[0].Ended() && snap[0].Cgroup != "" {
		if t, err := st.s.core.Trees(snap[0].ID); err == nil {
			rep.Trees = t
		}
	}
	if first >= len(snap) {
		return rep, nil
	}
	rest := snap[first:]
	rep.Runs, rep.Rest, rep.Widest = snap[:first], new(api.Summarize(rest)), api.Widest(snap[:first], rest)
	return rep, rest
}

// listing sends the runs the reply left out, in messages of api.ListingChunk, before
// anything else the stream sends.
func (st *streamState) listing(rest []runs.Info) bool {
	for len(rest) > 0 {
		n := min(len(rest), api.ListingChunk)
		if !st.send(api.StreamMsg{Listing: &api.Listing{Runs: rest[:n], Last: n == len(rest)}}) {
			return false
		}
		rest = rest[n:]
	}
	return true
}

// history is the recent events of the state dir's log, written before now (the
// subscription is already taken: what comes after it comes live).
func (s *Server) history() []runs.Event {
	if s.opt.StateDir == "" {
		return nil
	}
	evs, err := runs.RecentEvents(s.opt.StateDir, time.Now())
	if err != nil {
		s.log.Warn("recent events", "err", err)
	}
	return evs
}

// streamState is one stream's state; it lives on the stream's goroutine.
type streamState struct {
	s    *Server
	sb   *subscriber
	conn net.Conn
	enc  *json.Encoder
	pace *pacer.Pacer
	tok  string // the subscriber as a viewer (runs.SnapshotFor)
	echo bool   // an echo is among the changes pending (runs.DetailEcho): their frames say so

	// What the pushes sent (push): nothing yet (hello false), the runs as last
	// pushed, the counters as last seen (seeded: by the reply, which brought them,
	// so the first push says whether they moved since).
	hello    bool
	pushed   map[string]runs.Info
	counters runs.Metrics
	seeded   bool
}

// beater is a core with a heartbeat (*runs.Supervisor): its Beat is closed at the
// next one.
type beater interface{ Beat() <-chan struct{} }

// push sends, at a heartbeat, what the subscriber's snapshot would bring that moved
// with no event — a run's usage, a change no event carried, a lease the subscriber
// holds that would lapse before the next beat — and whether the counters moved (a
// reconcile's steal moves them with no event to this UI). The first push goes even if
// empty: it tells the UI that its server pushes, so it stops asking.
func (st *streamState) push(now time.Time) bool {
	var p api.Refresh
	if st.pushed == nil {
		st.pushed = map[string]runs.Info{}
	}
	for _, i := range st.s.core.SnapshotFor(st.tok, false) {
		if prev, ok := st.pushed[i.ID]; ok && !i.Moved(prev) && !leaseLapses(prev.LeaseExpiresAt, i.LeaseExpiresAt, now) {
			continue
		}
		st.pushed[i.ID] = i
		p.Runs = append(p.Runs, i)
	}
	m := st.s.core.Metrics()
	if (st.hello || st.seeded) && !reflect.DeepEqual(m, st.counters) {
		p.Counters = true
	}
	st.counters = m
	if st.hello && len(p.Runs) == 0 && !p.Counters {
		return true
	}
	st.hello = true
	st.conn.SetWriteDeadline(time.Now().Add(streamWriteLimit))
	return st.enc.Encode(api.StreamMsg{Refresh: &p}) == nil
}

// leaseLapses reports whether a lease shown as until shown, renewed now to until
// next, needs the new expiry pushed: the shown one would lapse before the renewal
// after this one. A lease is renewed with half of it left, so that is every other
// renewal: the UI's lease line (a time of day) moves once a lease, not at every
// renewal. The next renewal is due when half of next is left (now + (next−now)/2);
// a beat that comes late by up to leaseSlack still finds the shown one good, so a
// loaded machine does not turn this into a push at every beat; the shown expiry is
// then at most that late (the line shows whole seconds).
func leaseLapses(shown, next, now time.Time) bool {
	if next.Equal(shown) {
		return false
	}
	due := now.Add(next.Sub(now) / 2)
	return shown.Before(due.Add(-min(leaseSlack, next.Sub(now)/4)))
}

// leaseSlack is how late a beat may come without a lease push of its own
// (leaseLapses), at most a quarter of a lease.
const leaseSlack = time.Second

// event forwards a lifecycle event at once; an output event is a change for the pacer.
func (st *streamState) event(ev runs.Event) bool {
	if ev.Type != runs.EventOutput {
		return st.send(api.StreamMsg{Event: &ev})
	}
	change := st.pace.Change
	if ev.Detail == runs.DetailEcho {
		change = st.pace.Echo
		st.echo = true
	}
	if !change(ev.Run.ID, time.Now()) {
		if hoptrace.On() {
			due, _ := st.pace.Due()
			hoptrace.Mark("srv.held", time.Until(due).String())
		}
		return true
	}
	hoptrace.Mark("srv.ev", "")
	return st.flush()
}

// watched is the runs the subscriber watches.
func (st *streamState) watched() []string {
	st.sb.mu.Lock()
	defer st.sb.mu.Unlock()
	return slices.Collect(maps.Keys(st.sb.watched))
}

// flush sends a frame of every run changed since the last, and of also's runs.
func (st *streamState) flush(also ...string) bool {
	now := time.Now()
	ids := st.pace.Take(now)
	echo := st.echo
	st.echo = false
	detail := ""
	if echo {
		detail = runs.DetailEcho
	}
	for _, id := range also {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		msg := api.StreamMsg{Event: &runs.Event{Type: runs.EventOutput, Time: now, Run: runs.Info{ID: id}, Detail: detail}}
		if f, ok := st.frame(id); ok {
			f.Echo = echo
			msg = api.StreamMsg{Frame: &f} // a run with no screen (pipe) gets the bare event
		}
		if !st.send(msg) {
			return false
		}
		hoptrace.Mark("srv.frame", id)
	}
	return true
}

// streamWriteLimit is how long one message may take to reach a client. A client that
// stopped reading (a suspended terminal, a dead ssh link the kernel has not noticed)
// would otherwise hold its subscription's queue growing for ever; past this it is
// hung up on, and attaches again when it wakes.
const streamWriteLimit = 30 * time.Second

// send writes one message, within streamWriteLimit.
func (st *streamState) send(m api.StreamMsg) bool {
	st.conn.SetWriteDeadline(time.Now().Add(streamWriteLimit))
	return st.enc.Encode(m) == nil
}

// frame renders run id's screen for this subscriber: whole when watched, light when not.
func (st *streamState) frame(id string) (api.Frame, bool) {
	scr, err := st.s.core.Screen(id)
	if err != nil || scr == nil {
		return api.Frame{}, false
	}
	st.sb.mu.Lock()
	watched := st.sb.watched[id]
	st.sb.mu.Unlock()
	if !watched {
		return api.Frame{ID: id, Light: true, Attention: scr.Attention()}, true
	}
	state := scr.State()
	cols, rows := scr.Size()
	return api.Frame{ID: id, Attention: state.Attention, Version: scr.Version(), Cols: cols, Rows: rows,
		Render: scr.Render(), State: &state}, true
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
