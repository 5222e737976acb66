package runs

import (
	"os"

	"corral/reaper"
)

// attribute does steps 1–3 and returns the escapees found per run.
func (d *escapeDetector) attribute(all []reaper.Proc) map[*run][]reaper.Proc {
	roots := map[int]*run{}
	byID := map[string]*run{}
	for _, r := range d.live() {
		if pid := r.rootPID(); pid != 0 {
			roots[pid], byID[r.id] = r, r
		}
	}
	seen := map[procKey]string{}
	found := map[*run][]reaper.Proc{}
	fam := reaper.NewFamily(all) // one index for every run's walks
	for pid, r := range roots {
		for _, p := range all {
			if p.SID == pid {
				seen[keyOf(p)] = r.id
			}
		}
		for _, p := range fam.Descendants(pid) {
			seen[keyOf(p)] = r.id
		}
		found[r] = append(found[r], fam.Escapees(pid, pid)...)
	}
	index := make(map[int]reaper.Proc, len(all))
	for _, p := range all {
		index[p.PID] = p
	}
	// Corral's children are taken from the scan itself (ppid = our pid): the same set
	// /proc/self/task/*/children lists, which would cost one more read per thread
	// (when Corral still had a thread per run blocked in waitid, reading them was a
	// tenth of idle CPU with 50 runs).
	// With a keeper, what leaves a run taken over from the server before this one is
	// reparented to the keeper (the roots' subreaper): its children count too, but for
	// this server itself (and the keeper reaps them, not us).
	self := os.Getpid()
	for _, p := range all {
		ours := p.PPID == self || (d.keeper > 1 && p.PPID == d.keeper && p.PID != self)
		if !ours || roots[p.PID] != nil || d.helpers[p.PID] {
			continue // not our child, or a run root or helper (its exec.Cmd reaps it)
		}
		if p.State == 'Z' || p.State == 'X' {
			reaper.ReapIfZombie(p.PID)
			continue
		}
		if d.reported[keyOf(p)] {
			continue // once ambiguous, never attributed later: see owner
		}
		r := d.owner(p, byID)
		if r == nil {
			d.reportUnattributed(p)
			continue
		}
		seen[keyOf(p)] = r.id
		if p.SID != r.rootPID() {
			found[r] = append(found[r], p)
			found[r] = append(found[r], fam.Descendants(p.PID)...)
		}
	}
	for k, id := range d.seen { // keep what we saw of processes still alive
		if p, ok := index[k.pid]; ok && keyOf(p) == k && seen[k] == "" {
			seen[k] = id
		}
	}
	d.seen = seen
	d.keepReported(index, fam)
	return found
}

// owner attributes a reparented child of Corral to one of its live runs: the run whose
// tree a scan saw it in; otherwise the one live run that can have started it
// (`setsid -f` reparents its child to Corral, the subreaper, before any scan sees it
// in the tree). Every child of Corral that is not a run root descends from a run
// (spawnMu), and a process cannot be older than the run it descends from, so the
// candidates are the live runs whose root started no later than p; exactly one means it
// is that run's. With several, p is reported, never signalled.
//
// The run id p inherited in its environment is not evidence here: any run can set
// another run's id on a child it detaches, and taking it at its word made the other
// run end ownership-escape. Only what the scans saw come from a run counts.
func (d *escapeDetector) owner(p reaper.Proc, byID map[string]*run) *run {
	if r := byID[d.seen[keyOf(p)]]; r != nil {
		return r
	}
	fp, err := reaper.Identify(p.PID)
	if err != nil || fp.StartTime != p.StartTime {
		return nil // gone, or no longer the process the scan saw
	}
	var only *run
	for _, r := range byID {
		r.mu.Lock()
		root := r.info.Fingerprint
		r.mu.Unlock()
		// A root not fingerprinted yet (started, not yet identified) cannot be ruled
		// out: it stays a candidate.
		if root.StartTime != 0 && !notBefore(fp, root) {
			continue
		}
		if only != nil {
			return nil
		}
		only = r
	}
	return only
}

// notBefore reports whether p may have been created after root. pidfs numbers its
// inodes in the order pids are allocated (Linux ≥ 6.9), which orders two processes
// exactly; start times count clock ticks, where a tie cannot be ordered and is allowed.
func notBefore(p, root reaper.Fingerprint) bool {
	if p.PidfsIno != 0 && root.PidfsIno != 0 {
		return p.PidfsIno > root.PidfsIno
	}
	return p.StartTime >= root.StartTime
}

// keepReported forgets reported processes that are gone and marks the descendants of
// those alive as reported too. An unattributed process stays unattributed, and so does
// what it forks: once the runs that could have started it have ended, a later run
// would otherwise be the only candidate left and inherit another run's leftovers.
func (d *escapeDetector) keepReported(index map[int]reaper.Proc, fam reaper.Family) {
	for k := range d.reported {
		p, ok := index[k.pid]
		if !ok || keyOf(p) != k {
			delete(d.reported, k)
			continue
		}
		for _, c := range fam.Descendants(k.pid) {
			d.reported[keyOf(c)] = true
		}
	}
}

func (d *escapeDetector) reportUnattributed(p reaper.Proc) {
	if d.reported[keyOf(p)] {
		return
	}
	d.reported[keyOf(p)] = true
	if d.reg != nil {
		argv, _ := reaper.ReadCmdline(p.PID) // display only
		d.reg.emit("escape-unattributed", "pid", p.PID, "sid", p.SID, "comm", p.Comm, "argv", argv,
			"detail", "reparented to Corral but not attributable to a run: reported, not signalled")
	}
}
