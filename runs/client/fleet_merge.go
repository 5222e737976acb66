package client

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"corral/runs"
	"corral/runs/api"
)

// How a Fleet answers an operation that names no run and no host: where the
// operation's Spread says (api.Spread, declared with it), the replies merged into one
// of its type (Operation.Merge). What comes back carries each run's host (Info.Host).

// fanOut calls op on every connected host and merges the replies; it fails only when
// every host failed (or none is connected). A listing takes the hosts that answered
// within fleetPatience of the first: a host slower than that (gone silent, its ssh
// not yet given up) is left out, and not asked again until it has answered, so the
// others' rows are not held up by it. What goes to every host alike (ending every
// run, reconciling) waits for each as long as the operation allows. An operation on
// several runs asks each host about its own (perRun); one that goes to the first host
// (a spawn with no host named) goes there alone, never to every host.
func (f *Fleet) fanOut(ctx context.Context, op api.Operation, args any) (any, error) {
	if ids, part, ok := op.PerRun(args); ok {
		return f.perRun(ctx, op, ids, part)
	}
	listing, bound, patience := op.Name(), fleetFanOut, f.patience
	switch op.Spread() {
	case api.SpreadFirst:
		return f.invoke(ctx, f.members[0], op, args)
	case api.SpreadAll:
		listing, bound, patience = "", 0, 0
	}
	answers := f.ask(ctx, listing, bound, patience, func(ctx context.Context, m *member) (any, error) {
		return f.invoke(ctx, m, op, args)
	})
	var reps []any
	var errs []error
	for _, a := range answers {
		if a.err != nil {
			errs = append(errs, fmt.Errorf("host %s: %w", a.m.host.Name, a.err))
			continue
		}
		reps = append(reps, a.rep)
	}
	if len(reps) == 0 {
		if len(errs) == 0 {
			return nil, fmt.Errorf("%s: no host is connected", op.Name())
		}
		return nil, errors.Join(errs...)
	}
	return op.Merge(reps), nil
}

// perRun asks each host about its own runs of ids (part: op's arguments for some of
// them), as a listing, and merges the replies; it fails only when every host asked
// failed. A run no host is found for is gone: nothing of it comes back.
func (f *Fleet) perRun(ctx context.Context, op api.Operation, ids []string, part func([]string) any) (any, error) {
	by := map[*member][]string{}
	for _, id := range ids {
		m, err := f.owner(id)
		if err != nil {
			continue // gone meanwhile
		}
		by[m] = append(by[m], id)
	}
	var reps []any
	var errs []error
	answers := f.ask(ctx, op.Name(), fleetFanOut, f.patience, func(ctx context.Context, m *member) (any, error) {
		if ids := by[m]; len(ids) > 0 {
			return m.invoke(ctx, op, part(ids))
		}
		return nil, nil // none of its runs: nothing to ask
	})
	for _, a := range answers {
		switch {
		case a.err != nil:
			errs = append(errs, fmt.Errorf("host %s: %w", a.m.host.Name, a.err))
		case len(by[a.m]) > 0:
			reps = append(reps, a.rep)
		}
	}
	if len(reps) == 0 && len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return op.Merge(reps), nil
}

// answer is one host's reply to an operation every host is asked.
type answer struct {
	m   *member
	rep any
	err error
}

// ask calls call on every connected host at once, each within bound (0: the caller's
// context alone), and returns their answers: every one, or, with patience, those in
// by patience after the first. With a listing's name, a host whose last call of it
// is still out is not asked again until that call has returned ("": always asked).
func (f *Fleet) ask(ctx context.Context, listing string, bound, patience time.Duration, call func(ctx context.Context, m *member) (any, error)) []answer {
	ch := make(chan answer, len(f.members)) // a late answer is dropped, never blocks
	asked := 0
	for _, m := range f.members {
		if m.remote() == nil || listing != "" && !m.send(listing) {
			continue
		}
		asked++
		go func() {
			c, cancel := ctx, context.CancelFunc(func() {})
			if bound > 0 {
				c, cancel = context.WithTimeout(ctx, bound)
			}
			rep, err := call(c, m)
			cancel()
			if listing != "" {
				m.back(listing) // before the answer: a listing asked next must find it back
			}
			ch <- answer{m, rep, err}
		}()
	}
	var out []answer
	var late <-chan time.Time
	for len(out) < asked {
		select {
		case a := <-ch:
			out = append(out, a)
			if patience > 0 && late == nil {
				late = time.After(patience)
			}
		case <-late:
			return out
		}
	}
	return out
}

// withViewer puts the UI's token on this host (tok) in place of the Fleet's stand-in
// in args that name a viewer (as op declares).
func withViewer(op api.Operation, args any, tok string) any {
	return op.SwapViewer(args, func(v string) string { return viewerOn(v, tok) })
}

func viewerOn(v, tok string) string {
	if v == fleetViewer {
		return tok
	}
	return v
}

// stampReply sets the host on the runs a reply returns (as op declares).
func stampReply(op api.Operation, rep any, host string) any {
	return op.EachRun(rep, func(i *runs.Info) { i.Host = host })
}

func stamped(is []runs.Info, host string) []runs.Info {
	out := slices.Clone(is)
	for i := range out {
		out[i].Host = host
	}
	return out
}

func stampedEvents(es []runs.Event, host string) []runs.Event {
	out := slices.Clone(es)
	for i := range out {
		out[i].Run.Host = host
	}
	return out
}

// sortEvents orders several hosts' events by time, each host's in its own order.
func sortEvents(es []runs.Event) {
	slices.SortStableFunc(es, func(a, b runs.Event) int { return a.Time.Compare(b.Time) })
}
