package runs

import (
	"fmt"
	"slices"
	"sync"
)

// Condition is what a dependency must reach before its dependent starts.
type Condition string

// The conditions a depends_on entry can name.
const (
	CondStarted   Condition = "started"   // its process was started (it may have ended since)
	CondReady     Condition = "ready"     // its readiness probe passes
	CondSucceeded Condition = "succeeded" // it exited 0 on its own
	CondEnded     Condition = "ended"     // it ended, for whatever reason
)

// Conditions are the conditions, in the order messages list them.
var Conditions = []Condition{CondStarted, CondReady, CondSucceeded, CondEnded}

// DepLostRestart is the on_dependency_lost value that restarts a dependent whose
// dependency stopped meeting its condition.
const DepLostRestart = "restart"

// ParseCondition reads a condition's name.
func ParseCondition(s string) (Condition, error) {
	if c := Condition(s); slices.Contains(Conditions, c) {
		return c, nil
	}
	return "", fmt.Errorf("%w: condition %q (want started, ready, succeeded or ended)", ErrBadSpec, s)
}

// Dependency is one run this run waits for: by name, in the same server.
type Dependency struct {
	Name      string    `json:"name"`
	Condition Condition `json:"condition"`
}

func (d Dependency) String() string { return d.Name + " (" + string(d.Condition) + ")" }

// validateDeps checks the spec's dependencies: real names and conditions, none on
// itself, none twice. Which names exist is known only when it waits.
func (s Spec) validateDeps() error {
	for i, d := range s.DependsOn {
		if err := checkName(d.Name); err != nil {
			return fmt.Errorf("%w: depends_on: %w", ErrBadSpec, err)
		}
		if _, err := ParseCondition(string(d.Condition)); err != nil {
			return fmt.Errorf("depends_on %s: %w", d.Name, err)
		}
		if s.Name != "" && d.Name == s.Name {
			return fmt.Errorf("%w: depends_on: %s cannot wait for itself", ErrBadSpec, d.Name)
		}
		if slices.ContainsFunc(s.DependsOn[:i], func(e Dependency) bool { return e.Name == d.Name }) {
			return fmt.Errorf("%w: depends_on: %s is named twice", ErrBadSpec, d.Name)
		}
	}
	if s.OnDependencyLost != "" && s.OnDependencyLost != DepLostRestart {
		return fmt.Errorf("%w: on_dependency_lost %q (want restart, or nothing)", ErrBadSpec, s.OnDependencyLost)
	}
	return nil
}

// depWake tells the runs waiting on dependencies that some run changed: a channel
// closed at the next change, made only while someone waits, so a server with no
// waiting run pays nothing per event.
type depWake struct {
	mu sync.Mutex
	ch chan struct{}
}

// next is closed at the next change after the call.
func (w *depWake) next() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ch == nil {
		w.ch = make(chan struct{})
	}
	return w.ch
}

// poke wakes every waiter.
func (w *depWake) poke() {
	w.mu.Lock()
	if w.ch != nil {
		close(w.ch)
		w.ch = nil
	}
	w.mu.Unlock()
}

// depStatus is where one dependency's condition stands.
type depStatus int

const (
	depWaiting depStatus = iota // not yet
	depHeld                     // holds now
	depFailed                   // can never hold: the run meant ended without it, and will not run again
)

// depCheck evaluates a dependency against the newest run of its name (a run
// restarted with R is a new run of the same name). It returns that run's id ("" when
// there is none yet) and, when the condition can never hold, why. A run whose id is
// stale (one that was lost) counts as none while it has ended; a service that comes
// back in place under its restart policy (same id) counts again.
func (s *Supervisor) depCheck(d Dependency, stale string) (st depStatus, id, why string) {
	r := s.newestNamed(d.Name)
	if r == nil { // --depends-on names a run by its id: that run
		r, _ = s.get(d.Name)
	}
	if r == nil || r.id == stale && r.snapshot().Ended() {
		return depWaiting, "", ""
	}
	st, i := r.meets(d.Condition)
	if st == depFailed {
		return st, r.id, endedWhy(d, i)
	}
	return st, r.id, ""
}

// meets is the one place a condition is evaluated on a run: for its dependents and
// for corral wait --until. It returns the run as it was judged.
func (r *run) meets(c Condition) (depStatus, Info) {
	i := r.snapshot()
	held := false
	switch c {
	case CondStarted: // its current attempt running, or done with its work (a one-shot that exited 0)
		held = i.State == Running || succeeded(i)
	case CondReady: // its current attempt running and its readiness probe passed
		held = r.isReady()
	case CondSucceeded:
		held = succeeded(i)
	case CondEnded:
		held = i.Ended()
	}
	switch {
	case held:
		return depHeld, i
	case i.Ended(): // final: a restart policy's next attempt is Restarting, not Exited
		return depFailed, i
	}
	return depWaiting, i
}

// succeeded: it ended on its own with status 0.
func succeeded(i Info) bool {
	return i.Ended() && i.Reason == Exit && i.ExitCode != nil && *i.ExitCode == 0
}

// newestNamed is the most recent run called name, nil for none.
func (s *Supervisor) newestNamed(name string) *run {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := len(s.order) - 1; k >= 0; k-- {
		if r := s.runs[s.order[k]]; r.info.Name == name {
			return r
		}
	}
	return nil
}

// DependencyWhy says why run i, ended, can never meet d ("migrate exited 3"), as
// a dependent's dependency-failed says it.
func DependencyWhy(d Dependency, i Info) string { return endedWhy(d, i) }

// endedWhy says why the ended dependency can never meet d: "migrate exited 3".
func endedWhy(d Dependency, i Info) string {
	how := howEnded(i)
	switch d.Condition {
	case CondSucceeded:
		return d.Name + " " + how
	case CondStarted:
		if !i.StartedAt.IsZero() && i.Reason != SpawnError {
			return d.Name + " " + how
		}
		return d.Name + " ended before it started: " + how
	}
	return d.Name + " ended before it was ready: " + how
}

// howEnded is the end of a run in a few words.
func howEnded(i Info) string {
	switch {
	case i.Reason == Exit && i.ExitCode != nil:
		return fmt.Sprintf("exited %d", *i.ExitCode)
	case i.Reason == Signal:
		return "was killed by signal " + SignalName(i.Signal)
	case i.SpawnErr != "":
		return "could not start: " + i.SpawnErr
	case i.DependencyErr != "":
		return "ended with " + i.Reason.String() + " (" + i.DependencyErr + ")"
	}
	return "ended with " + i.Reason.String()
}

// depsOf evaluates every dependency of a run: those not met yet, and the first that
// never will be (why; "" when none).
func (s *Supervisor) depsOf(deps []Dependency, stale map[string]string) (waiting []Dependency, met map[string]string, failed string) {
	met = map[string]string{}
	for _, d := range deps {
		switch st, id, why := s.depCheck(d, stale[d.Name]); st {
		case depFailed:
			return waiting, met, why
		case depWaiting:
			waiting = append(waiting, d)
		default:
			met[d.Name] = id
		}
	}
	return waiting, met, ""
}

func (s *Supervisor) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}
