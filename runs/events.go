package runs

import (
	"sync"
	"time"
)

// EventType names what happened to a run.
type EventType string

const (
	EventSpawn    EventType = "spawn"       // accepted, now starting
	EventState    EventType = "state"       // moved to Info.State
	EventCancel   EventType = "cancel"      // a stop was requested (Detail: the reason)
	EventPause    EventType = "pause"       // paused or resumed (Info.Paused)
	EventCleanup  EventType = "cleanup"     // the session was terminated and verified (Info.Cleanup)
	EventExit     EventType = "exit"        // exited; Info holds the result
	EventOutput   EventType = "output"      // new output; coalesced per run, may be skipped
	EventWatchdog EventType = "watchdog"    // a deadline entered its warning window
	EventEscape   EventType = "escape"      // a process left the run's session (Info.Escapees)
	EventAgent    EventType = "agent-state" // the agent's state or its rule changed (Info.AgentState)
	EventNotify   EventType = "notify"      // the agent needs a user who is not looking (Detail: the text)
	EventShared   EventType = "shared"      // processes passed to (or from) the run that uses them (Detail: which)
	EventSession  EventType = "session"     // the agent's conversation id was learnt (Info.SessionID; Detail: how)
	EventDiff     EventType = "diff"        // a worktree run's changes were counted again (Info.Diff)
	EventRemoved  EventType = "removed"     // the ended run was forgotten: watchers drop it (its last event)
	EventWorktree EventType = "worktree"    // its worktree was finished (Info.Finished; Detail: what was done)
	// A service's: an attempt ended and another follows (Info.Service; Detail: when and
	// why), its readiness probe passed or failed after passing, a probe check failed.
	EventRestart     EventType = "restart"
	EventReady       EventType = "ready"
	EventUnready     EventType = "unready"
	EventProbeFailed EventType = "probe-failed"
)

// Details a consumer tells events apart by; every other Detail is for display only.
const (
	DetailAdopted = "adopted" // EventSpawn of a run adopted from a dead instance (Info.Adopted)
	DetailResize  = "resize"  // EventState that changed only Info.Cols and Info.Rows
)

// Event is one thing that happened to a run, with the run's state just after it.
type Event struct {
	Type   EventType `json:"type"`
	Time   time.Time `json:"time"`
	Run    Info      `json:"run"`
	Detail string    `json:"detail,omitempty"`
}

// DetailEcho is the Detail of an EventOutput that answers input: one of the first
// reads after a write to the run (its echo; echoReads). A pacer draws it at once
// (pacer.Echo).
const DetailEcho = "echo"

// lossy events may be coalesced: the receiver asks for the latest state anyway.
func (e Event) lossy() bool { return e.Type == EventOutput || e.Type == EventWatchdog }

// Subscription receives a supervisor's events on C until Close. Lifecycle events are
// never dropped; output events are coalesced so that at most one per run is pending.
type Subscription struct {
	C <-chan Event

	hub     *hub
	c       chan Event
	mu      sync.Mutex
	queue   []Event
	pending map[pendingKey]bool // lossy events queued, by type and run
	wake    chan struct{}       // capacity 1: "queue changed"
	done    chan struct{}
	once    sync.Once
}

// Close stops delivery. C is closed once the pump has stopped.
func (s *Subscription) Close() {
	s.once.Do(func() {
		s.hub.remove(s)
		close(s.done)
	})
}

// push never blocks: it appends (or coalesces) and pokes the pump.
func (s *Subscription) push(e Event) {
	s.mu.Lock()
	key := pendingKey{e.Type, e.Run.ID} // a struct, not a joined string: no allocation per read
	if e.lossy() && s.pending[key] {
		if e.Detail == DetailEcho { // the event queued carries it: an echo all the same
			for i := len(s.queue) - 1; i >= 0; i-- {
				if q := &s.queue[i]; q.Type == e.Type && q.Run.ID == e.Run.ID {
					q.Detail = DetailEcho
					break
				}
			}
		}
		s.mu.Unlock()
		return
	}
	if e.lossy() {
		s.pending[key] = true
	}
	s.queue = append(s.queue, e)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// pendingKey names a queued lossy event: its type and run.
type pendingKey struct {
	typ EventType
	run string
}

// next takes the oldest queued event.
func (s *Subscription) next() (Event, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 {
		return Event{}, false
	}
	e := s.queue[0]
	s.queue[0] = Event{}
	s.queue = s.queue[1:]
	if e.lossy() {
		delete(s.pending, pendingKey{e.Type, e.Run.ID})
	}
	return e, true
}

// pump moves queued events to C, one goroutine per subscription, so a slow reader
// delays only itself.
func (s *Subscription) pump() {
	defer close(s.c)
	for {
		e, ok := s.next()
		if !ok {
			select {
			case <-s.wake:
				continue
			case <-s.done:
				return
			}
		}
		select {
		case s.c <- e:
		case <-s.done:
			return
		}
	}
}

// hub fans events out to subscriptions.
type hub struct {
	mu   sync.Mutex
	subs map[*Subscription]struct{}
}

// addLocked registers a subscription; the caller holds h.mu, so no event can be
// published between its snapshot and the registration.
func (h *hub) addLocked() *Subscription {
	c := make(chan Event)
	s := &Subscription{C: c, c: c, hub: h, pending: map[pendingKey]bool{},
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	if h.subs == nil {
		h.subs = map[*Subscription]struct{}{}
	}
	h.subs[s] = struct{}{}
	go s.pump()
	return s
}

func (h *hub) remove(s *Subscription) {
	h.mu.Lock()
	delete(h.subs, s)
	h.mu.Unlock()
}

func (h *hub) publish(e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		s.push(e)
	}
}
