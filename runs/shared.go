package runs

import (
	"fmt"
	"slices"

	"corral/reaper"
)

// Daemons runs share. codex starts one `codex app-server` per CODEX_HOME, out of its
// session, and every codex of that home connects to it over a unix socket: the run that
// started it owns it, and ending it with that run ended every other codex in the same
// millisecond ("remote app server … transport failed"). So before a run's cleanup, a
// process of it outside its root's session that a live run of this Corral is connected
// to (a socket whose peer a process of that run holds) passes to that run with what it
// started: into its cgroup, or among its escapees on sessions. It is shown as shared
// there, and ends with the last run that uses it.

// handOver passes r's shared daemons to the runs that use them, and names them for
// r's cleanup report. Called by finalize before the escalation, which then no longer
// reaches them.
func (r *run) handOver() []EndedProcess {
	mine := r.daemons()
	if len(mine) == 0 {
		return nil
	}
	users := r.sup.socketUsers(r)
	if len(users) == 0 {
		return nil
	}
	peers, err := reaper.SocketPeers()
	if err != nil {
		r.sup.reg.emit("shared-error", "run_id", r.id, "err", err.Error())
		return nil
	}
	var passed []EndedProcess
	for _, p := range mine {
		for _, ino := range reaper.SocketInodes(p.PID) {
			if to := users[peers[ino]]; to != nil {
				for _, e := range r.passTo(to, withDescendants(p, mine)) {
					passed = append(passed, EndedProcess{PID: e.PID, StartTime: e.StartTime, Argv: e.Argv,
						How: EndedPassedOn, To: to.id})
				}
				break
			}
		}
	}
	return passed
}

// daemons are r's processes outside its root's session: its cgroup's other members,
// or its escapees on sessions. A member of the root's own session is never passed on:
// on sessions its group is what the escalation signals.
func (r *run) daemons() []reaper.Proc {
	root := r.rootPID()
	var pids []int
	if r.cgroup != nil {
		pids, _ = r.cgroup.Procs()
	} else {
		r.mu.Lock()
		for _, e := range r.escapees {
			pids = append(pids, e.PID)
		}
		r.mu.Unlock()
	}
	var out []reaper.Proc
	for _, pid := range pids {
		if p, err := reaper.ReadProc(pid); err == nil && p.SID != root && p.State != 'Z' {
			out = append(out, p)
		}
	}
	return out
}

// socketUsers maps the socket inodes held by the processes of every other live run of
// the same backend to that run.
func (s *Supervisor) socketUsers(from *run) map[uint64]*run {
	users := map[uint64]*run{}
	for _, o := range s.liveRuns() {
		if o == from || o.rootPID() == 0 || (o.cgroupOf() == nil) != (from.cgroupOf() == nil) || o.ctx.Err() != nil {
			continue // not started (waiting on dependencies), ending, or owned another way: nothing to pass to
		}
		for _, pid := range o.processes() {
			for _, ino := range reaper.SocketInodes(pid) {
				users[ino] = o
			}
		}
	}
	return users
}

// processes are the run's live processes: its cgroup's members, or its session's and
// its escapees.
func (r *run) processes() []int {
	if r.cgroup != nil {
		pids, _ := r.cgroup.Procs()
		return pids
	}
	var pids []int
	if members, err := reaper.Session(r.rootPID()); err == nil {
		for _, p := range members {
			pids = append(pids, p.PID)
		}
	}
	r.mu.Lock()
	for _, e := range r.escapees {
		pids = append(pids, e.PID)
	}
	r.mu.Unlock()
	return pids
}

// withDescendants is p and the processes of among descended from it.
func withDescendants(p reaper.Proc, among []reaper.Proc) []reaper.Proc {
	out := []reaper.Proc{p}
	for i := 0; i < len(out); i++ {
		for _, q := range among {
			if q.PPID == out[i].PID && !slices.ContainsFunc(out, func(x reaper.Proc) bool { return x.PID == q.PID }) {
				out = append(out, q)
			}
		}
	}
	return out
}

// passTo moves procs from r to to: into to's cgroup, or from r's escapees to to's. A
// run that has begun to end takes nothing: its escalation may have listed its members
// already, and what it took then would outlive it (they stay r's, and end with it).
func (r *run) passTo(to *run, procs []reaper.Proc) []Escapee {
	moved := to.take(procs, r)
	if len(moved) > 0 {
		r.forget(moved, to)
	}
	return moved
}

// take makes procs, passed on by from, this run's, unless it is ending; it returns
// those it took. Under mu, which its finalizer takes to say it is ending.
func (to *run) take(procs []reaper.Proc, from *run) []Escapee {
	to.mu.Lock()
	defer to.mu.Unlock()
	if to.ending {
		return nil
	}
	var moved []Escapee
	for _, p := range procs {
		fp, err := reaper.Identify(p.PID)
		if err != nil || fp.StartTime != p.StartTime {
			continue // gone meanwhile
		}
		if to.cgroup != nil {
			if err := to.cgroup.Take(p.PID); err != nil {
				to.sup.reg.emit("shared-error", "run_id", from.id, "pid", p.PID, "err", err.Error())
				continue
			}
		}
		argv, _ := reaper.ReadCmdline(p.PID)
		moved = append(moved, Escapee{Fingerprint: fp, Argv: argv})
	}
	if len(moved) > 0 {
		to.shareLocked(moved, from)
	}
	return moved
}

// forget drops passed processes from r's escapees: its escalation must not reach them.
func (r *run) forget(moved []Escapee, to *run) {
	r.mu.Lock()
	defer r.mu.Unlock()
	// A new slice: a record written behind holds the old one (liveEscapees).
	r.escapees = slices.DeleteFunc(slices.Clone(r.escapees), func(e Escapee) bool {
		return slices.ContainsFunc(moved, func(m Escapee) bool { return m.Fingerprint == e.Fingerprint })
	})
	r.changeLocked(EventShared, fmt.Sprintf("passed %s to %s, which is connected to it", escapeDetail(moved), to.id), func(i *Info) {
		i.Escapees = len(r.escapees)
	})
	r.persistLocked()
}

// shareLocked records processes another run passed on: they are this run's now, shown
// as shared, ended with it (or passed on again). The caller holds r.mu.
func (r *run) shareLocked(moved []Escapee, from *run) {
	if r.cgroup == nil {
		r.escapees = append(r.escapees, moved...)
	}
	r.shared = append(r.shared, moved...)
	r.changeLocked(EventShared, fmt.Sprintf("took %s from %s (it is connected to it)", escapeDetail(moved), from.id),
		func(i *Info) { i.Escapees, i.Shared = len(r.escapees), len(r.shared) })
	r.persistLocked()
}
