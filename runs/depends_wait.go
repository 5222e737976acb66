package runs

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// EventWaiting says what a run waits for changed (Info.WaitingFor; empty: all met).
const EventWaiting EventType = "waiting"

// awaitDeps is the one wait of a run with dependencies, on its own goroutine from
// Spawn (after Spawn's own first look, depStep, found it must wait): the run exists
// in state starting with no process until every condition holds, then starts as any
// run does. A cancel ends the wait (the run ends never started, for the cancel's
// reason); a condition that can never hold ends it with dependency-failed.
// Everything that ends the wait goes through the run's context, and start checks it
// under spawnMu, so a cancel racing the start either prevents it or ends the process
// it started: one run, never two, and no wait left behind. stale are the dependency
// runs a run spawned again after a loss must not take; shown what it waits for, as
// published.
func (r *run) awaitDeps(stale map[string]string, shown []Dependency) {
	s := r.sup
	for {
		wake := s.deps.next()                          // before the check: a change during it wakes the select
		if done, _ := r.depStep(stale, &shown); done { // a start error is the run's spawn-error
			return
		}
		select {
		case <-wake:
		case <-r.ctx.Done():
			r.endWait()
			return
		}
	}
}

// depStep looks at the run's dependencies once: it starts the run (the start's
// error returned), or ends it, and returns true; or publishes what it waits for, when
// that changed, and returns false.
func (r *run) depStep(stale map[string]string, shown *[]Dependency) (bool, error) {
	if r.sup.detached.Load() {
		// Its runs are the next server's: so is this wait, which its record keeps
		// (takeback.go). Nothing of it is started, ended or written here.
		return true, nil
	}
	waiting, met, failed := r.sup.depsOf(r.spec.DependsOn, stale)
	switch {
	case failed != "":
		r.failDeps(failed)
		return true, nil
	case len(waiting) == 0:
		return true, r.startAfterDeps(met)
	}
	if !slices.Equal(waiting, *shown) {
		*shown = waiting
		r.change(EventWaiting, waitingText(waiting), func(i *Info) { i.WaitingFor = slices.Clone(waiting) })
		r.saveWaiting()
	}
	return false, nil
}

// saveWaiting writes the record of a run waiting for its dependencies: made as its
// wait begins, rewritten when what it waits for changes, so that a server after this
// one (a crash, an upgrade) takes the wait over (takeback.go). Only the wait's own
// goroutine writes while the run waits (Spawn's first look, then awaitDeps; a cancel
// only cancels its context, and the end is written by the same goroutine after), so
// this write waits for the registry lock in the open and has landed before the run
// starts: the start's record is written over it, never under it.
func (r *run) saveWaiting() {
	reg := r.sup.reg
	if reg == nil {
		return
	}
	r.mu.Lock()
	if r.unrecorded || r.info.State != Starting || r.ctx.Err() != nil {
		r.mu.Unlock()
		return
	}
	rec, epoch := r.recordLocked(), r.epoch
	r.mu.Unlock()
	if err := r.putRecord(rec, epoch, true); err != nil {
		reg.emit("registry-error", "run_id", r.id, "err", err.Error())
		return
	}
	r.mu.Lock()
	if r.epoch == 0 {
		r.epoch = 1
		r.info.LeaseOwner, r.info.LeaseEpoch = reg.Instance(), 1
		r.info.LeaseExpiresAt = reg.now().Add(r.sup.cfg.LeaseExpiry)
	}
	r.mu.Unlock()
}

// waitingText is the list row's "db, migrate" of what a run waits for.
func waitingText(deps []Dependency) string {
	names := make([]string, len(deps))
	for k, d := range deps {
		names[k] = d.Name
	}
	return strings.Join(names, ", ")
}

// startAfterDeps starts the run whose conditions all hold, unless the supervisor is
// shutting down or handing its runs over: no dependent starts then.
func (r *run) startAfterDeps(met map[string]string) error {
	r.change(EventWaiting, "", func(i *Info) { i.WaitingFor = nil })
	if r.sup.isClosed() {
		if r.sup.detached.Load() { // handed over (Detach sets it first): the next server's to start
			return nil
		}
		r.stop(SupervisorShutdown)
	}
	var attempts map[string]int
	if r.spec.OnDependencyLost == DepLostRestart {
		attempts = r.sup.attemptsOf(met)
	}
	err := r.start() // a start error is also the run's spawn-error, shown with it
	if attempts != nil {
		go r.watchLost(met, attempts)
	}
	return err
}

// failDeps ends the waiting run with dependency-failed and why.
func (r *run) failDeps(why string) {
	r.mu.Lock()
	if r.info.Reason == ReasonNone && r.info.State == Starting {
		r.info.Reason, r.info.DependencyErr = DependencyFailed, why
		r.cancel(cause{DependencyFailed})
		r.changeLocked(EventCancel, DependencyFailed.String()+": "+why, nil)
	}
	r.mu.Unlock()
	r.endWait()
}

// endWait ends a run that never left its wait: it never started.
func (r *run) endWait() {
	r.mu.Lock()
	r.info.WaitingFor = nil
	r.mu.Unlock()
	r.endUnstarted(nil)
}

// watchLost, for a run whose entry says on_dependency_lost = "restart", ends it
// (dependency-lost) when a dependency that was met stops meeting its condition: the
// run that met it is no longer the newest of its name, or is on another attempt (it
// was restarted, however fast), or it no longer holds (a started one ended, a ready
// one is not ready). Then the same spec is spawned again, and waits as the first did.
// A run that ends otherwise stops this.
func (r *run) watchLost(met map[string]string, attempts map[string]int) {
	s := r.sup
	for {
		wake := s.deps.next()
		if name, why := s.lostDep(r.spec.DependsOn, met, attempts); why != "" {
			r.loseDeps(why, map[string]string{name: met[name]})
			return
		}
		select {
		case <-wake:
		case <-r.done:
			return
		}
	}
}

// attemptsOf is the current attempt of each run met names.
func (s *Supervisor) attemptsOf(met map[string]string) map[string]int {
	out := make(map[string]int, len(met))
	for name, id := range met {
		if d, err := s.get(id); err == nil {
			out[name] = d.snapshot().Service.attempt()
		}
	}
	return out
}

// lostDep names the first dependency that stopped meeting its condition, and how
// ("" none).
func (s *Supervisor) lostDep(deps []Dependency, met map[string]string, attempts map[string]int) (name, why string) {
	for _, d := range deps {
		st, id, _ := s.depCheck(d, "")
		if id != met[d.Name] || id != "" && s.attemptsOf(map[string]string{d.Name: id})[d.Name] != attempts[d.Name] {
			return d.Name, d.Name + " was restarted"
		}
		if (d.Condition == CondStarted || d.Condition == CondReady) && st != depHeld {
			return d.Name, d.Name + " is no longer " + string(d.Condition)
		}
	}
	return "", ""
}

// loseDeps ends the run with dependency-lost and, once it has ended (verified empty,
// so the two are never alive together), spawns its spec again, to wait for new runs
// of the dependency that was lost (stale: the one it had cannot meet it any more).
func (r *run) loseDeps(why string, stale map[string]string) {
	if !r.stop(DependencyLost) {
		return // it was ending already
	}
	r.change(EventCancel, DependencyLost.String()+": "+why, func(i *Info) { i.DependencyErr = why })
	<-r.done
	if r.sup.isClosed() {
		return
	}
	spec := r.spec
	spec.Stdout, spec.Stderr = nil, nil
	r.sup.spawn(spec, restoring{lost: stale}) // a spec that started once is valid
}

// WaitCondition blocks until the run meets cond (reached), or can never meet it (it
// ended otherwise), or ctx ends; it returns the run as it was then.
func (s *Supervisor) WaitCondition(ctx context.Context, id string, cond Condition) (Info, bool, error) {
	r, err := s.get(id)
	if err != nil {
		return Info{}, false, err
	}
	if _, err := ParseCondition(string(cond)); err != nil {
		return Info{}, false, err
	}
	if cond == CondReady && r.spec.Ready == nil {
		return Info{}, false, fmt.Errorf("%s: %w", id, ErrNoReadyProbe)
	}
	for {
		wake := s.deps.next()
		switch st, i := r.meets(cond); st {
		case depHeld:
			return i, true, nil
		case depFailed:
			return i, false, nil
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return r.snapshot(), false, ctx.Err()
		}
	}
}
