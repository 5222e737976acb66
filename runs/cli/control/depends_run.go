package control

import (
	"context"
	"fmt"

	"corral/runs"
	"corral/runs/api"
	"corral/runs/client"
)

// AwaitDeps is corral run --depends-on: the run starts in this process, its
// dependencies are runs of the server w names. They must name its runs now (by name
// or id: runs.ResolveDeps, as corral spawn's are checked), and are waited for with the
// server's own evaluation of each condition (wait --until, runs.Supervisor's one),
// until all hold together. It returns true when the run may start; otherwise the exit
// code, its reason said on stderr: a dependency that names no run (nothing is
// started), no server, or one that can never hold (dependency-failed).
func AwaitDeps(ctx context.Context, spec runs.Spec, w Where, env Env) (int, bool) {
	const name = "run"
	if spec.OnDependencyLost != "" {
		fmt.Fprintf(env.Stderr, "corral %s: --on-dependency-lost needs corral spawn: the server starts its run again, and corral run's run is this terminal's\n", name)
		return ExitUsage, false
	}
	c, code := connect(ctx, name, w, env, false, func() int {
		fmt.Fprintf(env.Stderr, "corral %s: --depends-on names runs of the server, and none is running: nothing was started\n", name)
		return ExitFailure
	})
	if c == nil {
		return code, false
	}
	defer c.Close()
	list, ok := call(ctx, api.List, c, struct{}{}, env)
	if !ok {
		return ExitFailure, false
	}
	deps, err := runs.ResolveDeps(list.Runs, spec.DisplayName(), spec.DependsOn)
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: %v\n", name, err)
		return ExitFailure, false
	}
	for {
		waited, failed, err := depsPass(ctx, c, deps, env)
		switch {
		case err != nil:
			fmt.Fprintf(env.Stderr, "corral %s: %v\n", name, err)
			return ExitFailure, false
		case failed != "":
			fmt.Fprintf(env.Stderr, "corral %s: %s: %s: nothing was started\n", name, runs.DependencyFailed, failed)
			return ExitFailure, false
		case !waited: // all held at once
			return ExitOK, true
		}
	}
}

// depsPass waits for each dependency in turn, the newest run of its name (or the run
// its id names); waited says one did not hold at once (so the others are looked at
// again: all must hold together), failed why one never will.
func depsPass(ctx context.Context, c *client.Client, deps []runs.Dependency, env Env) (waited bool, failed string, err error) {
	for _, d := range deps {
		ref := d.Name // an id, when --depends-on named the run by it (no run is called that)
		list, err := api.List.Call(ctx, c, struct{}{})
		if err != nil {
			return waited, "", err
		}
		for _, i := range list.Runs {
			if i.Name == d.Name {
				ref = i.ID // the newest: the listing is oldest first
			}
		}
		a := api.WaitArgs{ID: ref, Condition: d.Condition, TimeoutMS: 1}
		rep, err := api.Wait.Call(ctx, c, a)
		if isCode(err, api.CodeTimeout) { // it does not hold yet: say so, and wait
			waited = true
			fmt.Fprintf(env.Stderr, "corral run: waiting for %s (%s)\n", d.Name, d.Condition)
			a.TimeoutMS = 0
			rep, err = api.Wait.Call(ctx, c, a)
		}
		if err != nil {
			return waited, "", err
		}
		if !rep.Reached {
			return waited, runs.DependencyWhy(d, rep.Run), nil
		}
	}
	return waited, "", nil
}
