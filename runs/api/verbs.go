package api

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"corral/ptyhost/keys"
	"corral/runs"
	"corral/runs/agentstate"
)

// The operations, each declared once: what scripts and agents call to drive runs
// (corral's verbs), and what an attached UI needs besides. The server answers them by
// name; clients call them typed (Kill.Call(ctx, caller, RunRef{ID: id})). With each
// goes what a UI over several hosts needs to know of it (hosts.go): where it goes when
// it names no run, how the replies merge, the viewer it names, the runs it returns.

// The conversation with a server (answered by the server itself).
var (
	Hello     = session[HelloArgs, HelloReply]("hello").within(fixed[HelloArgs](HelloBudget))
	Subscribe = session[SubscribeArgs, SubscribeReply]("subscribe")
	Watch     = session[WatchArgs, struct{}]("watch").viewing(func(a *WatchArgs) *string { return &a.Token })
	// Upgrade hands the server's runs to a server of another binary, through its
	// keeper: no run ends.
	Upgrade = session[UpgradeArgs, UpgradeReply]("upgrade")
	// Ls is corral ls answered by the server from what it holds (runs/server), so that
	// listing a thousand runs reads none of their records: the client prints the reply
	// as it is. A server older than this one does not know it (CodeUnknown), and the
	// client lists the registry's files itself, as it did.
	Ls = session[LsArgs, LsReply]("ls")
)

// Runs.
var (
	List = declare("list", LaneMain, list).
		overHosts(SpreadListing, joined(func(r *ListReply) *[]runs.Info { return &r.Runs })).
		returning(func(r *ListReply) []*runs.Info { return each(r.Runs) })

	Snapshot = declare("snapshot", LaneMain, snapshot).
			overHosts(SpreadListing, joined(func(r *SnapshotReply) *RunList { return &r.Runs })).
			returning(func(r *SnapshotReply) []*runs.Info { return each(r.Runs) }).
			viewing(func(a *SnapshotArgs) *string { return &a.Viewer })

	Info = declare("info", LaneMain, info).
		returning(func(r *InfoReply) []*runs.Info { return []*runs.Info{&r.Run.Info} })

	Spawn = declare("spawn", LaneMain, spawn).starting(func(r SpawnReply) string { return r.ID })

	Kill      = declare("kill", LaneMain, onRun(func(c Core, id string, _ RunRef) error { return c.Cancel(id) }))
	Stop      = declare("stop", LaneMain, onRun(func(c Core, id string, a StopArgs) error { return c.Stop(id, a.Reason) }))
	Interrupt = declare("interrupt", LaneMain, onRun(func(c Core, id string, _ RunRef) error { return c.Interrupt(id) }))
	Pause     = declare("pause", LaneMain, onRun(func(c Core, id string, _ RunRef) error { return c.Pause(id) }))
	Resume    = declare("resume", LaneMain, onRun(func(c Core, id string, _ RunRef) error { return c.Resume(id) }))
	Remove    = declare("remove", LaneMain, onRun(func(c Core, id string, _ RunRef) error { return c.Remove(id) }))

	Wait = declare("wait", LaneMain, wait).within(func(a WaitArgs) time.Duration { return blocking(a.TimeoutMS) }).
		returning(func(r *WaitReply) []*runs.Info { return []*runs.Info{&r.Run} })

	// Restart starts a service's next attempt now, its restart budget refilled (an
	// ended run: its spec again, as a new run); the reply names the run that goes on.
	Restart = declare("restart", LaneMain, restart)

	// Shutdown ends every run of every host, each waited for.
	Shutdown = declare("shutdown", LaneMain, shutdown).within(fixed[struct{}](EndingBudget)).
			overHosts(SpreadAll, sumEnded)

	// Restore starts the runs a reboot lost again, their agents' conversations resumed.
	Restore = declare("restore", LaneMain, restore).within(fixed[RestoreArgs](EndingBudget))
)

// restore resolves the runs named (ids, names or prefixes, as every verb takes them)
// and starts them again; a named run that cannot be is refused, the others go on.
func restore(ctx context.Context, c Core, a RestoreArgs) (RestoreReply, error) {
	var rep RestoreReply
	o := runs.RestoreOptions{DryRun: a.DryRun, Fresh: a.Fresh, BaseEnv: a.BaseEnv, NoWait: a.NoWait,
		Waiting: func(_ int, wait time.Duration) { rep.WaitMS = wait.Milliseconds() }}
	// The refs go as they are: restore resolves them among the records, where a name
	// is the lost run's (the run it restored has that name too, and is live).
	o.IDs = a.IDs
	done, err := c.Restore(ctx, o)
	rep.Runs = done
	if err != nil {
		if !errors.Is(err, runs.ErrRestore) {
			return rep, err
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				rep.Refused = append(rep.Refused, e.Error())
			}
		} else {
			rep.Refused = append(rep.Refused, err.Error())
		}
	}
	return rep, nil
}

// Input, on its own lane.
var (
	Write     = declare("write", LaneInput, onRun(write)).viewing(func(a *WriteArgs) *string { return &a.Viewer })
	SendKeys  = declare("send-keys", LaneInput, onRun(sendKeys))
	SendItems = declare("send-items", LaneInput, onRun(func(c Core, id string, a ItemsArgs) error { return c.SendKeys(id, a.Items) }))
	// Input is what a UI's focused pane sends. It has a verb of its own because a
	// server that knows only send-items would read its pastes and reports as keys.
	Input  = declare("input", LaneInput, onRun(input)).viewing(func(a *InputArgs) *string { return &a.Viewer })
	Paste  = declare("paste", LaneInput, onRun(func(c Core, id string, a TextArgs) error { return c.Paste(id, a.Text) }))
	Submit = declare("submit", LaneInput, submit).within(func(a TextArgs) time.Duration {
		if a.ReadyTimeoutMS <= 0 && a.ReadyDefault {
			return SubmitReadyDefault + BudgetMargin
		}
		return max(blocking(a.ReadyTimeoutMS), InputBudget)
	})
	Resize = declare("resize", LaneInput, onRun(func(c Core, id string, a ResizeArgs) error {
		return c.ResizeFor(id, a.Viewer, a.Cols, a.Rows)
	})).viewing(func(a *ResizeArgs) *string { return &a.Viewer })
	// Show that names no run goes to every host: the viewer's pane shows none of
	// their runs.
	Show = declare("show", LaneInput, show).overHosts(SpreadListing, nil).
		viewing(func(a *ShowArgs) *string { return &a.Viewer })
)

// write types bytes into a run, input items encoded there with its app's modes; an
// attached UI's input makes it the run's latest viewer.
func write(c Core, id string, a WriteArgs) error {
	return typed(c, id, a.Viewer, c.Write(id, a.Data))
}

func input(c Core, id string, a InputArgs) error {
	return typed(c, id, a.Viewer, c.SendKeys(id, a.Items))
}

// typed makes viewer, when set, the latest of run id once its input went in (err nil).
func typed(c Core, id, viewer string, err error) error {
	if err == nil && viewer != "" {
		c.Active(id, viewer)
	}
	return err
}

// show says which run a viewer's pane shows (its window size counts for that run).
func show(_ context.Context, c Core, a ShowArgs) (RunRef, error) {
	if a.Viewer == "" {
		return RunRef{}, errorf(CodeBadRequest, "show: no viewer")
	}
	id := a.ID
	if id != "" {
		var err error
		if id, err = Resolve(c, id); err != nil {
			return RunRef{}, err
		}
	}
	return RunRef{ID: id}, c.Show(a.Viewer, id)
}

// Output, processes and the registry.
var (
	Poll = declare("poll", LaneMain, poll).within(func(a PollArgs) time.Duration {
		return max(blocking(min(a.WaitMS, maxPollWait.Milliseconds())), DefaultBudget)
	}).returning(func(r *PollReply) []*runs.Info { return []*runs.Info{&r.Run} })

	Log    = declare("log", LaneMain, logLines)
	Output = declare("output", LaneMain, output)

	// Trees asks each host for the trees of its own runs.
	Trees = declare("trees", LaneMain, trees).overHosts(SpreadListing, unionTrees).
		perRun(func(a *TreesArgs) *[]string { return &a.IDs })

	Metrics = declare("metrics", LaneMain, metrics).overHosts(SpreadListing, sumMetrics)

	Reconcile = declare("reconcile", LaneMain, reconcile).within(fixed[struct{}](EndingBudget)).
			overHosts(SpreadAll, joined(func(r *[]runs.Decision) *[]runs.Decision { return r }))
)

func list(_ context.Context, c Core, _ struct{}) (ListReply, error) {
	return ListReply{Runs: c.Snapshot()}, nil
}

func snapshot(_ context.Context, c Core, a SnapshotArgs) (SnapshotReply, error) {
	if a.Viewer == "" {
		return SnapshotReply{Runs: c.Snapshot()}, nil
	}
	return SnapshotReply{Runs: c.SnapshotFor(a.Viewer, a.All)}, nil
}

func info(_ context.Context, c Core, a RunRef) (InfoReply, error) {
	id, err := Resolve(c, a.ID)
	if err != nil {
		return InfoReply{}, err
	}
	i, err := c.Info(id)
	return InfoReply{Run: RunInfo{i}}, err
}

// spawn starts a.Spec; a run that started and ended at once with spawn-error still
// exists, so its id comes back with the error as SpawnErr.
func spawn(_ context.Context, c Core, a SpawnArgs) (SpawnReply, error) {
	a.Spec.BaseEnv = a.BaseEnv
	if a.NamedDeps && len(a.Spec.DependsOn) > 0 {
		deps, err := runs.ResolveDeps(c.Snapshot(), a.Spec.DisplayName(), a.Spec.DependsOn)
		if err != nil {
			return SpawnReply{}, errorf(CodeBadRequest, "%v", err)
		}
		a.Spec.DependsOn = deps
	}
	id, err := c.Spawn(a.Spec)
	if id == "" {
		return SpawnReply{}, err
	}
	rep := SpawnReply{ID: id}
	if err != nil {
		rep.SpawnErr = err.Error()
	}
	return rep, nil
}

// Here is spawn's arguments for spec started from this process: in its working
// directory and with its environment, unless spec names a directory, so that a run
// spawned from a shell runs where that shell is, wherever the supervisor runs.
func Here(spec runs.Spec) SpawnArgs {
	if wd, err := os.Getwd(); err == nil && !filepath.IsAbs(spec.Dir) && !runs.HomeRelative(spec.Dir) {
		spec.Dir = filepath.Join(wd, spec.Dir) // the server's own directory is /
	}
	return SpawnArgs{Spec: spec, BaseEnv: os.Environ()}
}

// There is spawn's arguments for spec started on another host: nothing
// of this machine goes (its directory and environment mean nothing there); with no
// directory named, the run starts in the home directory of that host's user.
func There(spec runs.Spec) SpawnArgs {
	if spec.Dir == "" {
		spec.Dir = "~"
	}
	return SpawnArgs{Spec: spec}
}

// statesText is "waiting or idle".
func statesText(ss []agentstate.State) string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = s.String()
	}
	return strings.Join(names, " or ")
}

// codeOfSubmit is a checked submit's failure as a code: not ready is a timeout.
func codeOfSubmit(err error) string {
	if errors.Is(err, runs.ErrNotReady) {
		return CodeTimeout
	}
	return AsError(err).Code
}

func sendKeys(c Core, id string, a KeysArgs) error {
	items, err := keys.ParseSendKeysArgs(a.Keys)
	if err != nil {
		return errorf(CodeBadRequest, "%v", err)
	}
	return c.SendKeys(id, items)
}

// EndingBudget is how long a client waits for an operation that ends runs, each
// within its grace (shutdown, reconcile).
const EndingBudget = 5 * time.Minute

// maxPollWait bounds a blocking poll, as the original supervisor's did.
const maxPollWait = 120 * time.Second

// poll returns the output since the last poll; with WaitMS, when there is none yet, it
// first waits for some or for the run's end, whichever comes first.
func poll(ctx context.Context, c Core, a PollArgs) (PollReply, error) {
	id, err := Resolve(c, a.ID)
	if err != nil {
		return PollReply{}, err
	}
	wait := min(time.Duration(a.WaitMS)*time.Millisecond, maxPollWait)
	var sub *runs.Subscription
	if wait > 0 {
		// Subscribed before the first look: output that comes in between is an event.
		_, sub = c.Subscribe()
		defer sub.Close()
	}
	rep, err := pollOnce(c, id)
	if err == nil && sub != nil && len(rep.Output) == 0 && !rep.Ended {
		awaitOutput(ctx, sub, id, wait)
		rep, err = pollOnce(c, id)
	}
	return rep, err
}

func pollOnce(c Core, id string) (PollReply, error) {
	out, err := c.Poll(id)
	if err != nil {
		return PollReply{}, err
	}
	info, _ := c.Info(id)
	rep := PollReply{Output: []byte{}, Dropped: out.Dropped, Ended: info.Ended(), Run: info}
	for _, ch := range out.Chunks {
		rep.Output = append(rep.Output, ch.Data...)
	}
	return rep, nil
}

// awaitOutput returns at run id's next output or end, or after wait.
func awaitOutput(ctx context.Context, sub *runs.Subscription, id string, wait time.Duration) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case ev, ok := <-sub.C:
			if !ok || ev.Run.ID == id && (ev.Type == runs.EventOutput || ev.Run.Ended()) {
				return
			}
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// logLines returns lines of the run's kept output: by default the last
// DefaultLogLines, else Limit lines from Offset. CRLF is folded to LF.
func logLines(_ context.Context, c Core, a LogArgs) (LogReply, error) {
	id, err := Resolve(c, a.ID)
	if err != nil {
		return LogReply{}, err
	}
	out, err := c.Log(id)
	if err != nil {
		return LogReply{}, err
	}
	var all []byte
	for _, ch := range out.Chunks {
		all = append(all, ch.Data...)
	}
	lines := splitLines(all)
	limit := a.Limit
	switch {
	case limit < 0:
		return LogReply{}, errorf(CodeBadRequest, "limit %d: give a number of lines, 0 or more", limit)
	case limit == 0:
		limit = DefaultLogLines
	}
	start := a.Offset
	switch {
	case a.Tail:
		start = len(lines) - min(limit, len(lines))
	case start < 0: // from the end
		start = len(lines) - min(-max(start, -len(lines)), len(lines))
	case start > len(lines):
		return LogReply{}, errorf(CodeBadRequest, "offset %d is past the end of %s's log, which has %d lines: give an offset from 0 to %d",
			start, id, len(lines), len(lines))
	}
	end := start + min(limit, len(lines)-start) // no sum that can overflow
	return LogReply{Lines: lines[start:end], Offset: start, TotalLines: len(lines), Truncated: out.Dropped > 0}, nil
}

// splitLines splits output into lines, CRLF folded; a last line without a line end
// is kept.
func splitLines(b []byte) []string {
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	if len(b) == 0 {
		return []string{}
	}
	return strings.Split(string(bytes.TrimSuffix(b, []byte("\n"))), "\n")
}

// output is a run's whole kept output with its stream marks (the UI's log view).
func output(_ context.Context, c Core, a RunRef) (OutputReply, error) {
	id, err := Resolve(c, a.ID)
	if err != nil {
		return OutputReply{}, err
	}
	out, err := c.Log(id)
	return OutputReply{Output: out}, err
}

// wait blocks until the run has ended (or the timeout passes) and returns its report.
func wait(ctx context.Context, c Core, a WaitArgs) (WaitReply, error) {
	id, err := Resolve(c, a.ID)
	if err != nil {
		return WaitReply{}, err
	}
	if a.TimeoutMS > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(a.TimeoutMS)*time.Millisecond)
		defer cancel()
	}
	what := "ended"
	var info runs.Info
	if a.Condition != "" {
		what = "met " + string(a.Condition)
		var rep WaitReply
		if rep, err = waitCondition(ctx, c, id, a.Condition); err == nil {
			return rep, nil
		}
	} else if len(a.Until) > 0 {
		what = "reached " + statesText(a.Until)
		var rep WaitReply
		if rep, err = waitAgent(ctx, c, id, a); err == nil {
			return rep, nil
		}
	} else {
		info, err = c.Wait(ctx, id)
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return WaitReply{}, errorf(CodeTimeout, "%s has not %s after %s", id, what, time.Duration(a.TimeoutMS)*time.Millisecond)
	case err != nil:
		return WaitReply{}, err
	}
	esc, _ := c.Escapees(id)
	tail, _ := c.Tail(id)
	return WaitReply{Report: runs.NewReport(info, esc, tail), Run: info}, nil
}

func restart(_ context.Context, c Core, a RunRef) (RunRef, error) {
	id, err := Resolve(c, a.ID)
	if err != nil {
		return RunRef{}, err
	}
	next, err := c.Restart(id)
	if err != nil {
		return RunRef{}, err
	}
	return RunRef{ID: next}, nil
}

// shutdown ends every run (supervisor-shutdown, verified). A server stops once its
// answer is written.
func shutdown(ctx context.Context, c Core, _ struct{}) (ShutdownReply, error) {
	live := 0
	for _, i := range c.Snapshot() {
		if !i.Ended() {
			live++
		}
	}
	// The runs end whether or not the asker is still there to hear it.
	if err := c.Shutdown(context.WithoutCancel(ctx)); err != nil {
		return ShutdownReply{}, errorf(CodeFailed, "shutdown: %v", err)
	}
	return ShutdownReply{Ended: live}, nil
}

func trees(_ context.Context, c Core, a TreesArgs) (TreeMap, error) {
	t, err := c.Trees(a.IDs...)
	return TreeMap(t), err
}

func metrics(_ context.Context, c Core, _ struct{}) (runs.Metrics, error) {
	return c.Metrics(), nil
}

func reconcile(ctx context.Context, c Core, _ struct{}) ([]runs.Decision, error) {
	return c.Reconcile(ctx)
}

// waitCondition is wait's answer for a condition: the run, and whether it met it; the
// report of a run that ended.
func waitCondition(ctx context.Context, c Core, id string, cond runs.Condition) (WaitReply, error) {
	info, reached, err := c.WaitCondition(ctx, id, cond)
	return waitReply(c, id, info, reached, err)
}
