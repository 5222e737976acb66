package reaper

import (
	"context"
	"syscall"
	"time"
)

const (
	defaultSweep = 2 * time.Second
	defaultPoll  = 10 * time.Millisecond
	// firstPoll is the first interval for re-reading the stat of members that have no
	// pidfd to wait on; it doubles up to Target.Poll.
	firstPoll = time.Millisecond
	// fullScanEvery bounds how long the escalation waits on the known members' pidfds
	// before a full /proc scan looks for members forked meanwhile.
	fullScanEvery = 50 * time.Millisecond
)

// Terminate ends a run's session and the escapees attributed to it, with the one
// escalation for PTY and pipe runs alike:
//
//  1. snapshot the session (and Extra); nothing alive → VerifiedEmpty, no steps;
//  2. PTY: SIGHUP+SIGCONT to every group, as a terminal hang-up would (interactive
//     shells forward SIGHUP to their jobs; they ignore SIGTERM);
//  3. the stop signal to every group, SIGCONT after it when paused (a stopped process
//     cannot act on SIGTERM), and to Extra through verified pidfds;
//  4. poll until empty or Grace elapses; groups that appear meanwhile get the stop
//     signal too; ctx cancellation cuts the grace short;
//  5. SIGKILL every remaining group, every remaining member (after a fingerprint
//     re-check) and Extra;
//  6. sweep: re-scan and SIGKILL newcomers until verified empty or Sweep elapses.
//
// Zombies count as gone: the run root stays an unreaped zombie on purpose while this
// runs (WaitExited), pinning the session and group numbers. Corral's own session and
// group are never signalled; a Target naming them is refused in Report.Err.
// A session still not verified empty gets Target.Retries more passes (retry.go).
func Terminate(ctx context.Context, t Target) Report { return withRetries(ctx, t, terminateOnce) }

// terminateOnce is one pass of the escalation: of the run's cgroup on the cgroup
// backend (cgroupterm_linux.go), else of its session.
func terminateOnce(ctx context.Context, t Target) Report {
	if t.Cgroup != nil {
		return terminateCgroup(ctx, t)
	}
	e := newEscalation(ctx, t)
	defer e.release()
	e.run()
	return e.report()
}

// run performs the steps; e.empty says whether it verified the target empty.
func (e *escalation) run() {
	if e.err = e.validate(); e.err != nil {
		return
	}
	e.pinExtra()
	if e.err = e.rescan(); e.err != nil {
		return
	}
	if e.count() == 0 {
		e.empty = true
		return
	}
	if e.t.PTY {
		e.hangUp()
	}
	n := e.targets(true)
	e.stopNew()
	e.done(StepTerm, n)
	if e.empty = e.await(time.Now().Add(e.t.Grace), true, e.stopNew); e.empty {
		return
	}
	n = e.targets(true)
	e.kill()
	e.done(StepKill, n)
	e.empty = e.await(time.Now().Add(e.t.Sweep), false, e.kill) || e.verify()
}

// verify is the last full scan when the sweep ran out: it also refreshes what
// Report.Remaining lists.
func (e *escalation) verify() bool {
	err := e.rescan()
	e.note(err)
	return err == nil && e.count() == 0
}

// hangUp sends what a terminal hang-up sends to every group of the session; in claim
// mode, to each claimed member of the root's session through its pidfd.
func (e *escalation) hangUp() {
	n := e.targets(false)
	for _, g := range e.groups() {
		e.signalGroup(g, syscall.SIGHUP)
		e.signalGroup(g, syscall.SIGCONT)
	}
	for pid, x := range e.extra {
		if x.member {
			n++
			e.signalOne(pid, x, syscall.SIGHUP)
			e.signalOne(pid, x, syscall.SIGCONT)
		}
	}
	e.done(StepHup, n)
}

// stopNew sends the stop signal to every group and Extra that has not had it yet.
func (e *escalation) stopNew() {
	e.stopGroups()
	e.stopExtra()
}

// done records a performed step and tells Target.OnStep how many processes it
// targeted. No lock is held here: the escalation's state belongs to this goroutine.
func (e *escalation) done(step Step, targeted int) {
	e.steps = append(e.steps, step)
	if e.t.OnStep != nil {
		e.t.OnStep(step, targeted)
	}
}

// targets counts the processes a step signals: the live members and, withExtra, the
// live Extra that may be signalled (not those in Corral's own session or group).
func (e *escalation) targets(withExtra bool) int {
	n := len(e.live)
	if withExtra {
		for _, x := range e.extra {
			if !x.refused {
				n++
			}
		}
	}
	return n
}

// stopGroups sends the stop signal (and SIGCONT when paused) to every group with a
// live member that has not had it yet: the first time all of them, later only groups
// created during the grace period.
func (e *escalation) stopGroups() {
	for _, g := range e.groups() {
		if e.stopped[g] {
			continue
		}
		e.stopped[g] = true
		e.signalGroup(g, e.stopSignal())
		if e.t.Paused {
			e.signalGroup(g, syscall.SIGCONT)
		}
	}
}

// kill SIGKILLs every live group, then every member still running after that, by
// pidfd after re-checking its start time (a member may have moved to a group of its
// own since the scan), then Extra. Each process alive now counts as needing SIGKILL.
func (e *escalation) kill() {
	for pid, m := range e.live {
		e.hard[pid] = m.start
	}
	for pid, x := range e.extra {
		e.hard[pid] = x.fp.StartTime
	}
	for _, g := range e.groups() {
		e.signalGroup(g, syscall.SIGKILL)
	}
	// kill(-pgid) returns after the group's members have started dying; skip those
	// instead of re-reading the stat file of each.
	e.wait(0)
	for pid, m := range e.live {
		e.killMember(pid, m)
	}
	e.signalExtra(syscall.SIGKILL)
}

// await waits until the session has no live member and every Extra is gone (true), or
// until the deadline passes or, when cancellable, ctx is done (false; ctx is checked at
// least every Target.Poll). Exits are learned from pidfds; a full /proc scan runs when
// every tracked process has exited (to confirm, and to find members forked meanwhile)
// and at least every fullScanEvery. After each full scan that still finds processes,
// onMore runs to signal the newcomers. When time is up while tracked processes are
// still alive it returns without a scan: the next step scans anyway.
func (e *escalation) await(deadline time.Time, cancellable bool, onMore func()) bool {
	lastFull := time.Now()
	for {
		ended := !time.Now().Before(deadline) || (cancellable && e.ctx.Err() != nil)
		if e.count() > 0 {
			if ended {
				return false
			}
			if e.shared != nil {
				e.sleep(deadline, cancellable) // exits are learned from the next shared scan
			} else {
				e.pause(deadline, lastFull, cancellable)
				if e.count() > 0 && time.Since(lastFull) < fullScanEvery {
					continue
				}
			}
		}
		err := e.rescan()
		lastFull = time.Now()
		if err == nil && e.count() == 0 {
			return true
		}
		e.note(err)
		if ended {
			return false
		}
		if err != nil && e.shared != nil {
			e.sleep(deadline, cancellable)
		} else if err != nil {
			e.pause(deadline, time.Now(), cancellable) // do not spin on a failing /proc
		}
		onMore()
	}
}

// pause waits on the tracked pidfds until the next full scan is due, the deadline
// passes or, when cancellable, ctx is to be checked again.
func (e *escalation) pause(deadline, lastFull time.Time, cancellable bool) {
	d := min(time.Until(deadline), fullScanEvery-time.Since(lastFull))
	if cancellable {
		d = min(d, e.t.Poll)
	}
	if d > 0 {
		e.wait(d)
	}
}

func (e *escalation) stopSignal() syscall.Signal {
	if e.t.Stop == 0 {
		return syscall.SIGTERM
	}
	return e.t.Stop
}
