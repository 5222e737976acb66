package api

import (
	"context"
	"strings"
	"time"

	"corral/ptyhost/keys"
	"corral/reaper"
	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/workspace"
)

// Core is the supervisor the operations act on; *runs.Supervisor is one. Its methods
// are the supervisor's own; the operations (verbs.go) are what clients call.
type Core interface {
	Spawn(runs.Spec) (string, error)
	Snapshot() []runs.Info
	SnapshotFor(viewer string, all bool) []runs.Info
	Info(id string) (runs.Info, error)
	Cancel(id string) error
	Stop(id string, reason runs.Reason) error
	// Restart starts a service's next attempt now (budget refilled), or an ended
	// run's spec again as a new run; the id of the run that goes on.
	Restart(id string) (string, error)
	Interrupt(id string) error
	Pause(id string) error
	Resume(id string) error
	Write(id string, b []byte) error
	SendKeys(id string, items []keys.Item) error
	Paste(id, text string) error
	Submit(id, text string) error
	Resize(id string, cols, rows uint16) error
	// An attached UI's window size, the run its pane shows, its activity on a run
	// (the window-size policy, runs/viewers.go).
	ResizeFor(id, viewer string, cols, rows uint16) error
	Show(viewer, id string) error
	Active(id, viewer string)
	Remove(id string) error
	Poll(id string) (runs.Output, error)
	Log(id string) (runs.Output, error)
	Tail(id string) ([]byte, error)
	Escapees(id string) ([]runs.Escapee, error)
	Wait(ctx context.Context, id string) (runs.Info, error)
	Subscribe() ([]runs.Info, *runs.Subscription)
	Reconcile(ctx context.Context) ([]runs.Decision, error)
	Trees(ids ...string) (map[string][]reaper.TreeProc, error)
	Metrics() runs.Metrics
	Shutdown(ctx context.Context) error
	// Restore starts lost runs again after a reboot, resuming their agents'
	// conversations (runs/restore.go).
	Restore(ctx context.Context, o runs.RestoreOptions) ([]runs.Restored, error)

	// A run's worktree (package runs/workspace).
	Diff(ctx context.Context, id string, o workspace.DiffOptions) (runs.DiffResult, error)
	Finish(ctx context.Context, id string, o runs.FinishOptions) (runs.FinishResult, error)

	// Agents: a run's screen, who looks at it, its agent's hooks and state
	// (ARCHITECTURE.md, "An agent's state").
	Capture(id string, escapes, history bool) (runs.Capture, error)
	Focus(id, viewer string, focused bool) error
	Hook(id string, rep agentstate.HookReport) error
	Explain(id string) (agentstate.Explanation, error)
	WaitAgent(ctx context.Context, id string, states []agentstate.State) (runs.Info, bool, error)
	// Services: a run's condition, as its dependents wait for it (runs/depends.go).
	WaitCondition(ctx context.Context, id string, cond runs.Condition) (runs.Info, bool, error)
	SubmitReady(ctx context.Context, id, text string, ready time.Duration) (runs.SubmitResult, error)
}

var _ Core = (*runs.Supervisor)(nil)

// Resolve finds the run a reference names: an exact id, else a unique name, else a
// unique id prefix. Names repeat (a restarted run keeps its name): among several runs
// of one name, the only live one is meant.
func Resolve(c Core, ref string) (string, error) {
	if ref == "" {
		return "", errorf(CodeBadRequest, "no run named: give a run id or name")
	}
	if _, err := c.Info(ref); err == nil {
		return ref, nil // an exact id, as the UI sends with every key: no snapshot
	}
	var named, live, prefixed []string
	for _, i := range c.Snapshot() {
		switch {
		case i.ID == ref:
			return i.ID, nil
		case i.Name == ref:
			named = append(named, i.ID)
			if !i.Ended() {
				live = append(live, i.ID)
			}
		case strings.HasPrefix(i.ID, ref):
			prefixed = append(prefixed, i.ID)
		}
	}
	if len(named) > 0 && len(prefixed) > 0 {
		// Taking the name would let a run named like another's id prefix catch a
		// verb meant for that run (and the other way round).
		return "", errorf(CodeAmbiguous, "%q names %d runs: the name of %s and the start of the id of %s: give the run id",
			ref, len(named)+len(prefixed), strings.Join(named, ", "), strings.Join(prefixed, ", "))
	}
	for _, ids := range [][]string{named, live, prefixed} {
		if len(ids) == 1 {
			return ids[0], nil
		}
	}
	if len(named)+len(prefixed) > 1 {
		return "", errorf(CodeAmbiguous, "%q names %d runs (%s): give the run id", ref, len(named)+len(prefixed),
			strings.Join(append(named, prefixed...), ", "))
	}
	return "", errorf(CodeNoRun, "no run %q", ref)
}

// onRun makes the handler of an operation on one run: the run its arguments name is
// resolved, then act is done on it, and the reply names the run.
func onRun[A interface{ ref() string }](act func(c Core, id string, a A) error) func(context.Context, Core, A) (RunRef, error) {
	return func(_ context.Context, c Core, a A) (RunRef, error) {
		id, err := Resolve(c, a.ref())
		if err != nil {
			return RunRef{}, err
		}
		if err := act(c, id, a); err != nil {
			return RunRef{}, err
		}
		return RunRef{ID: id}, nil
	}
}
