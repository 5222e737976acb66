package api

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"corral/runs"
)

// Op is one operation on a supervisor, declared once (verbs.go): its name on the wire,
// its argument and reply types, which connection carries it, and its handler. The
// server dispatches a request by name to the handler; a client calls it with Call,
// through whatever Caller it has (the supervisor in process, or a server's socket),
// and gets the reply typed. Adding an operation is one declaration; nothing else
// names it.
type Op[A, R any] struct {
	name   string
	lane   Lane
	do     func(ctx context.Context, c Core, a A) (R, error)
	budget func(a A) time.Duration // nil: the lane's default (Budget)
	hosts  hostFacts[A, R]         // what a core of several hosts needs to know (hosts.go)
}

// Lane is the connection an operation travels on when the core is a server's: input
// (keys, pastes, resizes) never waits behind a slow call such as a process tree or a
// blocking wait.
type Lane int

const (
	LaneMain  Lane = iota // every operation but input
	LaneInput             // input to runs (keys, pastes, resizes) and what a viewer looks at
)

// Operation is an Op without its types, as a Caller and the server's dispatch see it.
type Operation interface {
	Name() string
	Lane() Lane
	// Serve decodes args from JSON, runs the handler on c and returns the reply.
	Serve(ctx context.Context, c Core, args json.RawMessage) (any, error)
	// Apply runs the handler on c with args, which must be the op's argument type.
	Apply(ctx context.Context, c Core, args any) (any, error)
	// DecodeReply turns a reply's JSON into the op's reply type.
	DecodeReply(raw json.RawMessage) (any, error)
	// Zero is a zero argument and reply, for tests that walk the protocol's types.
	Zero() (args, reply any)
	// Budget is how long a client waits for the reply to args (0: for as long as it
	// takes, the server watched meanwhile; see client.Client.Call).
	Budget(args any) time.Duration

	// What a core of several hosts (client.Fleet) needs to know of the operation,
	// declared with it (hosts.go): nothing there names an operation or its types.
	//
	// Spread is where the operation goes when it names no run and no host.
	Spread() Spread
	// Merge folds the replies of several hosts into one.
	Merge(replies []any) any
	// SwapViewer is args with the viewer they name (an attached UI's token) replaced
	// by swap's answer; args as they are when the operation names no viewer.
	SwapViewer(args any, swap func(viewer string) string) any
	// EachRun calls f with each run reply returns (none: its reply returns no run),
	// and returns reply with what f changed.
	EachRun(reply any, f func(*runs.Info)) any
	// Started is the id of the run reply says the operation started ("" for none).
	Started(reply any) string
	// PerRun is, for an operation on several runs at once, the runs args name, and
	// args for a part of them (ok false: it is not one).
	PerRun(args any) (ids []string, part func(ids []string) any, ok bool)
}

// Budgets: how long a client waits for a reply when the operation says nothing else,
// and the margin an operation that blocks by design (wait, poll --wait, submit) gets
// beyond its own timeout, so that no client waits for ever on a stopped server.
const (
	DefaultBudget = 30 * time.Second
	InputBudget   = 10 * time.Second // keys and pastes: a queue write
	HelloBudget   = 5 * time.Second  // the first exchange, right after connecting
	BudgetMargin  = 30 * time.Second
)

// Caller carries operations to a core and brings their replies back: ui's in-process
// core applies them to its supervisor, a client sends them to a server.
type Caller interface {
	Invoke(ctx context.Context, op Operation, args any) (any, error)
}

// ops are the declared operations by name.
var ops = map[string]Operation{}

// declare declares an operation that a supervisor's Core answers. Two declarations of
// one name are a bug found at start-up.
func declare[A, R any](name string, lane Lane, do func(ctx context.Context, c Core, a A) (R, error)) *Op[A, R] {
	if _, dup := ops[name]; dup {
		panic("api: operation " + name + " declared twice")
	}
	op := &Op[A, R]{name: name, lane: lane, do: do}
	ops[name] = op
	return op
}

// Lookup returns the operation a request names.
func Lookup(name string) (Operation, bool) {
	op, ok := ops[name]
	return op, ok
}

// Names lists every declared operation, sorted.
func Names() []string {
	names := make([]string, 0, len(ops))
	for n := range ops {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (op *Op[A, R]) Name() string { return op.name }
func (op *Op[A, R]) Lane() Lane   { return op.lane }

// within gives op a budget computed from its arguments (a blocking operation's own
// timeout plus BudgetMargin).
func (op *Op[A, R]) within(f func(A) time.Duration) *Op[A, R] {
	op.budget = f
	return op
}

// Budget is how long a client waits for op's reply to args.
func (op *Op[A, R]) Budget(args any) time.Duration {
	if op.budget != nil {
		a, _ := args.(A)
		return op.budget(a)
	}
	if op.lane == LaneInput {
		return InputBudget
	}
	return DefaultBudget
}

// fixed is a budget that does not depend on the arguments.
func fixed[A any](d time.Duration) func(A) time.Duration {
	return func(A) time.Duration { return d }
}

// blocking is the budget of an operation that blocks up to its own timeout by design:
// that plus BudgetMargin, or none (0) for one that waits as long as it takes.
func blocking(timeoutMS int64) time.Duration {
	if timeoutMS <= 0 {
		return 0
	}
	return time.Duration(timeoutMS)*time.Millisecond + BudgetMargin
}

// Call invokes op through c with a and returns its reply.
func (op *Op[A, R]) Call(ctx context.Context, c Caller, a A) (R, error) {
	v, err := c.Invoke(ctx, op, a)
	r, _ := v.(R)
	return r, err
}

func (op *Op[A, R]) Serve(ctx context.Context, c Core, raw json.RawMessage) (any, error) {
	a, err := op.DecodeArgs(raw)
	if err != nil {
		return nil, err
	}
	return op.do(ctx, c, a)
}

// DecodeArgs reads the op's arguments from a request; none is the zero value.
func (op *Op[A, R]) DecodeArgs(raw json.RawMessage) (A, error) {
	var a A
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &a); err != nil {
			return a, errorf(CodeBadRequest, "bad arguments: %v", err)
		}
	}
	return a, nil
}

func (op *Op[A, R]) Apply(ctx context.Context, c Core, args any) (any, error) {
	a, ok := args.(A)
	if !ok && args != nil {
		return nil, fmt.Errorf("api: %s takes %T, not %T", op.name, a, args)
	}
	return op.do(ctx, c, a)
}

func (op *Op[A, R]) Zero() (any, any) {
	var a A
	var r R
	return a, r
}

func (op *Op[A, R]) DecodeReply(raw json.RawMessage) (any, error) {
	var r R
	if len(raw) == 0 {
		return r, nil
	}
	err := json.Unmarshal(raw, &r)
	return r, err
}

// Session is an operation a server answers itself, about the conversation rather
// than the runs (hello, subscribe, watch): no Core answers it, so it has no handler
// here and a Caller in process cannot apply it.
type Session[A, R any] struct{ Op[A, R] }

func session[A, R any](name string) *Session[A, R] {
	op := declare(name, LaneMain, func(context.Context, Core, A) (R, error) {
		var r R
		return r, errorf(CodeUnknown, "%s is answered by a server, not by a supervisor in process", name)
	})
	s := &Session[A, R]{*op}
	ops[name] = s
	return s
}

// within is Op.within for a session operation.
func (s *Session[A, R]) within(f func(A) time.Duration) *Session[A, R] {
	s.budget = f
	return s
}
