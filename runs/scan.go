package runs

import (
	"slices"

	"corral/reaper"
)

// procKey names one process for its lifetime: a pid and its start time.
type procKey struct {
	pid   int
	start uint64
}

func keyOf(p reaper.Proc) procKey { return procKey{p.PID, p.StartTime} }

// scanEscapes is the escape detector (DESIGN §3), run periodically and at every
// run's end. Under spawnMu — the lock that covers starting a process and registering
// it — so every child of Corral that is not a run root is known to be a reparented
// descendant:
//
//  1. it remembers which run every session member and descendant belongs to, so a
//     process that later leaves can still be attributed;
//  2. a descendant of a run's root in another session is an escapee of that run;
//  3. a child of Corral that is not a run root was reparented here (Corral is the
//     subreaper): a zombie is reaped by its exact pid; a live one is attributed by
//     what was seen in step 1, else by the run id it inherited in its environment;
//     in another session it is that run's escapee. One that cannot be attributed is
//     reported once and never signalled.
func (s *Supervisor) scanEscapes() {
	if !s.escapes {
		return
	}
	s.scanMu.Lock()
	defer s.scanMu.Unlock()
	all, err := reaper.ListAll()
	if err != nil {
		return
	}
	s.spawnMu.Lock()
	found := s.attribute(all)
	s.spawnMu.Unlock()
	for r, procs := range found {
		r.noteEscapees(procs)
	}
}

// attribute does steps 1–3 and returns the escapees found per run.
func (s *Supervisor) attribute(all []reaper.Proc) map[*run][]reaper.Proc {
	roots := map[int]*run{}
	byID := map[string]*run{}
	for _, r := range s.liveRuns() {
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
	kids, _ := reaper.Children()
	for _, pid := range kids {
		if roots[pid] != nil {
			continue // a run root: its exec.Cmd reaps it
		}
		p, ok := index[pid]
		if !ok || p.State == 'Z' || p.State == 'X' {
			reaper.ReapIfZombie(pid)
			continue
		}
		r := s.owner(p, byID)
		if r == nil {
			s.reportUnattributed(p)
			continue
		}
		seen[keyOf(p)] = r.id
		if p.SID != r.rootPID() {
			found[r] = append(found[r], p)
			found[r] = append(found[r], fam.Descendants(p.PID)...)
		}
	}
	for k, id := range s.seen { // keep what we saw of processes still alive
		if p, ok := index[k.pid]; ok && keyOf(p) == k && seen[k] == "" {
			seen[k] = id
		}
	}
	s.seen = seen
	return found
}

// owner attributes a reparented child of Corral to one of its live runs.
func (s *Supervisor) owner(p reaper.Proc, byID map[string]*run) *run {
	if r := byID[s.seen[keyOf(p)]]; r != nil {
		return r
	}
	id, err := reaper.EnvVar(p.PID, RunIDEnv)
	if err != nil {
		return nil
	}
	return byID[id]
}

func (s *Supervisor) reportUnattributed(p reaper.Proc) {
	if s.reported[keyOf(p)] {
		return
	}
	s.reported[keyOf(p)] = true
	if s.reg != nil {
		s.reg.events.emit("escape-unattributed", "pid", p.PID, "sid", p.SID, "comm", p.Comm,
			"detail", "reparented to Corral but not attributable to a run: reported, not signalled")
	}
}

func (r *run) rootPID() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.info.PID
}

// noteEscapees records processes that left the run's session. Under policy fail the
// run ends with ownership-escape; under warn it goes on. Either way the escapees are
// ended with the run.
func (r *run) noteEscapees(procs []reaper.Proc) {
	var fresh []reaper.Fingerprint
	r.mu.Lock()
	for _, p := range procs {
		fp, err := reaper.Identify(p.PID)
		if err != nil || fp.StartTime != p.StartTime {
			continue // gone, or already someone else
		}
		if slices.ContainsFunc(r.escapees, func(e reaper.Fingerprint) bool { return e == fp }) {
			continue
		}
		r.escapees = append(r.escapees, fp)
		fresh = append(fresh, fp)
	}
	if len(fresh) > 0 {
		r.changeLocked(EventEscape, "escape", func(i *Info) { i.Escapees = len(r.escapees) })
		r.persistLocked()
	}
	policy := r.spec.Escape
	r.mu.Unlock()
	for _, fp := range fresh {
		if reg := r.sup.reg; reg != nil {
			reg.events.emit("escape", "run", r.id, "pid", fp.PID, "policy", string(policy))
		}
	}
	if len(fresh) > 0 && policy != EscapeWarn {
		r.stop(OwnershipEscape)
	}
}

// Trees returns the process tree of each live run named (every live run when none is),
// from one /proc scan: cheap enough to refresh every second for dozens of runs, and
// meant to be called off the UI thread.
func (s *Supervisor) Trees(ids ...string) (map[string][]reaper.TreeProc, error) {
	all, err := reaper.ListAll()
	if err != nil {
		return nil, err
	}
	out := map[string][]reaper.TreeProc{}
	for _, r := range s.liveRuns() {
		if len(ids) > 0 && !slices.Contains(ids, r.id) {
			continue
		}
		r.mu.Lock()
		pid, extra, adopted := r.info.PID, slices.Clone(r.escapees), r.info.Adopted
		r.mu.Unlock()
		if pid == 0 {
			continue
		}
		tree := reaper.Tree(all, pid, extra)
		if adopted {
			for i := range tree {
				if tree[i].Mark != reaper.MarkEscaped {
					tree[i].Mark = reaper.MarkAdopted
				}
			}
		}
		out[r.id] = tree
	}
	return out, nil
}

// Escapees returns the processes attributed to a run as escapees.
func (s *Supervisor) Escapees(id string) ([]reaper.Fingerprint, error) {
	r, err := s.get(id)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.escapees), nil
}
