package api

import (
	"context"
	"time"

	"corral/runs"
)

// Several hosts: a UI over several servers, each on its own machine with its own
// runs, registry and ownership, calls them through one core (client.Fleet), which
// routes each operation to the server of the run it names. What names no run goes to
// the host the context names (OnHost), else where the operation's Spread says, the
// replies merged as it declares. See ARCHITECTURE.md, "Hosts".

// EventHostState is a core of several hosts' own event: a host's link changed
// (connecting, connected, lost, unreachable, version mismatch). Run.Host names it;
// the core's Hosts says what it is now.
const EventHostState runs.EventType = "host-state"

// HostStatus is where a UI stands with one host's server.
type HostStatus string

const (
	HostConnecting  HostStatus = "connecting"
	HostConnected   HostStatus = "connected"
	HostLost        HostStatus = "reconnecting" // the server went away; a new one is being reached
	HostUnreachable HostStatus = "unreachable"
	HostMismatch    HostStatus = "version mismatch"
)

// HostState is one host as a UI of several sees it.
type HostState struct {
	Name    string     // as configured ([[host]] name, or config.LocalHost)
	Where   string     // how it is reached: "this machine", or "ssh DEST"
	Local   bool       // this machine's server
	Status  HostStatus // the link now
	Since   time.Time  // in this status since
	Err     string     // why it is not connected (the last attempt's error)
	Next    time.Time  // the next attempt (zero while connected or connecting)
	Attempt int        // failed attempts in a row
	Server  int        // the server's pid while connected (0 over ssh: not known)
}

type hostKey struct{}

// OnHost sends the operations called with the returned context to host's server: a
// run started there, its snapshot alone.
func OnHost(ctx context.Context, host string) context.Context {
	return context.WithValue(ctx, hostKey{}, host)
}

// HostOf is the host ctx sends operations to ("" for none: by the run they name).
func HostOf(ctx context.Context) string {
	h, _ := ctx.Value(hostKey{}).(string)
	return h
}

// RunOf is the run reference args carry, if it is an operation on one run (its id,
// "" when the reference is empty: a viewer that looks at no run).
func RunOf(args any) (string, bool) {
	r, ok := args.(interface{ ref() string })
	if !ok {
		return "", false
	}
	return r.ref(), true
}

func (a PollArgs) ref() string   { return a.ID }
func (a LogArgs) ref() string    { return a.ID }
func (a WaitArgs) ref() string   { return a.ID }
func (a ShowArgs) ref() string   { return a.ID }
func (a ScreenArgs) ref() string { return a.ID }
func (a HookArgs) ref() string   { return a.ID }

// Spread is where a core of several hosts sends an operation that names no run and
// no host.
type Spread int

const (
	// SpreadFirst: to the first host alone (a spawn starts one run, never one per
	// host).
	SpreadFirst Spread = iota
	// SpreadListing: to every connected host, the replies merged. A host that has not
	// answered soon after the first is left out, and not asked again while its call
	// is still out, so a host gone silent holds up no listing of the others.
	SpreadListing
	// SpreadAll: to every connected host, each waited for as long as the operation
	// allows (what ends or reconciles every run).
	SpreadAll
)

// hostFacts is what a core of several hosts needs to know of an operation, declared
// with it (verbs*.go) so that the core names no operation and none of its types.
type hostFacts[A, R any] struct {
	spread  Spread
	merge   func(replies []R) R // nil: the first reply (the same from every host)
	viewer  func(a *A) *string  // the viewer args name
	runs    func(r *R) []*runs.Info
	started func(r R) string
	perRun  func(a *A) *[]string
}

// overHosts declares where op goes when it names no run and no host (s), and how the
// hosts' replies become one (merge; nil: the first).
func (op *Op[A, R]) overHosts(s Spread, merge func(replies []R) R) *Op[A, R] {
	op.hosts.spread, op.hosts.merge = s, merge
	return op
}

// viewing declares that op's arguments name an attached UI's viewer token (the field
// field returns), which differs from one host to another.
func (op *Op[A, R]) viewing(field func(a *A) *string) *Op[A, R] {
	op.hosts.viewer = field
	return op
}

// viewing is Op.viewing for a session operation.
func (s *Session[A, R]) viewing(field func(a *A) *string) *Session[A, R] {
	s.Op.viewing(field)
	return s
}

// returning declares that op's reply returns runs: those that of points at.
func (op *Op[A, R]) returning(of func(r *R) []*runs.Info) *Op[A, R] {
	op.hosts.runs = of
	return op
}

// starting declares that op starts a run, whose id its reply says.
func (op *Op[A, R]) starting(id func(r R) string) *Op[A, R] {
	op.hosts.started = id
	return op
}

// perRun declares that op is about several runs at once, named by the field ids
// returns: each host is asked about its own.
func (op *Op[A, R]) perRun(ids func(a *A) *[]string) *Op[A, R] {
	op.hosts.perRun = ids
	return op
}

func (op *Op[A, R]) Spread() Spread { return op.hosts.spread }

func (op *Op[A, R]) Merge(replies []any) any {
	if op.hosts.merge == nil {
		if len(replies) == 0 {
			var r R
			return r
		}
		return replies[0]
	}
	rs := make([]R, len(replies))
	for i, r := range replies {
		rs[i], _ = r.(R)
	}
	return op.hosts.merge(rs)
}

func (op *Op[A, R]) SwapViewer(args any, swap func(viewer string) string) any {
	a, ok := args.(A)
	if !ok || op.hosts.viewer == nil {
		return args
	}
	v := op.hosts.viewer(&a)
	*v = swap(*v)
	return a
}

// EachRun calls f with each run reply returns, and returns reply with what f changed
// (a list of runs is changed in place: a reply is its caller's).
func (op *Op[A, R]) EachRun(reply any, f func(*runs.Info)) any {
	r, ok := reply.(R)
	if !ok || op.hosts.runs == nil {
		return reply
	}
	for _, i := range op.hosts.runs(&r) {
		f(i)
	}
	return r
}

func (op *Op[A, R]) Started(reply any) string {
	r, ok := reply.(R)
	if !ok || op.hosts.started == nil {
		return ""
	}
	return op.hosts.started(r)
}

func (op *Op[A, R]) PerRun(args any) ([]string, func(ids []string) any, bool) {
	a, ok := args.(A)
	if !ok || op.hosts.perRun == nil {
		return nil, nil, false
	}
	part := func(ids []string) any {
		b := a
		*op.hosts.perRun(&b) = ids
		return b
	}
	return *op.hosts.perRun(&a), part, true
}

// each points at every run of l.
func each[L ~[]runs.Info](l L) []*runs.Info {
	out := make([]*runs.Info, len(l))
	for i := range l {
		out[i] = &l[i]
	}
	return out
}

// joined merges replies by appending their lists (the one list returns), in the
// order of the hosts.
func joined[R any, L ~[]E, E any](list func(r *R) *L) func(replies []R) R {
	return func(replies []R) R {
		var out R
		for i := range replies {
			*list(&out) = append(*list(&out), *list(&replies[i])...)
		}
		return out
	}
}

// The merges that are not a list's.
func sumMetrics(replies []runs.Metrics) runs.Metrics {
	out := runs.Metrics{ExitTotal: map[string]int64{}, TimeoutTotal: map[string]int64{}, CleanupKillTotal: map[string]int64{}}
	for _, r := range replies {
		out.Add(r)
	}
	return out
}

func sumEnded(replies []ShutdownReply) ShutdownReply {
	var out ShutdownReply
	for _, r := range replies {
		out.Ended += r.Ended
	}
	return out
}

func unionTrees(replies []TreeMap) TreeMap {
	out := TreeMap{}
	for _, r := range replies {
		for id, t := range r {
			out[id] = t
		}
	}
	return out
}
