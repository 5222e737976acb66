package reaper

import (
	"slices"
	"time"
)

// Mark says how a process relates to a run.
type Mark string

// The marks, from the closest relation to the loosest.
const (
	MarkRoot    Mark = "root"    // the run's root: pid == sid
	MarkMember  Mark = "member"  // in the root's process group
	MarkGroup   Mark = "group"   // in the run's session but another process group (job control)
	MarkEscaped Mark = "escaped" // a descendant or attributed process in another session
	MarkAdopted Mark = "adopted" // of a run adopted from a dead Corral instance (set by the caller)
	// MarkContained: a member of the run's cgroup in another session (a daemon that
	// called setsid): it left the session, and the cgroup still holds it.
	MarkContained Mark = "contained"
	// MarkShared: a daemon another run started and passed to this one, which is
	// connected to it (set by the caller).
	MarkShared Mark = "shared"
)

// TreeProc is one process of a run's tree, as the details pane shows it.
type TreeProc struct {
	Proc
	Mark  Mark
	Depth int           // 0 for the root and for processes whose parent is not in the tree
	CPU   time.Duration // (UTime+STime) / ClockTicks
	Argv  []string      // an escapee's command line when detected (display only); nil otherwise
}

// Tree builds one run's process tree from one process list (a single ListAll shared by
// every run): the live members of session sid plus the processes of extra (escapees
// attributed to the run) that are still alive with the fingerprinted start time. These
// are exactly the processes Terminate would target for the same sid and Extra, so the
// tree never shows a process the run's end would not reach.
//
// The result is depth first from the root, children ordered by pid. Processes whose
// parent is not in the tree (orphans reparented to Corral, escapees, everything once
// the root has exited) start subtrees of their own at depth 0 after the root's. It is
// pure: the boot id of extra is not checked (that would be I/O); pid and start time
// together already name one process of this boot.
func Tree(all []Proc, sid int, extra []Fingerprint) []TreeProc {
	in := treeMembers(all, sid, extra)
	if len(in) == 0 {
		return nil
	}
	kids := make(map[int][]int, len(in)) // ppid → pids, both in the tree
	var tops []int                       // pids whose parent is not in the tree
	for pid, p := range in {
		if _, ok := in[p.PPID]; ok && p.PPID != pid {
			kids[p.PPID] = append(kids[p.PPID], pid)
		} else if pid != sid {
			tops = append(tops, pid)
		}
	}
	for _, k := range kids {
		slices.Sort(k)
	}
	slices.Sort(tops)
	w := treeWalk{in: in, kids: kids, sid: sid, seen: make(map[int]bool, len(in)), out: make([]TreeProc, 0, len(in))}
	if _, ok := in[sid]; ok {
		w.visit(sid, 0)
	}
	for _, pid := range tops {
		w.visit(pid, 0)
	}
	// A snapshot that raced pid reuse may link processes in a ppid cycle, with no top;
	// list them anyway rather than hide a process.
	if len(w.out) < len(in) {
		rest := make([]int, 0, len(in)-len(w.out))
		for pid := range in {
			if !w.seen[pid] {
				rest = append(rest, pid)
			}
		}
		slices.Sort(rest)
		for _, pid := range rest {
			w.visit(pid, 0)
		}
	}
	return w.out
}

// treeMembers selects the live session members and the live, matching extra processes.
func treeMembers(all []Proc, sid int, extra []Fingerprint) map[int]Proc {
	want := make(map[int]uint64, len(extra)) // pid → start time
	for _, f := range extra {
		want[f.PID] = f.StartTime
	}
	in := map[int]Proc{}
	for _, p := range all {
		if dead(p.State) {
			continue
		}
		if st, ok := want[p.PID]; p.SID == sid || (ok && st == p.StartTime) {
			in[p.PID] = p
		}
	}
	return in
}

// treeWalk is the depth-first walk of Tree.
type treeWalk struct {
	in   map[int]Proc
	kids map[int][]int
	sid  int
	seen map[int]bool
	out  []TreeProc
}

func (w *treeWalk) visit(pid, depth int) {
	if w.seen[pid] {
		return
	}
	w.seen[pid] = true
	p := w.in[pid]
	w.out = append(w.out, TreeProc{Proc: p, Mark: markOf(p, w.sid), Depth: depth, CPU: cpuTime(p)})
	for _, k := range w.kids[pid] {
		w.visit(k, depth+1)
	}
}

func markOf(p Proc, sid int) Mark {
	switch {
	case p.SID != sid:
		return MarkEscaped
	case p.PID == sid:
		return MarkRoot
	case p.PGID == sid:
		return MarkMember
	}
	return MarkGroup
}

// cpuTime converts user+system ticks to a duration, split so no product overflows.
func cpuTime(p Proc) time.Duration {
	ticks, hz := p.UTime+p.STime, uint64(ClockTicks())
	return time.Duration(ticks/hz)*time.Second + time.Duration(ticks%hz)*time.Second/time.Duration(hz)
}

// Escapees returns the live descendants of root (linked by parent pid in all) whose
// session differs from sid: processes that left the run's session (setsid, a
// daemonizing fork) while still in its tree. They must be found, and fingerprinted,
// before the tree is killed: once their ancestors die they reparent to Corral and
// nothing links them to the run any more (their parent pid is then Corral's). Pure.
func Escapees(all []Proc, root, sid int) []Proc { return NewFamily(all).Escapees(root, sid) }

// Escapees is the package function Escapees on the indexed snapshot.
func (f Family) Escapees(root, sid int) []Proc {
	var out []Proc
	for _, p := range f.Descendants(root) {
		if p.SID != sid && !dead(p.State) {
			out = append(out, p)
		}
	}
	return out
}

// CgroupTree is the tree of a run whose cgroup holds members (the processes its
// cgroup.procs listed, as read): linked by parent pid like Tree, the root's session
// marked as Tree marks it, any other member marked contained.
func CgroupTree(members []Proc, sid int) []TreeProc {
	extra := make([]Fingerprint, 0, len(members))
	for _, p := range members {
		extra = append(extra, Fingerprint{PID: p.PID, StartTime: p.StartTime})
	}
	tree := Tree(members, sid, extra)
	for i := range tree {
		if tree[i].Mark == MarkEscaped {
			tree[i].Mark = MarkContained
		}
	}
	return tree
}
