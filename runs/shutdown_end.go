package runs

import (
	"context"
	"slices"
	"sync"

	"corral/reaper"
)

// shutEnd is what a shutdown's one escalation of every run did to one run: its
// report, and the context of its grace (cut by a second stop of the run, or Hurry).
type shutEnd struct {
	rep   reaper.Report
	hurry context.Context
	cut   context.CancelFunc
	again bool // a stray or a live root was found after it: its finalizer passes again
}

// endAll ends the runs a shutdown stopped, all at once, once their finalizers are
// ready for it (ready[i] closed by rs[i]'s: its probes and agent stopped) and the
// shutdown's look for escapees was taken: every run's cgroup gets its stop signal
// before any grace is waited for, and one wait watches them all
// (reaper.TerminateMany). Each finalizer then goes on from that cleanup as from its
// own. A run the look did not reach (it failed), or whose finalizer was not ready by
// the shutdown's deadline, is left to its finalizer, which looks and ends it itself.
func (s *Supervisor) endAll(ctx context.Context, rs []*run, ready []chan struct{}) {
	// The shutdown's deadline cuts every grace, as it does the finalizers' own.
	defer context.AfterFunc(ctx, s.Hurry)()
	ends := make([]*run, 0, len(rs))
	for i, r := range rs {
		select {
		case <-ready[i]:
		default:
			select {
			case <-ready[i]:
			case <-ctx.Done(): // a finalizer held up: it ends its run itself
				continue
			}
		}
		r.mu.Lock()
		looked := r.lastLooked
		r.mu.Unlock()
		if looked {
			ends = append(ends, r)
		}
	}
	if len(ends) == 0 {
		return
	}
	targets := make([]reaper.Target, len(ends))
	ctxs := make([]context.Context, len(ends))
	done := make([]*shutEnd, len(ends))
	roots := make([]int, len(ends))
	for i, r := range ends {
		roots[i] = r.rootPID()
	}
	reap := s.escapes.reapable(roots) // the members that exited, reaped through their pidfds
	for i, r := range ends {
		// The grace of this cleanup is cut by a cancel from now on (a second kill).
		hurry, cut := context.WithCancel(s.hurry)
		done[i] = &shutEnd{hurry: hurry, cut: cut}
		ctxs[i] = hurry
		r.mu.Lock()
		r.cutGrace = cut
		r.mu.Unlock()
		targets[i] = r.target()
		targets[i].Reap = reap
		if step := targets[i].OnStep; step != nil {
			targets[i].OnStep = func(st reaper.Step, n int) {
				if st == reaper.StepTerm { // its exiting record is held from its grace on
					r.mu.Lock()
					r.holdLocked()
					r.mu.Unlock()
				}
				step(st, n)
			}
		}
	}
	reps := reaper.TerminateMany(ctxs, targets)
	s.escapes.reapAllExited(reps, roots) // what each cleanup ended, reaped: its finalizer does not
	// What a member moved out of its cgroup and left behind as it died (strayIn), for
	// every run from one look at Corral's children taken after every cleanup, not a
	// look each; and whether the root lives on, from the same look (the root is one of
	// Corral's children: a thousand reads of the roots' stat in a row were read again
	// there), read on its own only for a root the look did not list. A run with either
	// is passed again by its finalizer. Asked on a few goroutines; the finalizer of a
	// run found with neither does not read its root again.
	// A root the cleanup saw exit (its pidfd said so: Report.Dead) is dead for good, a
	// zombie of Corral's that pins its pid: the look does not read it, nor is it read
	// on its own. Not an adopted or resumed run's: its root is the keeper's child, whose
	// pid is free once it is reaped there, and may be one of Corral's children's by then.
	dead := make([]bool, len(ends))
	deadRoots := map[int]bool{}
	for i, r := range ends {
		if root := roots[i]; root != 0 && r.rootIsChild() && slices.Contains(reps[i].Dead, root) {
			dead[i], deadRoots[root] = true, true
		}
	}
	kids := sync.OnceValue(func() childLook { return childProcsBut(deadRoots) })
	children := func() []reaper.Proc { return kids().live }
	eachOf(len(ends), func(i int) {
		if r, rep := ends[i], reps[i]; r.cgroup != nil && rep.VerifiedEmpty {
			done[i].again = r.strayIn(children) > 0 || (!dead[i] && r.rootLivesIn(kids()))
		}
	})
	for i, r := range ends {
		done[i].rep = reps[i]
		r.mu.Lock()
		r.shutEnded = done[i]
		r.holdLocked() // and once more now its cleanup is done: its exited record is near
		r.mu.Unlock()
	}
}

// childLook is Corral's children as one look read them: every one with its stat
// (zombies too), and the live ones.
type childLook struct {
	all  map[int]reaper.Proc // by pid
	live []reaper.Proc
}

// childProcs reads Corral's children (liveChildren, with the zombies kept apart): their
// stats on a few goroutines, a thousand of them after a shutdown's cleanups.
func childProcs() childLook { return childProcsBut(nil) }

// childProcsBut is childProcs without the children skip names, known dead (zombies
// whose pid they pin): their stats are not read, and the look lists them nowhere.
func childProcsBut(skip map[int]bool) childLook {
	pids := reaper.Children()
	if len(skip) > 0 {
		pids = slices.DeleteFunc(pids, func(pid int) bool { return skip[pid] })
	}
	procs := make([]reaper.Proc, len(pids))
	read := make([]bool, len(pids))
	if len(pids) < 64 {
		for i, pid := range pids {
			p, err := reaper.ReadProc(pid)
			procs[i], read[i] = p, err == nil
		}
	} else {
		eachOf(len(pids), func(i int) {
			p, err := reaper.ReadProc(pids[i])
			procs[i], read[i] = p, err == nil
		})
	}
	c := childLook{all: make(map[int]reaper.Proc, len(pids))}
	for i, p := range procs {
		if !read[i] {
			continue
		}
		c.all[p.PID] = p
		if p.State != 'Z' && p.State != 'X' {
			c.live = append(c.live, p)
		}
	}
	return c
}

// rootLivesIn is rootLives from kids, a look at Corral's children taken after the
// cleanup: a root it listed (by pid and start time) lives unless it is a zombie; one
// it did not list (not Corral's child, or missed: the children files are no
// snapshot of a changing list) is read on its own.
func (r *run) rootLivesIn(kids childLook) bool {
	r.mu.Lock()
	f := r.info.Fingerprint
	r.mu.Unlock()
	if f.PID == 0 {
		return false
	}
	if p, ok := kids.all[f.PID]; ok && p.StartTime == f.StartTime {
		return p.State != 'Z' && p.State != 'X'
	}
	return r.rootLives()
}
