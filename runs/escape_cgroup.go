package runs

import (
	"os"

	"corral/reaper"
)

// Escapes on the cgroup backend. A run's cgroup subtree holds what leaves its
// session, but a process can leave the subtree itself: root (as these runs often
// are) may write any pid into another cgroup's cgroup.procs, and a cgroup can be
// emptied and removed from outside. Such a process is an escapee like one that left
// a session on the session backend, and it is found the same way: it descends (by
// parent pid) from the run's root or from a member, or it carries the run's secret
// (an orphan reparented to Corral, the subreaper, or anything found at the run's
// end), and it is in no cgroup of the run's subtree. It is reported with its pid and
// command line, persisted, ended with the run (beside the cgroup, through a pidfd
// verified against its fingerprint) and, under policy fail, ends the run.

// scanContained is the escape scan on the cgroup backend: one snapshot for every
// live run in a cgroup, on the ticks the pacer finds due (something forked).
func (d *escapeDetector) scanContained() {
	d.mu.Lock()
	defer d.mu.Unlock()
	// Nothing under the base ran since the last due tick (the runs of every server
	// on the machine that share it): one read, and no run's cgroup is looked at.
	if d.base != nil {
		cpu, err := d.base.CPU()
		if err == nil && cpu != 0 && cpu == d.baseCPU {
			return
		}
		d.baseCPU = 0
		if err == nil {
			d.baseCPU = cpu
		}
	}
	var look []*run
	for _, r := range d.live() {
		r.mu.Lock()
		ending := r.ending // its finalizer looks once more, then hands over
		cg := r.cgroup     // set while a run waiting on dependencies starts (under mu)
		r.mu.Unlock()
		if cg == nil || ending {
			continue
		}
		// A run whose cgroup has not run since the last look cannot have forked, or
		// moved a process out (both are work of a member): an idle run costs one read,
		// and a server of idle runs no /proc scan, however much the machine forks. A
		// process moved out from outside the run is found at its next activity or
		// by the last look at its end.
		if cpu, err := r.cgroup.CPU(); err == nil && cpu != 0 && cpu == r.lookedCPU {
			continue
		} else if err == nil {
			r.lookedCPU = cpu
		} else {
			r.lookedCPU = 0
		}
		look = append(look, r)
	}
	if len(look) == 0 {
		return // no /proc scan for nothing
	}
	all, err := reaper.ListAll()
	if err != nil {
		for _, r := range look {
			r.lookedCPU = 0 // not looked at: the next due tick does
		}
		d.baseCPU = 0
		return
	}
	index := indexOf(all)
	owners := runPIDs(d.live(), true)
	for _, r := range look {
		if left := r.outsideCgroup(all, index, d.keeper, owners); len(left) > 0 {
			r.noteEscapees(left)
		}
	}
}

// lookOutside is the last look for a cgroup run's escapees before its cleanup (as the
// session backend's last scan): every process of the run outside its subtree. It
// returns how many it found that were not its escapees yet.
func (r *run) lookOutside() int {
	if r.cgroup == nil {
		return 0
	}
	snap := r.sup.looks.procs.Get()
	all, err := snap.all, snap.err
	if err != nil {
		return 0
	}
	keeper := 0
	if r.sup.escapes != nil {
		keeper = r.sup.escapes.keeper
	}
	left := r.outsideCgroup(all, indexOf(all), keeper, runPIDs(r.sup.liveRuns(), false))
	if len(left) > 0 {
		r.noteEscapees(left)
	}
	return len(left)
}

// strayAfterCleanup looks, after the cleanup, for what a member moved out of the
// cgroup and left behind as it died: such a process is reparented to Corral (the
// subreaper), so Corral's children that carry the run's secret, outside the cgroup,
// are all there is to read (not a /proc scan). It makes them escapees and returns how
// many.
func (r *run) strayAfterCleanup() int {
	return r.strayIn(r.sup.looks.children.Get)
}

// strayIn is strayAfterCleanup with Corral's live children from children (a look
// that began after the cleanup), asked only when the run has a cgroup and a secret.
func (r *run) strayIn(children func() []reaper.Proc) int {
	r.mu.Lock()
	root, secret := r.info.PID, r.secret
	r.mu.Unlock()
	if r.cgroup == nil || secret == "" {
		return 0
	}
	claim := reaper.Claim{EnvKey: RunSecretEnv, EnvValue: secret}
	var left []reaper.Proc
	var roots map[procKey]bool
	for _, p := range children() {
		pid := p.PID
		if pid == root {
			continue
		}
		if roots == nil {
			roots = r.sup.otherRoots(r)
		}
		// Another run's root carries that run's secret, never this one's: its environ
		// is not read (a thousand runs ending read each other's, a million reads).
		if roots[keyOf(p)] || reaper.Owned(pid, claim) != nil {
			continue
		}
		if dir, err := reaper.CgroupOf(pid); err != nil || r.cgroup.Contains(dir) || r.sup.anotherRuns(r, dir) {
			continue
		}
		left = append(left, p)
	}
	if len(left) > 0 {
		r.noteEscapees(left)
	}
	return len(left)
}

// anotherRuns reports whether the cgroup directory dir is in the cgroup of another
// live run of this supervisor: a process there is that run's (a shared daemon passed
// on to it, or anything moved into it), owned and ended with it, no escapee of r.
func (s *Supervisor) anotherRuns(r *run, dir string) bool {
	for _, o := range s.liveRuns() {
		if cg := o.cgroupOf(); o != r && cg != nil && cg.Contains(dir) {
			return true
		}
	}
	return false
}

func indexOf(all []reaper.Proc) map[int]int {
	index := make(map[int]int, len(all))
	for i, p := range all {
		index[p.PID] = i
	}
	return index
}

// runPIDs maps the root of each run of runs to its run and, withMembers, the members
// of each run's cgroup too (one read of its cgroup.procs per cgroup). The escape look
// skips another run's process before it reads anything of it: the roots of the other
// runs are Corral's children too, and reading the environment of every one of them
// for each run's look cost an idle server with 50 runs 14 % of a core, on every tick a
// fork anywhere on the machine made due.
func runPIDs(runs []*run, withMembers bool) map[int]*run {
	owners := make(map[int]*run, len(runs))
	for _, r := range runs {
		r.mu.Lock()
		root, cg := r.info.PID, r.cgroup
		r.mu.Unlock()
		if root > 0 {
			owners[root] = r
		}
		if withMembers && cg != nil {
			pids, _ := cg.Procs()
			for _, pid := range pids {
				owners[pid] = r
			}
		}
	}
	return owners
}

// outsideCgroup returns the run's live processes, on snapshot all, that are not in its
// cgroup's subtree (none of them its root, which its cleanup ends beside the cgroup
// wherever it is): the descendants of its root and of its members, and the children
// of Corral (or its keeper) that carry the run's secret. That is every process the run
// made: one whose parents died is reparented to the nearest live subreaper above it,
// which is the run's or Corral. With the cgroup gone (removed from outside), the
// root's session is the run's as on the session backend, and what descends from it
// outside that session is escaped.
// A process owners gives to another run (its root, a member of its cgroup) is not
// looked at: it is that run's.
func (r *run) outsideCgroup(all []reaper.Proc, index map[int]int, keeper int, owners map[int]*run) []reaper.Proc {
	return r.outsideCgroupOf(all, all, index, keeper, owners)
}

// outsideCgroupOf is outsideCgroup looking only at the processes cands of all: those
// that may be the run's (candidates).
func (r *run) outsideCgroupOf(cands, all []reaper.Proc, index map[int]int, keeper int, owners map[int]*run) []reaper.Proc {
	pids, err := r.cgroup.Procs()
	return r.outsideCgroupIn(cands, all, index, keeper, owners, pids, err)
}

// outsideCgroupIn is outsideCgroupOf with the cgroup's members (or the error reading
// them) as already read: a shutdown's look read every run's members once, before its
// snapshot all (which leaves them out), and does not read them again for each run. A
// process forked into the subtree after they were read is told by its own cgroup.
func (r *run) outsideCgroupIn(cands, all []reaper.Proc, index map[int]int, keeper int, owners map[int]*run, pids []int, err error) []reaper.Proc {
	gone := reaper.IsGone(err)
	if err != nil && !gone {
		return nil
	}
	if gone && r.cgroupGone.CompareAndSwap(false, true) {
		r.sup.reg.emit("cgroup-error", "run_id", r.id, "err", "the run's cgroup "+r.cgroup.Path+
			" was removed from outside", "fallback", "session")
	}
	in := make(map[int]bool, len(pids))
	for _, pid := range pids {
		in[pid] = true
	}
	r.mu.Lock()
	root, rootStart, secret := r.info.PID, r.info.Fingerprint.StartTime, r.secret
	known := make(map[reaper.Fingerprint]bool, len(r.escapees))
	for _, e := range r.escapees {
		known[reaper.Fingerprint{PID: e.PID, StartTime: e.StartTime}] = true
	}
	r.mu.Unlock()
	if root == 0 {
		return nil
	}
	self := os.Getpid()
	claim := reaper.Claim{EnvKey: RunSecretEnv, EnvValue: secret}
	var out []reaper.Proc
	for _, p := range cands {
		if in[p.PID] || p.PID == root || p.PID == self || p.State == 'Z' || p.State == 'X' ||
			p.StartTime < rootStart || (gone && p.SID == root) || known[reaper.Fingerprint{PID: p.PID, StartTime: p.StartTime}] {
			continue
		}
		if o := owners[p.PID]; o != nil && o != r {
			continue
		}
		ours := descends(p, all, index, func(pid int) bool { return pid == root || in[pid] })
		if !ours && secret != "" && (p.PPID == self || (keeper > 1 && p.PPID == keeper)) {
			ours = reaper.Owned(p.PID, claim) == nil
		}
		if !ours {
			continue
		}
		dir, err := reaper.CgroupOf(p.PID)
		if err != nil || (!gone && r.cgroup.Contains(dir)) {
			continue // gone, or forked after the subtree was read: in it, unless it left since
		}
		if r.sup.anotherRuns(r, dir) {
			continue // passed on (a shared daemon) or moved into another run: that run's now
		}
		out = append(out, p)
	}
	return out
}

// descends reports whether p descends, by parent pid on the snapshot, from a process
// for which from is true.
func descends(p reaper.Proc, all []reaper.Proc, index map[int]int, from func(int) bool) bool {
	for range 64 { // a snapshot racing pid reuse may hold a cycle
		if p.PPID <= 1 {
			return false
		}
		if from(p.PPID) {
			return true
		}
		i, ok := index[p.PPID]
		if !ok {
			return false
		}
		p = all[i]
	}
	return false
}
