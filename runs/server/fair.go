package server

import (
	"encoding/json"
	"fmt"
	"net"
	"time"

	"corral/runs/api"
)

// A server full of connections must still answer the verbs that end things: any
// process of the user (a run can) may open connections, greet and sit idle. So when
// Limits.Conns are taken, a new connection takes the slot of an idle one, chosen from
// the peer (process) holding the most, oldest first — a connection that has not
// greeted or finished its request within greetGrace before one idle between
// requests, and from a peer over its fair share even a busy one; and when none is
// idle, it is served from Limits.Reserve for the control verbs only. Only a server whose every connection is
// busy turns one away, saying so with the count.

// connState is where a connection is in its conversation.
type connState uint8

const (
	connNew     connState = iota // accepted, its first request not begun
	connIdle                     // between requests
	connReading                  // a request begun, not yet read whole
	connBusy                     // a request being answered
	connStream                   // a subscribed stream (an attached UI)
)

// connInfo is what the server knows of a connection it serves.
type connInfo struct {
	pid     int // the peer's process (SO_PEERCRED); 0 if not known
	state   connState
	since   time.Time // when it entered state
	reserve bool      // served from Limits.Reserve: control verbs only
}

// greetGrace is how long a new connection may take to greet before a full server
// counts it as one that never will: a client says hello as soon as it connects, and
// one that just did must not be the first to make room for the next.
var greetGrace = time.Second

// minShare is the fewest connections a peer keeps, however many peers there are: an
// attached UI holds three.
const minShare = 8

// reserveVerbs are what a connection served from the reserve may ask: enough to see
// the runs and end them.
var reserveVerbs = map[string]bool{
	api.Hello.Name(): true, api.List.Name(): true, api.Info.Name(): true,
	api.Kill.Name(): true, api.Stop.Name(): true, api.Interrupt.Name(): true,
	api.Shutdown.Name(): true,
}

// admit makes room for a new connection of peer pid, s.mu held: it reports whether
// the connection is served from the reserve, the idle connection it displaced (nil if
// none), or why it is refused.
func (s *Server) admit(pid int) (reserve bool, evicted net.Conn, err error) {
	lim := s.opt.Limits
	if len(s.conns)-s.reserved < lim.Conns {
		return false, nil, nil
	}
	if v := s.victim(pid); v != nil {
		return false, v, nil
	}
	if s.reserved < lim.Reserve {
		return true, nil, nil
	}
	return false, nil, fmt.Errorf("%w: busy, it serves %d connections (%d of them reserved for control verbs), none of them idle: try again",
		errFull, len(s.conns), s.reserved)
}

// victim is the idle connection to close for a newcomer of peer pid, s.mu held: from
// the peer holding the most connections, one that has not greeted within greetGrace
// first, then the one idle longest (a connection just made counts from its making). A
// stream (an attached UI) or a busy connection is taken only from a peer over its fair
// share, after its idle ones. Nil: none is idle.
func (s *Server) victim(pid int) net.Conn {
	held := map[int]int{pid: 1}
	for _, ci := range s.conns {
		held[ci.pid]++
	}
	share := max(minShare, s.opt.Limits.Conns/len(held))
	now := time.Now()
	// Silent: not greeted, or a request begun and not finished, within greetGrace (a
	// client writes its request at once; one held in the middle by many peers, each
	// within its share, would otherwise keep every slot and the reserve until
	// Limits.Slow, and again after).
	silent := func(ci *connInfo) bool {
		return (ci.state == connNew || ci.state == connReading) && now.Sub(ci.since) >= greetGrace
	}
	idle := func(ci *connInfo) bool { return ci.state == connNew || ci.state == connIdle || silent(ci) }
	var best net.Conn
	var bi *connInfo
	better := func(ci *connInfo) bool {
		if bi == nil {
			return true
		}
		if held[ci.pid] != held[bi.pid] {
			return held[ci.pid] > held[bi.pid]
		}
		if idle(ci) != idle(bi) {
			return idle(ci)
		}
		if silent(ci) != silent(bi) {
			return silent(ci)
		}
		return ci.since.Before(bi.since)
	}
	for c, ci := range s.conns {
		switch {
		case idle(ci):
		case held[ci.pid] > share:
			// A stream, or a request that peer keeps in the middle (one it never
			// finishes is cut only after Limits.Slow, and opened again at once): with
			// the slots and the reserve all held so, no control verb would be served.
		default:
			continue
		}
		if better(ci) {
			best, bi = c, ci
		}
	}
	return best
}

// mark records c's state.
func (s *Server) mark(c net.Conn, st connState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ci := s.conns[c]; ci != nil {
		ci.state, ci.since = st, time.Now()
	}
}

// fromReserve reports whether c is served from the reserve, and so may ask only the
// control verbs.
func (s *Server) fromReserve(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ci := s.conns[c]
	return ci != nil && ci.reserve
}

// reserveRefuses is why a connection served from the reserve may not ask line's verb
// (nil: it may).
func reserveRefuses(line []byte, conns int) *api.Error {
	var req struct{ Verb string }
	if json.Unmarshal(line, &req) == nil && reserveVerbs[req.Verb] {
		return nil
	}
	return api.Errorf(api.CodeBusy, "the server is busy: all %d connections are taken and this one, from the reserve, may only list and end runs (%q): try again",
		conns, req.Verb)
}
