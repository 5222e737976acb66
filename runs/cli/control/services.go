package control

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"corral/runs"
	"corral/runs/api"
	"corral/runs/cli/listing"
	"corral/runs/client"
)

// Services are a config's runs as corral up, down and graph see them: the runs to
// start, dependencies first, and what corral up --wait waits for in each (by name):
// what its dependents need of it, else that it started.
type Services struct {
	Specs []runs.Spec
	Needs map[string]runs.Condition
}

// need is what up --wait waits for in the run name.
func (sv Services) need(name string) runs.Condition {
	if c := sv.Needs[name]; c != "" {
		return c
	}
	return runs.CondStarted
}

// liveOf is the live run of the server that is spec (same name and command), if any.
func liveOf(spec runs.Spec, live []runs.Info) (runs.Info, bool) {
	k := slices.IndexFunc(live, func(i runs.Info) bool {
		return !i.Ended() && i.Name == spec.DisplayName() && i.Spec.Shell == spec.Shell &&
			slices.Equal(i.Spec.Argv, spec.Argv) && i.Spec.PTY == spec.PTY
	})
	if k < 0 {
		return runs.Info{}, false
	}
	return live[k], true
}

// Up starts the services in the state dir's server (started if needed) without a
// UI, each unless the server runs it already, and returns once each is started or
// waiting for its dependencies; with wait, once each has met what up waits for
// (started, ready, succeeded), or with 1 when one never can, 124 when timeout passed.
func Up(sv Services, w Where, wait bool, timeout time.Duration, env Env) int {
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	c, code := connect(ctx, "up", w, env, true, nil)
	if c == nil {
		return code
	}
	defer c.Close()
	l, ok := call(ctx, api.List, c, struct{}{}, env)
	if !ok {
		return ExitFailure
	}
	ids, code := upSpawn(ctx, c, sv.Specs, l.Runs, env)
	if !wait || code != ExitOK {
		return code
	}
	for k, spec := range sv.Specs {
		if code := upWait(ctx, c, ids[k], spec.DisplayName(), sv.need(spec.DisplayName()), env); code != ExitOK {
			return code
		}
	}
	return ExitOK
}

// upSpawn starts each spec the server does not run yet and says what each is now.
func upSpawn(ctx context.Context, c *client.Client, specs []runs.Spec, live []runs.Info, env Env) ([]string, int) {
	ids := make([]string, len(specs))
	code := ExitOK
	for k, spec := range specs {
		if i, ok := liveOf(spec, live); ok {
			ids[k] = i.ID
			fmt.Fprintf(env.Stdout, "%s\t%s\talready %s\n", i.Name, i.ID, upState(i))
			continue
		}
		rep, ok := call(ctx, api.Spawn, c, api.Here(spec), env)
		if !ok {
			return ids, ExitFailure
		}
		ids[k] = rep.ID
		if rep.SpawnErr != "" {
			fmt.Fprintf(env.Stderr, "corral up: %s (%s) ended at once: spawn-error: %s\n", spec.DisplayName(), rep.ID, rep.SpawnErr)
			code = ExitFailure
			continue
		}
		in, err := api.Info.Call(ctx, c, api.RunRef{ID: rep.ID})
		state := "started"
		if err == nil {
			state = upState(in.Run.Info)
		}
		fmt.Fprintf(env.Stdout, "%s\t%s\t%s\n", spec.DisplayName(), rep.ID, state)
	}
	return ids, code
}

// upState is a run's state in up's and graph's words.
func upState(i runs.Info) string {
	switch {
	case i.Waiting():
		names := make([]string, len(i.WaitingFor))
		for k, d := range i.WaitingFor {
			names[k] = d.String()
		}
		return "waiting for " + strings.Join(names, ", ")
	case i.Ended():
		s := "ended: " + i.Reason.String()
		if i.DependencyErr != "" {
			s += " (" + i.DependencyErr + ")"
		} else if i.ExitCode != nil {
			s += fmt.Sprintf(" (exit %d)", *i.ExitCode)
		}
		return s
	}
	if s := listing.ServiceState(i.State, i.Service, time.Now()); s != "" {
		return s
	}
	return i.State.String()
}

// notYet says a condition has not held yet: "is not ready", "has not succeeded".
func notYet(cond runs.Condition) string {
	if cond == runs.CondReady {
		return "is not ready"
	}
	return "has not " + string(cond)
}

// upWait waits until the run id meets cond.
func upWait(ctx context.Context, c *client.Client, id, name string, cond runs.Condition, env Env) int {
	args, callCtx := api.WaitArgs{ID: id, Condition: cond}, ctx
	if dl, ok := ctx.Deadline(); ok {
		// The server times the wait out, so the connection stays whole to ask where
		// the run stands (a call cut short by its context leaves it broken).
		args.TimeoutMS = max(time.Until(dl).Milliseconds(), 1)
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(context.WithoutCancel(ctx), time.Until(dl)+5*time.Second)
		defer cancel()
	}
	w, err := api.Wait.Call(callCtx, c, args)
	switch {
	case isCode(err, api.CodeTimeout) || ctx.Err() != nil:
		now := "" // where it stands, and so what holds it up
		if in, err := api.Info.Call(callCtx, c, api.RunRef{ID: id}); err == nil {
			now = " (now " + upState(in.Run.Info) + ")"
		}
		fmt.Fprintf(env.Stderr, "corral up: %s %s in time%s\n", name, notYet(cond), now)
		return ExitTimeout
	case err != nil:
		fmt.Fprintf(env.Stderr, "corral up: %s: %v\n", name, err)
		return ExitFailure
	case !w.Reached:
		fmt.Fprintf(env.Stderr, "corral up: %s can never meet %q: %s\n", name, cond, runs.Summary(w.Run))
		return ExitFailure
	}
	fmt.Fprintf(env.Stdout, "%s\t%s\t%s\n", name, id, cond)
	return ExitOK
}

// Down ends the services' live runs in the server, dependents first (each ended and
// verified before what it depends on is asked to end), as compose tools stop them.
// The ended runs stay listed, with their reasons. No server: nothing to end.
func Down(sv Services, w Where, env Env) int {
	ctx := context.Background()
	none := func() int {
		fmt.Fprintln(env.Stderr, "corral down: no server is running for this state dir; nothing to end")
		return ExitOK
	}
	c, code := connect(ctx, "down", w, env, false, none)
	if c == nil {
		return code
	}
	defer c.Close()
	l, ok := call(ctx, api.List, c, struct{}{}, env)
	if !ok {
		return ExitFailure
	}
	code = ExitOK
	for _, spec := range slices.Backward(sv.Specs) {
		for _, i := range l.Runs {
			if i.Ended() || i.Name != spec.DisplayName() {
				continue
			}
			if _, err := api.Kill.Call(ctx, c, api.RunRef{ID: i.ID}); err != nil {
				fmt.Fprintf(env.Stderr, "corral down: %s: %v\n", i.Name, err)
				code = ExitFailure
				continue
			}
			wr, err := api.Wait.Call(ctx, c, api.WaitArgs{ID: i.ID})
			if err != nil {
				fmt.Fprintf(env.Stderr, "corral down: %s: %v\n", i.Name, err)
				code = ExitFailure
				continue
			}
			fmt.Fprintf(env.Stdout, "%s\t%s\n", i.ID, runs.Summary(wr.Run))
		}
	}
	return code
}

// Graph writes the services' dependency graph as text, one run a line in start
// order with what it waits for; with a server running, each run's state in it.
func Graph(sv Services, w Where, env Env) int {
	var live []runs.Info
	if dir, err := env.StateDir(w.StateDir); err == nil {
		if c, err := client.Dial(dir); err == nil {
			if l, err := api.List.Call(context.Background(), c, struct{}{}); err == nil {
				live = l.Runs
			}
			c.Close()
		}
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	for _, spec := range sv.Specs {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", spec.DisplayName(), needsText(spec), graphState(spec, live))
	}
	tw.Flush()
	return ExitOK
}

// needsText is "← db (ready), migrate (succeeded)", and what a loss does.
func needsText(spec runs.Spec) string {
	if len(spec.DependsOn) == 0 {
		return "·"
	}
	parts := make([]string, len(spec.DependsOn))
	for k, d := range spec.DependsOn {
		parts[k] = d.String()
	}
	s := "← " + strings.Join(parts, ", ")
	if spec.OnDependencyLost != "" {
		s += "; on loss: " + spec.OnDependencyLost
	}
	return s
}

// graphState is the newest run of spec's name in the server, in up's words.
func graphState(spec runs.Spec, live []runs.Info) string {
	for _, i := range slices.Backward(live) {
		if i.Name == spec.DisplayName() {
			return upState(i) + " (" + i.ID + ")"
		}
	}
	if live == nil {
		return ""
	}
	return "not started"
}
