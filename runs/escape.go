package runs

import (
	"fmt"
	"os"
	"sync"
	"time"

	"corral/reaper"
	"corral/reaper/rounds"
)

// escapeDetector is escape detection (ARCHITECTURE.md, "Ownership"): Corral as a child
// subreaper, the periodic and end-of-run scans that attribute processes leaving a run's
// session to that run (escape_attribute.go), and the reaping of what is reparented to
// Corral. The Supervisor owns one when WithEscapeDetection is given and nil otherwise;
// every method is a no-op on nil.
type escapeDetector struct {
	live    func() []*run // the supervisor's runs not yet exited
	spawnMu *sync.Mutex   // the supervisor's: starting a process and registering it
	reg     *Registry     // nil: unattributable processes are not logged
	// contained: every run is in a cgroup of its own, which holds what leaves a
	// session, so no scan looks for escapes (none runs on a timer); what is reparented
	// to Corral is reaped when a child of Corral ends (reapOrphans, on SIGCHLD).
	contained bool
	// base is the cgroup every run cgroup is made in (nil on sessions), baseCPU its CPU
	// time read at the last due tick (escape_cgroup.go): while no run under it ran,
	// no cgroup is looked at.
	base    *reaper.Cgroup
	baseCPU time.Duration
	helpers map[int]bool // Corral's own children that are no run's (under spawnMu)
	keeper  int          // the keeper's pid when one started this server (readopt.go); 0: none

	mu       sync.Mutex               // one scan at a time; guards seen and reported
	seen     map[procKey]string       // which run each process was last seen in
	reported map[procKey]bool         // unattributable processes already reported
	pace     scanPacer                // the background goroutine's only
	last     *rounds.Shared[struct{}] // the ending runs' scans (lastLook)
}

// newEscapeDetector makes this process a child subreaper: from now on every orphaned
// descendant is reparented to it and reaped by it.
func newEscapeDetector(live func() []*run, spawnMu *sync.Mutex, reg *Registry, contained bool) (*escapeDetector, error) {
	if err := reaper.SetSubreaper(); err != nil {
		return nil, fmt.Errorf("escape detection: %w", err)
	}
	d := &escapeDetector{live: live, spawnMu: spawnMu, reg: reg, contained: contained, helpers: map[int]bool{},
		seen: map[procKey]string{}, reported: map[procKey]bool{}}
	d.last = rounds.New(func() struct{} { d.scan(); return struct{}{} })
	return d, nil
}

// lastLook is a run's last scan before its session is ended: a scan that began after
// it asked, shared with every run ending at once (a shutdown).
func (d *escapeDetector) lastLook() {
	if d != nil {
		d.last.Get()
	}
}

// procKey names one process for its lifetime: a pid and its start time.
type procKey struct {
	pid   int
	start uint64
}

func keyOf(p reaper.Proc) procKey { return procKey{p.PID, p.StartTime} }

// scan is one pass of the escape detector, run periodically and at every
// run's end. Under spawnMu — the lock that covers starting a process and registering
// it — so every child of Corral that is not a run root is known to be a reparented
// descendant:
//
//  1. it remembers which run every session member and descendant belongs to, so a
//     process that later leaves can still be attributed;
//  2. a descendant of a run's root in another session is an escapee of that run;
//  3. a child of Corral that is not a run root was reparented here (Corral is the
//     subreaper): a zombie is reaped by its exact pid; a live one is attributed by what
//     was seen in step 1, else to the one live run that can have started it (owner;
//     never by the run id in its environment, which any run can set to another's); in
//     another session it is that run's escapee. One that cannot be attributed is
//     reported once, never signalled, and stays unattributed with what it forks.
func (d *escapeDetector) scan() {
	if d == nil {
		return // escape detection is off
	}
	if d.contained {
		d.scanContained() // cgroups hold what leaves a session; this finds what leaves a cgroup
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	all, err := reaper.ListAll()
	if err != nil {
		return
	}
	d.spawnMu.Lock()
	found := d.attribute(all)
	d.spawnMu.Unlock()
	for r, procs := range found {
		r.noteEscapees(procs)
	}
}

// tick is the periodic scan: a full scan only on the ticks scanPacer finds due.
func (d *escapeDetector) tick() {
	if d != nil && d.pace.due(reaper.LastPID()) {
		d.scan()
	}
}

// scanPacer decides which ticks of the periodic escape scan do the full /proc scan.
// Idle, that scan was a fifth of Corral's CPU (50 idle runs) while finding nothing,
// because nothing had been created. A tick scans when the kernel's last pid moved since
// the previous tick (something forked), on the tick after such a scan (a daemon's
// setsid follows its fork by microseconds, which may fall just after the first scan),
// and when the last pid cannot be read — never on the timer alone (an idle server must
// sleep). A setsid long after the fork that made its process creates no pid to notice:
// it is found at the next fork anywhere, or by the scan at the run's end (the cgroup
// backend has no such gap: its cgroup holds the process).
type scanPacer struct {
	lastPID int
	changed bool // the previous tick saw a new pid
}

// due takes this tick's reaper.LastPID() and reports whether to scan.
func (p *scanPacer) due(pid int, err error) bool {
	changed := err != nil || pid != p.lastPID
	scan := changed || p.changed
	p.lastPID, p.changed = pid, changed
	return scan
}

// reapExited reaps, by exact pid, the processes a run's cleanup ended that were
// reparented to Corral (the subreaper) and are its zombies now, instead of leaving
// them to the next escape scan: the pacer may put that seconds away, and until then
// every /proc scan reads them. A cancelled tree of a hundred left a hundred zombies
// per cancel. Every run's root is skipped, not only this run's (its exec.Cmd reaps
// it: a root moved into another run's cgroup is listed by that run's cleanup, and
// reaped here it would take its exit status from its own run). Under spawnMu, so no
// new run root can be given one of these pids meanwhile; the start time read before
// the reap must still be the one the cleanup saw, and the process must be our zombie.
func (d *escapeDetector) reapExited(gone []reaper.Fingerprint, root int) {
	if d == nil || len(gone) == 0 {
		return
	}
	d.spawnMu.Lock()
	defer d.spawnMu.Unlock()
	roots := d.rootsLocked([]int{root})
	for _, f := range gone {
		d.reapOneLocked(f, roots)
	}
}

// reapAllExited is reapExited of many runs' cleanups (a shutdown's), under one hold of
// spawnMu: a thousand finalizers each waiting for it took a second in a row. The
// processes are reaped on a few goroutines under that hold (a read of each process's
// stat and a wait each, a thousand in a row), each once however many reports list it
// (a process moved between runs' cgroups is in both), and no run's root; those the
// cleanups reaped through their pidfds already (Report.Reaped) are not read at all.
func (d *escapeDetector) reapAllExited(reps []reaper.Report, roots []int) {
	if d == nil {
		return
	}
	d.spawnMu.Lock()
	defer d.spawnMu.Unlock()
	skip := d.rootsLocked(roots)
	type key struct {
		pid   int
		start uint64
	}
	listed := map[key]bool{}
	reaped := map[key]bool{} // through their pidfds in the cleanup (reapable)
	for _, rep := range reps {
		for _, f := range rep.Reaped {
			reaped[key{f.PID, f.StartTime}] = true
		}
	}
	var gone []reaper.Fingerprint
	for _, rep := range reps {
		for _, f := range rep.Exited {
			if k := (key{f.PID, f.StartTime}); !listed[k] && !skip[f.PID] && !reaped[k] {
				listed[k] = true
				gone = append(gone, f)
			}
		}
	}
	eachOf(len(gone), func(i int) { d.reapOneLocked(gone[i], skip) })
}

// reapable is, for a shutdown's cleanups (reaper.Target.Reap), which members that
// exited may be reaped through their pidfds: any but a run's root, of every live run
// and of roots (the runs the caller ends), which their exec.Cmds reap. A root is
// Corral's unreaped child, so its pid names it alone. Nil without escape detection:
// Corral is no subreaper then, and reaps nothing of its runs'.
func (d *escapeDetector) reapable(roots []int) func(pid int) bool {
	if d == nil {
		return nil
	}
	d.spawnMu.Lock()
	skip := d.rootsLocked(roots)
	for pid := range d.helpers { // Corral's own children that are no run's: their waiters reap them
		skip[pid] = true
	}
	d.spawnMu.Unlock()
	return func(pid int) bool { return !skip[pid] }
}

// rootsLocked is the set of every live run's root, and of roots (runs the caller
// knows, live or not): processes their exec.Cmds reap. Under spawnMu.
func (d *escapeDetector) rootsLocked(roots []int) map[int]bool {
	set := map[int]bool{}
	for _, pid := range roots {
		if pid != 0 {
			set[pid] = true
		}
	}
	if d.live != nil {
		for _, r := range d.live() {
			if pid := r.rootPID(); pid != 0 {
				set[pid] = true
			}
		}
	}
	return set
}

// reapOneLocked reaps f if it is Corral's zombie still and no run's root.
func (d *escapeDetector) reapOneLocked(f reaper.Fingerprint, roots map[int]bool) {
	if roots[f.PID] {
		return
	}
	p, err := reaper.ReadProc(f.PID)
	if err != nil || p.StartTime != f.StartTime || p.PPID != os.Getpid() || p.State != 'Z' {
		return
	}
	reaper.ReapIfZombie(f.PID)
}

// reapOrphans reaps, by exact pid, the zombies among Corral's children that are no
// run's root and no helper of Corral's: processes of runs reparented to Corral (the
// subreaper) that have ended. The cgroup backend scans nothing, so it does this when
// a child of Corral ends (SIGCHLD) instead; one read of /proc/self/task/*/children,
// under spawnMu so that no run root can be started meanwhile.
func (d *escapeDetector) reapOrphans() {
	if d == nil {
		return
	}
	d.spawnMu.Lock()
	defer d.spawnMu.Unlock()
	roots := map[int]bool{}
	for _, r := range d.live() {
		if pid := r.rootPID(); pid != 0 {
			roots[pid] = true
		}
	}
	for _, pid := range reaper.Children() {
		if roots[pid] || d.helpers[pid] {
			continue // its exec.Cmd reaps it
		}
		if p, err := reaper.ReadProc(pid); err == nil && (p.State == 'Z' || p.State == 'X') {
			reaper.ReapIfZombie(pid)
		}
	}
}

// helper notes (or forgets) a child of Corral's own that is no run (a [notify]
// command), which the orphan reaping must leave to its exec.Cmd. The caller holds
// spawnMu.
func (d *escapeDetector) helper(pid int, on bool) {
	if d == nil {
		return
	}
	if on {
		d.helpers[pid] = true
	} else {
		delete(d.helpers, pid)
	}
}
