package runs

import (
	"os"
	"sync"
	"sync/atomic"

	"corral/reaper"
	"corral/reaper/rounds"
)

// looks are the supervisor's shared looks at the system: a caller gets a look that
// began after it asked, and callers asking at about the same time share one (package
// rounds). A shutdown of a thousand runs ended each with a /proc scan of its own, a
// thousand scans of two thousand processes (200 runs took 23 s); their finalizers now
// share a few.
type looks struct {
	procs    *rounds.Shared[procSnapshot]  // every process (lookOutside)
	children *rounds.Shared[[]reaper.Proc] // Corral's live children (strayAfterCleanup)
}

type procSnapshot struct {
	all []reaper.Proc
	err error
}

func newLooks() looks {
	return looks{
		procs: rounds.New(func() procSnapshot {
			all, err := reaper.ListAll()
			return procSnapshot{all, err}
		}),
		children: rounds.New(liveChildren),
	}
}

// liveChildren are Corral's children that have not exited (zombies left out).
func liveChildren() []reaper.Proc { return childProcs().live }

// otherRoots are the roots of the supervisor's live runs other than r, by pid and
// start time (a pid reaped and used again is not one).
func (s *Supervisor) otherRoots(r *run) map[procKey]bool {
	roots := map[procKey]bool{}
	for _, o := range s.liveRuns() {
		if o == r {
			continue
		}
		o.mu.Lock()
		if f := o.info.Fingerprint; f.PID > 0 {
			roots[procKey{f.PID, f.StartTime}] = true
		}
		o.mu.Unlock()
	}
	return roots
}

// lookAll is the last look for escapees of every run of rs, which a shutdown is about
// to end: one scan of the sessions and one /proc snapshot for every cgroup, where
// each run's finalizer took its own (a thousand /proc scans of two thousand
// processes). The members of the runs' cgroups are read first, and the snapshot
// leaves them out (reaper.ListAllBut): none of them is an escapee, and their stats
// were most of the snapshot's. A run it looked at is marked so its finalizer does not
// look again.
func (s *Supervisor) lookAll(rs []*run) {
	var sessions, cgroups []*run
	for _, r := range rs {
		if r.cgroup != nil {
			cgroups = append(cgroups, r)
		} else {
			sessions = append(sessions, r)
		}
	}
	if len(sessions) > 0 && s.escapes != nil {
		s.escapes.lastLook()
		markLooked(sessions)
	}
	if len(cgroups) == 0 {
		return
	}
	members := make([][]int, len(cgroups))
	errs := make([]error, len(cgroups))
	eachOf(len(cgroups), func(i int) { members[i], errs[i] = cgroups[i].cgroup.Procs() })
	in := make(map[int]bool, 2*len(cgroups))
	for _, pids := range members {
		for _, pid := range pids {
			in[pid] = true
		}
	}
	all, err := reaper.ListAllBut(func(pid int) bool { return in[pid] })
	if err != nil {
		return // each finalizer looks itself
	}
	keeper := 0
	if s.escapes != nil {
		keeper = s.escapes.keeper
	}
	index, owners := indexOf(all), runPIDs(s.liveRuns(), false)
	cands := candidates(cgroups, members, all, index, keeper)
	for i, r := range cgroups {
		if left := r.outsideCgroupIn(cands[r], all, index, keeper, owners, members[i], errs[i]); len(left) > 0 {
			r.noteEscapees(left)
		}
	}
	markLooked(cgroups)
}

// candidates are, for each run of rs, the processes of all that may be its own and
// outside its cgroup: those with its root or a member of its cgroup (members, as read
// before the snapshot all) among their ancestors, and the orphans that Corral or its
// keeper took in (whose environment tells whose they are). Each run's look then goes
// through its candidates, not through every process on the machine: a thousand runs'
// looks at three thousand processes each took seconds. A process whose ancestors
// reach a member of several runs' cgroups is the nearest one's: the snapshot holds no
// member, so the walk up stops there.
func candidates(rs []*run, members [][]int, all []reaper.Proc, index map[int]int, keeper int) map[*run][]reaper.Proc {
	of := make(map[int]*run, 2*len(rs)) // roots and cgroup members, by pid
	for i, r := range rs {
		r.mu.Lock()
		root := r.info.PID
		r.mu.Unlock()
		if root > 0 {
			of[root] = r
		}
		for _, pid := range members[i] {
			of[pid] = r
		}
	}
	self := os.Getpid()
	out := make(map[*run][]reaper.Proc, len(rs))
	var orphans []reaper.Proc
	for _, p := range all {
		if p.State == 'Z' || p.State == 'X' || p.PID == self {
			continue
		}
		if (p.PPID == self || (keeper > 1 && p.PPID == keeper)) && of[p.PID] == nil { // not a run's root
			orphans = append(orphans, p)
		}
		q := p
		for range 64 { // a snapshot racing pid reuse may hold a cycle
			if q.PPID <= 1 {
				break
			}
			if r := of[q.PPID]; r != nil && (len(out[r]) == 0 || out[r][len(out[r])-1].PID != p.PID) {
				out[r] = append(out[r], p) // each run once per process
			}
			i, ok := index[q.PPID]
			if !ok {
				break
			}
			q = all[i]
		}
	}
	if len(orphans) > 0 {
		for _, r := range rs {
			out[r] = append(out[r], orphans...)
		}
	}
	return out
}

func markLooked(rs []*run) {
	for _, r := range rs {
		r.mu.Lock()
		r.lastLooked = true
		r.mu.Unlock()
	}
}

// eachOf calls fn(i) for every i below n on a few goroutines: reading a thousand
// cgroups' members is system calls, a few in flight at once keep every core busy.
func eachOf(n int, fn func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, 4) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		})
	}
	wg.Wait()
}
