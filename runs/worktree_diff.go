package runs

import (
	"context"
	"sync"
	"time"

	"corral/runs/workspace"
)

// A worktree run's +added −removed figures (Info.Diff) are counted by git
// (workspace.StatOf) when something happened: its output went quiet, its agent's
// state changed, or it ended. Nothing counts while nothing happens: the counter
// waits on channels only, and its one timer runs only after the start or output,
// until the run has been quiet for diffQuiet. One count at a time per run, off the output path, and
// never with the run's lock held while git runs.

// diffQuiet is how long a worktree run's output must be still before its figures are
// counted: an agent writing files writes to its terminal as it goes.
const diffQuiet = 2 * time.Second

// diffBudget bounds one count (git add -A of a big worktree into a temporary index).
const diffBudget = time.Minute

// differ is a worktree run's counter.
type differ struct {
	env     []string
	quiet   time.Duration // diffQuiet, or the supervisor's shorter one (tests)
	output  chan struct{} // output came: the quiet starts over (cap 1)
	now     chan struct{} // the agent's state changed: count now (cap 1)
	stop    chan struct{} // closed when the run ends: the last count is finalize's
	stopped sync.Once
	mu      sync.Mutex // one count at a time
}

// startDiffer starts counting r's changes; r.wt is set. env is git's environment.
func (r *run) startDiffer(env []string) {
	quiet := r.sup.diffQuiet
	if quiet == 0 {
		quiet = diffQuiet
	}
	d := &differ{env: env, quiet: quiet, output: make(chan struct{}, 1), now: make(chan struct{}, 1), stop: make(chan struct{})}
	r.diff = d
	// The start counts as something that happened: a run that changes files without
	// writing a line (a script, a silent tool) has its figures once it has been quiet
	// for diffQuiet, as one that writes has.
	d.poke(false)
	go r.countOnChange(d)
}

// poke tells the counter something happened: output, or (now) a state change.
func (d *differ) poke(now bool) {
	if d == nil {
		return
	}
	ch := d.output
	if now {
		ch = d.now
	}
	select {
	case ch <- struct{}{}:
	default:
	}
}

// countOnChange waits for output then quiet, or a state change, and counts; until the
// run ends. A count that failed (git busy with another worktree of the repository, a
// lock) is tried again a few times, each after twice the wait of the last: an idle
// run would otherwise keep no figures, or stale ones, until it next printed.
func (r *run) countOnChange(d *differ) {
	quiet := time.NewTimer(d.quiet)
	quiet.Stop()
	defer quiet.Stop()
	var quietC <-chan time.Time
	fails := 0
	for {
		select {
		case <-d.stop:
			return
		case <-d.output:
			fails = 0 // something happened: a count after it has its retries again
			quiet.Reset(d.quiet)
			quietC = quiet.C
			continue
		case <-quietC:
		case <-d.now:
			fails = 0
		}
		quietC = nil
		quiet.Stop()
		if err := r.countDiff(d); err == nil {
			fails = 0
		} else if fails < diffRetries {
			fails++
			quiet.Reset(d.quiet << fails)
			quietC = quiet.C
		}
	}
}

// diffRetries is how many times a failed count is tried again before the run's next
// output or state change.
const diffRetries = 4

// countDiff counts a running run's changes and publishes them (an EventDiff) when they
// differ from the last count.
func (r *run) countDiff(d *differ) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	select {
	case <-d.stop:
		return nil // ending: finalize counts
	default:
	}
	st, err := r.statOf(d)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.info.State == Exited || (r.info.Diff != nil && *r.info.Diff == st) {
		return nil
	}
	r.changeLocked(EventDiff, "", func(i *Info) { i.Diff = &st })
	r.persistLightLocked()
	return nil
}

// statOf is one count by git, within diffBudget; a failure is recorded as an event.
func (r *run) statOf(d *differ) (workspace.Stat, error) {
	ctx, cancel := context.WithTimeout(r.sup.gitContext(context.Background()), diffBudget)
	defer cancel()
	st, err := workspace.StatOf(ctx, *r.wt, d.env)
	if err != nil && r.sup.reg != nil {
		r.sup.reg.emit("diff-error", "run_id", r.id, "err", err.Error())
	}
	return st, err
}

// endDiffer stops the counter and makes the last count, after the run's processes
// are gone; nil without a worktree or when it could not count.
func (r *run) endDiffer() *workspace.Stat {
	d := r.diff
	if d == nil {
		return nil
	}
	d.end()
	d.mu.Lock() // after a count in flight
	defer d.mu.Unlock()
	st, err := r.statOf(d)
	if err != nil {
		return nil
	}
	return &st
}

// end stops the counter (a run that ends, or never started).
func (d *differ) end() {
	if d != nil {
		d.stopped.Do(func() { close(d.stop) })
	}
}
