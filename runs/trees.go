package runs

import (
	"slices"
	"sync"

	"corral/reaper"
)

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
		shared   []Escapee
	}
	wants := map[string]want{}
	out := map[string][]reaper.TreeProc{}
	asked := func(id string) bool { return len(ids) == 0 || slices.Contains(ids, id) }
	for _, r := range s.liveRuns() {
		r.mu.Lock()
		w := want{r.info.PID, fingerprints(r.escapees), slices.Clone(r.escapees), r.info.Adopted, slices.Clone(r.shared)}
		cg := r.cgroup
		r.mu.Unlock()
		switch {
		case w.pid == 0:
		case cg != nil: // its cgroup lists its members: no /proc scan
			if asked(r.id) {
				out[r.id] = markShared(cgroupTree(cg, w.pid, w.adopted, w.escapees), w.shared)
			}
		default:
			wants[r.id] = w
		}
	}
	// Every live run without a cgroup is a root of the scan (the cache then serves
	// another selection too), but the scan is taken only for a run asked about: a run
	// whose cgroup lists its members (the subscription's first reply asks for one) does
	// not wait for a read of every process on the machine.
	scan := false
	for id := range wants {
		scan = scan || asked(id)
	}
	if !scan {
		return out, nil
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
	for id, w := range wants {
		if !asked(id) {
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
		out[id] = markShared(tree, w.shared)
	}
	return out, nil
}

// markShared marks the processes another run passed to this one (shared.go).
func markShared(tree []reaper.TreeProc, shared []Escapee) []reaper.TreeProc {
	for i := range tree {
		for _, e := range shared {
			if e.PID == tree[i].PID && e.StartTime == tree[i].StartTime {
				tree[i].Mark, tree[i].Argv = reaper.MarkShared, e.Argv
			}
		}
	}
	return tree
}

// treeCache lets Trees, which the UI calls for the selected run every second while
// something happens (up to 8 s apart while nothing does), skip the full /proc scan (a
// read of every process on the machine) while no process has been created since the
// last one: a fifth of idle CPU with 50 runs. Without a fork no process can join a
// session or become a descendant, so the members last seen are the only candidates;
// each is read again (its state, CPU, RSS, and its session: one that called setsid
// drops out, one that exited is gone).
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

// cgroupTree is a cgroup run's tree: its members, each read once, and its escapees
// (processes of the run that left its cgroup's subtree), each read once and shown
// while it lives with the start time it was recorded with, marked escaped with the
// command line it was found with: the processes its end would reach, as the session
// backend's tree shows them.
func cgroupTree(cg *reaper.Cgroup, root int, adopted bool, escapees []Escapee) []reaper.TreeProc {
	pids, _ := cg.Procs()
	members := make([]reaper.Proc, 0, len(pids)+len(escapees))
	for _, pid := range pids {
		if p, err := reaper.ReadProc(pid); err == nil {
			members = append(members, p)
		}
	}
	escaped := make(map[reaper.Fingerprint][]string, len(escapees))
	for _, e := range escapees {
		if slices.Contains(pids, e.PID) {
			continue // moved back into the subtree: a member again
		}
		if p, err := reaper.ReadProc(e.PID); err == nil && p.StartTime == e.StartTime && p.State != 'Z' && p.State != 'X' {
			members = append(members, p)
			escaped[reaper.Fingerprint{PID: p.PID, StartTime: p.StartTime}] = e.Argv
		}
	}
	tree := reaper.CgroupTree(members, root)
	for i := range tree {
		if argv, ok := escaped[reaper.Fingerprint{PID: tree[i].PID, StartTime: tree[i].StartTime}]; ok {
			tree[i].Mark, tree[i].Argv = reaper.MarkEscaped, argv
			continue // an escapee stays marked escaped on an adopted run too
		}
		if tree[i].Mark == reaper.MarkContained {
			// Left the session, held by the cgroup: shown with its command line, as an
			// escapee is on sessions (a daemon's arguments say which it is).
			tree[i].Argv, _ = reaper.ReadCmdline(tree[i].PID)
		}
		if adopted {
			tree[i].Mark = reaper.MarkAdopted
		}
	}
	return tree
}
