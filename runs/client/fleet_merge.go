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

// How a Fleet answers an operation that names no run and no host: every connected
// host answers, and the replies are merged into one of the operation's type. What
// comes back carries each run's host (Info.Host).

// fanOut calls op on every connected host and merges the replies; it fails only when
// every host failed (or none is connected). A listing takes the hosts that answered
// within fleetPatience of the first: a host slower than that (gone silent, its ssh
// not yet given up) is left out, and not asked again until it has answered, so the
// others' rows are not held up by it. Ending every run (shutdown) and reconciling
// wait for every host as long as the operation allows.
func (f *Fleet) fanOut(ctx context.Context, op api.Operation, args any) (any, error) {
	if t, ok := args.(api.TreesArgs); ok {
		return f.trees(ctx, op, t)
	}
	if !merged[op.Name()] { // a spawn with no host named: the first host's, never every host's
		return f.invoke(ctx, f.members[0], op, args)
	}
	listing, bound, patience := op.Name(), fleetFanOut, f.patience
	if op == api.Operation(api.Shutdown) || op == api.Operation(api.Reconcile) {
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
	return merge(reps), nil
}

// merged are the operations every host answers when they name no run and no host;
// any other goes to the first host (a spawn: this machine's when it is among them).
var merged = map[string]bool{
	api.Snapshot.Name(): true, api.List.Name(): true, api.Metrics.Name(): true,
	api.Reconcile.Name(): true, api.Shutdown.Name(): true, api.Show.Name(): true,
}

// trees asks each host for the trees of its own runs.
func (f *Fleet) trees(ctx context.Context, op api.Operation, a api.TreesArgs) (any, error) {
	by := map[*member][]string{}
	for _, id := range a.IDs {
		m, err := f.owner(id)
		if err != nil {
			continue // gone meanwhile: its tree is empty
		}
		by[m] = append(by[m], id)
	}
	out := api.TreeMap{}
	var errs []error
	answers := f.ask(ctx, op.Name(), fleetFanOut, f.patience, func(ctx context.Context, m *member) (any, error) {
		if ids := by[m]; len(ids) > 0 {
			return m.invoke(ctx, op, api.TreesArgs{IDs: ids})
		}
		return api.TreeMap{}, nil
	})
	for _, a := range answers {
		if a.err != nil {
			errs = append(errs, fmt.Errorf("host %s: %w", a.m.host.Name, a.err))
			continue
		}
		for id, t := range a.rep.(api.TreeMap) {
			out[id] = t
		}
	}
	if len(out) == 0 && len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
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

// merge folds several hosts' replies to one operation into one.
func merge(reps []any) any {
	switch first := reps[0].(type) {
	case api.SnapshotReply:
		var out api.SnapshotReply
		for _, r := range reps {
			out.Runs = append(out.Runs, r.(api.SnapshotReply).Runs...)
		}
		return out
	case api.ListReply:
		var out api.ListReply
		for _, r := range reps {
			out.Runs = append(out.Runs, r.(api.ListReply).Runs...)
		}
		return out
	case runs.Metrics:
		out := runs.Metrics{ExitTotal: map[string]int64{}, TimeoutTotal: map[string]int64{}, CleanupKillTotal: map[string]int64{}}
		for _, r := range reps {
			out.Add(r.(runs.Metrics))
		}
		return out
	case []runs.Decision:
		var out []runs.Decision
		for _, r := range reps {
			out = append(out, r.([]runs.Decision)...)
		}
		return out
	case api.ShutdownReply:
		var out api.ShutdownReply
		for _, r := range reps {
			out.Ended += r.(api.ShutdownReply).Ended
		}
		return out
	default:
		return first // the same from every host (a viewer that looks at no run)
	}
}

// withViewer puts the UI's token on this host (tok) in place of the Fleet's stand-in
// in args that name a viewer.
func withViewer(args any, tok string) any {
	switch a := args.(type) {
	case api.SnapshotArgs:
		a.Viewer = viewerOn(a.Viewer, tok)
		return a
	case api.ShowArgs:
		a.Viewer = viewerOn(a.Viewer, tok)
		return a
	case api.WriteArgs:
		a.Viewer = viewerOn(a.Viewer, tok)
		return a
	case api.ResizeArgs:
		a.Viewer = viewerOn(a.Viewer, tok)
		return a
	case api.InputArgs:
		a.Viewer = viewerOn(a.Viewer, tok)
		return a
	case api.FocusArgs:
		a.Viewer = viewerOn(a.Viewer, tok)
		return a
	case api.WatchArgs: // one host's watch (api.OnHost), by the Fleet's token
		a.Token = viewerOn(a.Token, tok)
		return a
	}
	return args
}

func viewerOn(v, tok string) string {
	if v == fleetViewer {
		return tok
	}
	return v
}

// stampReply sets the host on the runs a reply carries.
func stampReply(rep any, host string) any {
	switch r := rep.(type) {
	case api.SnapshotReply:
		r.Runs = stamped(r.Runs, host)
		return r
	case api.ListReply:
		r.Runs = stamped(r.Runs, host)
		return r
	case api.InfoReply:
		r.Run.Host = host
		return r
	case api.PollReply:
		r.Run.Host = host
		return r
	case api.WaitReply:
		r.Run.Host = host
		return r
	case api.ExplainReply:
		r.Run.Host = host
		return r
	}
	return rep
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
