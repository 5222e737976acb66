package runs

import (
	"os"
	"slices"
	"sync"

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
//     what was seen in step 1, else to the one live run that can have started it
//     (owner; never by the run id in its environment, issue 15.6); in another session
//     it is that run's escapee. One that cannot be attributed is reported once, never
//     signalled, and stays unattributed with what it forks.
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

// scanPacer decides which ticks of the periodic escape scan do the full /proc scan.
// Idle, that scan was a fifth of Corral's CPU (issue 6) while finding nothing, because
// nothing had been created. A tick scans when the kernel's last pid moved since the
// previous tick (something forked), on the tick after such a scan (a daemon's setsid
// follows its fork by microseconds, which may fall just after the first scan), when the
// last pid cannot be read, and at least every maxQuietTicks ticks (a setsid long after
// a fork creates no pid to notice; a 500 ms tick gives 5 s).
type scanPacer struct {
	lastPID int
	changed bool // the previous tick saw a new pid
	quiet   int  // ticks skipped since the last full scan
}

const maxQuietTicks = 9

// due takes this tick's reaper.LastPID() and reports whether to scan.
func (p *scanPacer) due(pid int, err error) bool {
	changed := err != nil || pid != p.lastPID
	scan := changed || p.changed || p.quiet >= maxQuietTicks
	p.lastPID, p.changed = pid, changed
	if scan {
		p.quiet = 0
	} else {
		p.quiet++
	}
	return scan
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
	// Corral's children are taken from the scan itself (ppid = our pid): the same set
	// /proc/self/task/*/children lists, which would cost one more read per thread, and
	// Corral has a thread per run blocked in waitid (issue 6: reading them was a tenth
	// of idle CPU with 50 runs).
	self := os.Getpid()
	for _, p := range all {
		if p.PPID != self || roots[p.PID] != nil {
			continue // not our child, or a run root (its exec.Cmd reaps it)
		}
		if p.State == 'Z' || p.State == 'X' {
			reaper.ReapIfZombie(p.PID)
			continue
		}
		if s.reported[keyOf(p)] {
			continue // once ambiguous, never attributed later: see owner
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
	s.keepReported(index, fam)
	return found
}

// reapExited reaps, by exact pid, the processes a run's cleanup ended that were
// reparented to Corral (the subreaper) and are its zombies now, instead of leaving
// them to the next escape scan: the pacer may put that seconds away, and until then
// every /proc scan reads them. A cancelled tree of a hundred left a hundred zombies
// per cancel. The root is skipped (its exec.Cmd reaps it). Under spawnMu, so no new
// run root can be given one of these pids meanwhile; the start time read before the
// reap must still be the one the cleanup saw, and the process must be our zombie.
func (s *Supervisor) reapExited(gone []reaper.Fingerprint, root int) {
	if !s.escapes || len(gone) == 0 {
		return
	}
	self := os.Getpid()
	s.spawnMu.Lock()
	defer s.spawnMu.Unlock()
	for _, f := range gone {
		if f.PID == root {
			continue
		}
		p, err := reaper.ReadProc(f.PID)
		if err != nil || p.StartTime != f.StartTime || p.PPID != self || p.State != 'Z' {
			continue
		}
		reaper.ReapIfZombie(f.PID)
	}
}

func (r *run) rootPID() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.info.PID
}

// Trees returns the process tree of each live run named (every live run when none is),
// from one /proc scan, or from the members last seen when nothing has forked since
// (treeCache): cheap enough to refresh every second for dozens of runs, and meant to be
// called off the UI thread.
func (s *Supervisor) Trees(ids ...string) (map[string][]reaper.TreeProc, error) {
	type want struct {
		pid      int
		extra    []reaper.Fingerprint
		escapees []Escapee
		adopted  bool
	}
	wants := map[string]want{}
	for _, r := range s.liveRuns() {
		r.mu.Lock()
		w := want{r.info.PID, fingerprints(r.escapees), slices.Clone(r.escapees), r.info.Adopted}
		r.mu.Unlock()
		if w.pid != 0 {
			wants[r.id] = w
		}
	}
	roots := make([]int, 0, len(wants))
	var extra []reaper.Fingerprint
	for _, w := range wants {
		roots, extra = append(roots, w.pid), append(extra, w.extra...)
	}
	last, lerr := reaper.LastPID()
	all, err := s.trees.procs(last, lerr, roots, extra)
	if err != nil {
		return nil, err
	}
	out := map[string][]reaper.TreeProc{}
	for id, w := range wants {
		if len(ids) > 0 && !slices.Contains(ids, id) {
			continue
		}
		tree := reaper.Tree(all, w.pid, w.extra)
		for i := range tree {
			for _, e := range w.escapees {
				if e.PID == tree[i].PID && e.StartTime == tree[i].StartTime {
					tree[i].Argv = e.Argv
				}
			}
		}
		if w.adopted {
			for i := range tree {
				if tree[i].Mark != reaper.MarkEscaped {
					tree[i].Mark = reaper.MarkAdopted
				}
			}
		}
		out[id] = tree
	}
	return out, nil
}

// treeCache lets Trees, which the UI calls every second for the selected run, skip the
// full /proc scan (a read of every process on the machine) while no process has been
// created since the last one: a fifth of idle CPU with 50 runs (issue 6). Without a
// fork no process can join a session or become a descendant, so the members last seen
// are the only candidates; each is read again (its state, CPU, RSS, and its session:
// one that called setsid drops out, one that exited is gone).
//
// The kernel moves the last pid when it allocates one, a moment before the new
// process shows in /proc, so one full scan may miss a child whose pid it already read.
// The cache is therefore trusted only once two full scans in a row read the same last
// pid (the child is listed by the second), and never for more than maxCachedTrees
// calls in a row. An extra process the last full scan was not asked about, a new root,
// or an unreadable last pid means a full scan.
type treeCache struct {
	mu        sync.Mutex
	lastPID   int
	confirmed bool // the last two full scans read the same last pid
	hits      int  // answers from the cache since the last full scan
	roots     []int
	extras    []int // the extra pids the last full scan was asked about
	pids      []int // the processes in some run's tree at the last full scan
	scans     int   // full scans taken (for tests)
}

const maxCachedTrees = 10

// procs returns every process the trees of these roots and extras can contain, given
// the kernel's last pid read before the call (reaper.LastPID).
func (c *treeCache) procs(last int, lastErr error, roots []int, extra []reaper.Fingerprint) ([]reaper.Proc, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if lastErr == nil && c.confirmed && last == c.lastPID && c.hits < maxCachedTrees && c.covers(roots, extra) {
		c.hits++
		all := make([]reaper.Proc, 0, len(c.pids))
		for _, pid := range c.pids {
			if p, err := reaper.ReadProc(pid); err == nil {
				all = append(all, p)
			}
		}
		return all, nil
	}
	all, err := reaper.ListAll()
	if err != nil {
		return nil, err
	}
	c.scans++
	c.confirmed = lastErr == nil && last == c.lastPID
	c.lastPID, c.hits, c.roots, c.pids, c.extras = last, 0, slices.Clone(roots), c.pids[:0], c.extras[:0]
	for _, f := range extra {
		c.extras = append(c.extras, f.PID)
	}
	for _, p := range all {
		if slices.Contains(roots, p.SID) || slices.Contains(c.extras, p.PID) {
			c.pids = append(c.pids, p.PID)
		}
	}
	return all, nil
}

// covers reports whether the last full scan was taken for these roots and extras. An
// extra that was already gone then stays gone: its pid could only come back by a fork.
func (c *treeCache) covers(roots []int, extra []reaper.Fingerprint) bool {
	for _, r := range roots {
		if !slices.Contains(c.roots, r) {
			return false
		}
	}
	for _, f := range extra {
		if !slices.Contains(c.extras, f.PID) {
			return false
		}
	}
	return true
}

// Escapees returns the processes attributed to a run as escapees.
func (s *Supervisor) Escapees(id string) ([]Escapee, error) {
	r, err := s.get(id)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.escapees), nil
}
