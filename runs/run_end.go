package runs

import (
	"context"
	"corral/runs/workspace"
	"errors"
	"os/exec"
	"slices"
	"syscall"

	"corral/reaper"
)

// The end of a started run: its monitor, the one finalizer, the escalation it asks
// reaper for, and the exit status it records.

// monitor waits for the root to exit or the run to be cancelled, then finalizes.
// waitExit blocks until the root has exited: for our own child without reaping it
// (reaper.WaitExited, so the pid stays pinned); for an adopted run through a pidfd.
//
// It is one goroutine per run, parked in waitExit: a cancel that comes first starts
// the finalizer on a goroutine of its own (context.AfterFunc), which waits for the
// exit through exited as the cleanup ends the root.
func (r *run) monitor(waitExit func()) {
	exited := make(chan struct{})
	stop := context.AfterFunc(r.ctx, func() { r.finalize(exited) })
	waitExit()
	close(exited)
	if stop() { // the exit came first
		r.observeExit()
		r.finalize(exited)
	}
}

// waitChild waits for the run's own root to exit, leaving it unreaped. An error means
// the child is not waitable (already reaped), which is exited all the same.
func (r *run) waitChild() { _ = reaper.WaitExited(r.proc.PID()) }

// finalize runs once per started run: terminate what is left of the session (all of
// it on a cancel; stragglers when the root exited on its own), reap the root, drain
// the output within its bound, and record the result.
func (r *run) finalize(exited <-chan struct{}) {
	if r.sup.detached.Load() {
		return // handed over: the next server finalizes it, with the real status
	}
	r.once.Do(func() {
		if h := r.sup.finalizeHook; h != nil {
			h(r.id) // before the watchdog stops, so tests can race a deadline here
		}
		r.mu.Lock()
		r.ending = true
		shutLook, ready := r.shutLook, r.shutReady
		r.shutReady = nil // closed once, by this attempt's finalizer
		r.mu.Unlock()
		r.stopProbes() // an exec probe in flight is the attempt's: gone before its cleanup
		r.wd.Stop()
		r.stopAgent()
		if shutLook != nil {
			if ready != nil {
				close(ready)
			}
			<-shutLook // the shutdown's look (and end), taken after this run was stopped
		}
		r.mu.Lock()
		looked, ended := r.lastLooked, r.shutEnded
		r.shutEnded = nil
		r.mu.Unlock()
		var rep reaper.Report
		var passed []EndedProcess
		// The grace of this cleanup is cut by a cancel from now on (a second kill).
		hurry, cut := context.WithCancel(r.sup.hurry)
		defer cut()
		if ended != nil {
			// Ended by the shutdown with every other run (endAll), after its look, with
			// the grace endAll gave it. Nothing is handed over: every run is ending.
			rep, hurry = ended.rep, ended.hurry
			defer ended.cut()
			r.mu.Lock()
			r.cutGrace = ended.cut
			r.mu.Unlock()
			select { // a cancel that came before or during that cleanup was for it
			case <-r.again:
			default:
			}
		} else {
			switch {
			case looked: // a shutdown looked for every run at once
			case r.cgroup != nil:
				r.lookOutside() // a last look for what left the cgroup before it is ended
			default:
				r.sup.escapes.lastLook() // a last look for escapees before the session is ended
			}
			passed = r.handOver() // a daemon another run is connected to goes on, with that run
			r.mu.Lock()
			r.cutGrace = cut
			r.mu.Unlock()
			select { // a cancel that came before the cleanup is this cleanup
			case <-r.again:
			default:
			}
			rep = reaper.Terminate(hurry, r.target())
			r.mu.Lock()
			r.holdLocked() // its exited record is near
			r.mu.Unlock()
		}
		if ended == nil { // else reaped with every run's (endAll)
			r.sup.escapes.reapExited(rep.Exited, r.rootPID())
		}
		// Verified empty only when nothing carrying the run's secret lives outside its
		// cgroup either (one moved out by a member that the cleanup has just ended), and
		// the root does not live on (it left the cgroup as it was signalled: the pass,
		// which found it a member, ended only the cgroup).
		shutLooked := ended != nil // after the cleanup the shutdown looked for every run at once
		rootDead := false          // the root was found dead after the last pass (endAll): not read again
		stray := func() bool {
			if shutLooked {
				shutLooked = false
				rootDead = !ended.again
				return ended.again
			}
			return r.strayAfterCleanup() > 0 || r.rootLives()
		}
		for try := 0; try < endRetries && r.cgroup != nil && rep.VerifiedEmpty && stray(); try++ {
			more := reaper.Terminate(hurry, r.target())
			r.sup.escapes.reapExited(more.Exited, r.rootPID())
			rep = addPass(rep, more)
			rootDead = false
		}
		if r.cgroup != nil && rep.VerifiedEmpty && !rootDead && r.rootLives() {
			rep.VerifiedEmpty = false // a second cancel runs the escalation again
		}
		r.mu.Lock()
		r.cutGrace = nil
		r.mu.Unlock()
		if hurry.Err() != nil && r.sup.hurry.Err() == nil {
			select { // the cancel that cut the grace was for this cleanup
			case <-r.again:
			default:
			}
		}
		r.change(EventCleanup, cleanupDetail(rep), func(i *Info) {
			i.Cleanup = cleanupOf(rep)
			i.Cleanup.Ended = append(i.Cleanup.Ended, passed...)
		})
		r.sup.countCleanup(rep)
		r.awaitRoot(exited, rep)
		var werr error
		var forced bool
		if r.cmd != nil {
			r.reaping.Store(true)
			werr = r.cmd.Wait() // the one place this run's root is reaped (a resumed one's: its keeper)
		}
		r.unkeep() // the keeper's copies go before ours, so the last close hangs up
		if r.proc != nil {
			forced = r.proc.FinishOutput(r.sup.cfg.Drain)
			r.proc.Close()
		}
		r.closeTranscripts()
		r.compactScreen()
		r.dropCgroup(rep.VerifiedEmpty)
		r.finish(werr, forced, r.endDiffer())
	})
}

// compactScreen gives back a big screen's cells once nothing is written to it: the
// ended run's screen is kept at what it holds (screen.Compact), what the UI shows of
// it unchanged. Only a big one (bigScreen cells, a run resized far past any window):
// a screen of a terminal's size is kept as it was, its blank rows with it.
func (r *run) compactScreen() {
	if r.screen == nil {
		return
	}
	if cols, rows := r.screen.Size(); cols*rows < bigScreen {
		return
	}
	if fc, fr, c, rw := r.screen.Compact(); fc*fr >= bigScreen && c*rw < fc*fr {
		freeMemory() // the big screen's cells are garbage now
	}
}

// awaitRoot waits for the root to exit after the cleanup. A cancel meanwhile (a second
// kill: the first did not end the run) runs the escalation again, with what is known
// of the run by then, and adds what it did to the cleanup.
func (r *run) awaitRoot(exited <-chan struct{}, rep reaper.Report) {
	for {
		select {
		case <-exited:
			return
		case <-r.again:
		}
		select {
		case <-exited: // it ended meanwhile: nothing to do again
			return
		default:
		}
		if r.cgroup != nil {
			r.lookOutside()
		} else {
			r.sup.escapes.scan()
		}
		hurry, cut := context.WithCancel(r.sup.hurry) // a cancel meanwhile cuts its grace too
		r.mu.Lock()
		r.cutGrace = cut
		r.mu.Unlock()
		more := reaper.Terminate(hurry, r.target())
		r.mu.Lock()
		r.cutGrace = nil
		r.mu.Unlock()
		cut()
		r.sup.escapes.reapExited(more.Exited, r.rootPID())
		rep = addPass(rep, more)
		if r.cgroup != nil && rep.VerifiedEmpty && r.rootLives() {
			rep.VerifiedEmpty = false
		}
		r.change(EventCleanup, cleanupDetail(rep)+" (again)", func(i *Info) {
			passed := slices.DeleteFunc(slices.Clone(i.Cleanup.Ended), func(e EndedProcess) bool { return e.How != EndedPassedOn })
			i.Cleanup = cleanupOf(rep)
			i.Cleanup.Ended = append(i.Cleanup.Ended, passed...)
		})
		r.sup.countCleanup(more)
	}
}

// rootLives reports whether the run's root is alive after a cleanup of its cgroup
// that found the cgroup empty: it left the cgroup (to another one, as root may move
// any process) while the cleanup was ending it, so the cgroup's kill did not reach it.
// One read of its stat; the root's own exit is seen by its monitor a moment later.
func (r *run) rootLives() bool {
	r.mu.Lock()
	f := r.info.Fingerprint
	r.mu.Unlock()
	if f.PID == 0 {
		return false
	}
	p, err := reaper.ReadProc(f.PID)
	return err == nil && p.StartTime == f.StartTime && p.State != 'Z' && p.State != 'X'
}

// addPass adds a later pass of the escalation to the report of those before it: what
// it ended adds up, what it verified and what is left are its own.
func addPass(rep, more reaper.Report) reaper.Report {
	rep.Killed += more.Killed
	rep.Hard += more.Hard
	rep.VerifiedEmpty, rep.Remaining = more.VerifiedEmpty, more.Remaining
	rep.Exited = append(rep.Exited, more.Exited...)
	rep.Ended = append(rep.Ended, more.Ended...)
	if len(rep.Ended) > reaper.MaxNamed {
		rep.Ended = rep.Ended[:reaper.MaxNamed]
	}
	for _, s := range more.Steps {
		if !slices.Contains(rep.Steps, s) {
			rep.Steps = append(rep.Steps, s)
		}
	}
	return rep
}

// endRetries: a run's session not verified empty (a member stuck in uninterruptible
// sleep, a failed /proc read) gets two more passes of the escalation before the run
// is recorded as it is.
const endRetries = 2

// target is the escalation that ends the run's session.
func (r *run) target() reaper.Target {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.nameEscapeesLocked()
	cfg := r.sup.cfg
	t := reaper.Target{SID: r.info.PID, PTY: r.spec.PTY, Stop: r.spec.StopSignal,
		Paused: r.info.Paused, Grace: r.spec.Grace, Sweep: cfg.Sweep, Poll: cfg.Poll,
		Extra: fingerprints(r.escapees), OnStep: r.sup.stepLogger(r.id), Retries: endRetries,
		Cgroup: r.cgroup}
	if r.cgroup != nil {
		// Ended beside the cgroup if it is not in it (moved out), or alone if the
		// cgroup is gone.
		t.Root = r.info.Fingerprint
	}
	if r.info.Adopted || r.unpinned() {
		// Not our child: no zombie pins its numbers, so only what is provably the
		// run's is signalled, each through a pidfd checked after the pin (a reused pid
		// is never signalled). On the cgroup backend, for what is outside the cgroup.
		c := r.claim()
		t.Claim = &c
	}
	return t
}

// finish records the exit status and moves the run to exited.
func (r *run) finish(werr error, forced bool, diff *workspace.Stat) {
	setupErr := r.setupFailed()
	r.mu.Lock()
	defer r.mu.Unlock()
	code, sig := exitStatus(r.cmd, werr)
	if ws, ok := r.keptStatus(); ok {
		code, sig = waitStatus(ws)
	}
	i := &r.info
	i.ExitCode, i.Signal = code, sig
	if i.Reason == Exit && sig != 0 {
		i.Reason = Signal // killed by a signal Corral did not send
	}
	if i.Reason == Exit && setupErr != "" {
		i.Reason, i.SetupErr = SetupError, setupErr
	}
	i.EndedAt = r.sup.clock.Now()
	i.Cleanup.OutputForced = forced
	i.Paused = false
	if diff != nil {
		i.Diff = diff
	}
	if r.restartLocked() { // a service's next attempt follows: the run has not ended
		return
	}
	r.moveLocked(Exited, nil)
	r.changeLocked(EventExit, r.info.Reason.String(), nil)
	r.sup.countExit(r.info.Reason)
	r.doneLocked()
}

// exitStatus reads the root's exit code or fatal signal.
func exitStatus(cmd *exec.Cmd, werr error) (*int, int) {
	if cmd == nil {
		return nil, 0 // adopted: not our child, its status is not ours to know
	}
	ps := cmd.ProcessState
	if ps == nil {
		return nil, 0
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return nil, int(ws.Signal())
	}
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) {
		return nil, 0
	}
	code := ps.ExitCode()
	return &code, 0
}

// waitStatus reads an exit code or a fatal signal from a wait status.
func waitStatus(ws syscall.WaitStatus) (*int, int) {
	if ws.Signaled() {
		return nil, int(ws.Signal())
	}
	code := ws.ExitStatus()
	return &code, 0
}

func cleanupOf(rep reaper.Report) Cleanup {
	c := Cleanup{Steps: rep.Steps, Killed: rep.Killed, Hard: rep.Hard,
		VerifiedEmpty: rep.VerifiedEmpty, Remaining: len(rep.Remaining)}
	for _, n := range rep.Ended {
		how := EndedMember
		if n.Outside {
			how = EndedEscapee
		}
		c.Ended = append(c.Ended, EndedProcess{PID: n.PID, StartTime: n.StartTime, Argv: capArgv(n.Argv), How: how})
	}
	slices.SortFunc(c.Ended, func(a, b EndedProcess) int { return a.PID - b.PID })
	return c
}

// capArgv cuts a command line kept in a record for display after endedArgv bytes: a
// hundred processes with codex's 1.5 kB shell snapshot each would swell every read
// of the record.
func capArgv(argv []string) []string {
	n := 0
	for i, a := range argv {
		if n+len(a) > endedArgv {
			out := slices.Clone(argv[:i])
			cut := []rune(a)
			return append(out, string(cut[:min(len(cut), max(endedArgv-n, 0))])+"…")
		}
		n += len(a)
	}
	return argv
}

const endedArgv = 256

func cleanupDetail(rep reaper.Report) string {
	if rep.VerifiedEmpty {
		return "verified empty"
	}
	return "not verified empty"
}
