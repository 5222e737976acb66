package reaper

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The escalation of Terminate on the cgroup backend: the same steps, with the
// cgroup as the run. The stop signal goes to each member through a pidfd opened on it
// and checked to be in the cgroup after it was opened (a pid read from cgroup.procs
// may have been freed and reused by then; the pidfd pins the process it names); the
// grace is a wait on cgroup.events (inotify), not a poll of members; SIGKILL is
// cgroup.kill, atomic. (runc freezes a container to signal it; measured here, a
// freeze and thaw of 100 processes took 20–50 ms, the pidfds 1.5 ms.)

// terminateCgroup is one pass of the escalation of a run's cgroup, its whole subtree,
// and beside it, at the same time, of what the cgroup does not hold: the root and the
// escapees (Target.Extra) that left it, ended by the session mechanics. A cgroup gone
// from outside leaves those mechanics alone with what the run still knows.
func terminateCgroup(ctx context.Context, t Target) Report {
	if ctx == nil {
		ctx = context.Background()
	}
	if t.Sweep <= 0 {
		t.Sweep = defaultSweep
	}
	if t.Cgroup.Gone() {
		// Emptied and removed from outside (rmdir needs it empty, so its members were
		// moved elsewhere first): never "verified empty" for a cgroup nobody can read.
		rest := t
		rest.Cgroup = nil
		return terminateOnce(ctx, rest)
	}
	t.OnStep = onceEach(t.OnStep)
	var outside Report
	var wg sync.WaitGroup
	if needOutside(t) {
		wg.Go(func() {
			e := newEscalation(ctx, t)
			e.outside = t.Cgroup
			defer e.release()
			e.run()
			outside = e.report()
		})
	}
	c := newCgroupEscalation(ctx, t)
	c.run()
	moved := c.movedOut()
	c.release()
	rep := c.report()
	wg.Wait()
	rep.join(outside)
	c.endMoved(&rep, moved)
	return rep
}

func newCgroupEscalation(ctx context.Context, t Target) *cgroupEscalation {
	return &cgroupEscalation{ctx: ctx, t: t, cg: t.Cgroup, start: time.Now(), seen: map[int]uint64{}, hard: map[int]uint64{},
		names: map[int][]string{}, pidfds: map[int]int{}}
}

// endMoved ends the members that left the cgroup while it was being ended (root can
// move any process, the run's root too): the cgroup's emptiness says nothing of them.
// Ended beside it as escapees are; never verified empty while one lives.
func (c *cgroupEscalation) endMoved(rep *Report, moved []Fingerprint) {
	if len(moved) == 0 {
		return
	}
	t := c.t
	more := t
	more.Extra = append(slices.Clone(t.Extra), moved...)
	e := newEscalation(c.ctx, more)
	e.outside = t.Cgroup
	e.run()
	rep.join(e.report())
	e.release()
	for _, fp := range moved {
		if p, err := ReadProc(fp.PID); err == nil && p.StartTime == fp.StartTime && !dead(p.State) {
			rep.VerifiedEmpty = false
			rep.Remaining = append(rep.Remaining, p)
		}
	}
}

// movedOut lists the members seen during the escalation that are alive now outside
// the cgroup's subtree (moved out of it, or the cgroup removed from outside), and
// keeps them out of what the cgroup's report counts as ended.
func (c *cgroupEscalation) movedOut() []Fingerprint {
	gone := c.exited() // those whose pidfd says exited: no read of /proc for them
	c.gone = gone
	if len(gone) == len(c.seen) && allIn(c.seen, gone) {
		c.moved = map[int]uint64{}
		return nil // every member seen has exited: none lives outside (nor inside)
	}
	pids, err := c.cg.Procs()
	if err != nil && !IsGone(err) {
		return nil
	}
	in := make(map[int]bool, len(pids))
	for _, pid := range pids {
		in[pid] = true
	}
	boot, _ := BootID()
	var out []Fingerprint
	c.moved = map[int]uint64{}
	for pid, start := range c.seen {
		if in[pid] || gone[pid] || unix.Kill(pid, 0) == unix.ESRCH { // signal 0: no signal, only whether the pid is taken
			continue
		}
		if p, err := ReadProc(pid); err == nil && p.StartTime == start && !dead(p.State) {
			if dir, err := CgroupOf(pid); err == nil && c.cg.Contains(dir) {
				continue // moved within the subtree since it was read
			}
			c.moved[pid] = start
			out = append(out, Fingerprint{BootID: boot, PID: pid, StartTime: start})
		}
	}
	return out
}

// reapExited reaps, each through its pidfd, the members that exited (as movedOut
// found them) that Target.Reap allows: waitid on a pidfd waits for that process
// alone, and one that is not this process's child (reaped by its own parent, or by a
// subreaper below) is left as it is.
func (c *cgroupEscalation) reapExited() {
	if c.t.Reap == nil {
		return
	}
	for pid := range c.gone {
		fd, ok := c.pidfds[pid]
		if !ok || !c.t.Reap(pid) {
			continue
		}
		var info unix.Siginfo
		if err := unix.Waitid(unix.P_PIDFD, fd, &info, unix.WEXITED|unix.WNOHANG, nil); err == nil && info.Signo == int32(unix.SIGCHLD) {
			c.reaped = append(c.reaped, Fingerprint{PID: pid, StartTime: c.seen[pid]})
		}
	}
}

// allIn reports whether every pid of seen is in gone.
func allIn(seen map[int]uint64, gone map[int]bool) bool {
	for pid := range seen {
		if !gone[pid] {
			return false
		}
	}
	return true
}

// needOutside reports whether anything of the run may be outside its cgroup: an
// escapee, the root when it is not a member, or (a reconcile's claim with Find)
// processes carrying the run's secret.
func needOutside(t Target) bool {
	if knownOutside(t) {
		return true
	}
	if t.Root.PID == 0 {
		return false
	}
	dir, err := CgroupOf(t.Root.PID)
	return err != nil || !t.Cgroup.Contains(dir)
}

// knownOutside is needOutside without the root: what the target says is outside.
func knownOutside(t Target) bool {
	return len(t.Extra) > 0 || (t.Claim != nil && (t.Claim.Find || t.Claim.Root.PID != 0))
}

// onceEach reports each step to f once, whichever of the cgroup's escalation and the
// one beside it performs it first.
func onceEach(f func(Step, int)) func(Step, int) {
	if f == nil {
		return nil
	}
	var mu sync.Mutex
	done := map[Step]bool{}
	return func(s Step, n int) {
		mu.Lock()
		first := !done[s]
		done[s] = true
		mu.Unlock()
		if first {
			f(s, n)
		}
	}
}

// join folds the report of the escalation beside the cgroup's into the cgroup's: the
// processes ended add up, and the whole is verified empty only when both are.
func (r *Report) join(o Report) {
	if o.Steps == nil && o.Elapsed == 0 && o.Err == nil {
		return // none ran
	}
	r.Killed += o.Killed
	r.Hard += o.Hard
	r.VerifiedEmpty = r.VerifiedEmpty && o.VerifiedEmpty
	r.Remaining = append(r.Remaining, o.Remaining...)
	r.Exited = append(r.Exited, o.Exited...)
	for _, n := range o.Ended {
		if len(r.Ended) < MaxNamed {
			r.Ended = append(r.Ended, n)
		}
	}
	for _, s := range []Step{StepHup, StepTerm, StepKill} {
		if slices.Contains(o.Steps, s) && !slices.Contains(r.Steps, s) {
			r.Steps = append(r.Steps, s)
		}
	}
	slices.SortFunc(r.Steps, func(a, b Step) int { return stepOrder(a) - stepOrder(b) })
	r.Elapsed = max(r.Elapsed, o.Elapsed)
	if r.Err == nil {
		r.Err = o.Err
	}
}

func stepOrder(s Step) int { return slices.Index([]Step{StepHup, StepTerm, StepKill}, s) }

type cgroupEscalation struct {
	ctx        context.Context
	t          Target
	cg         *Cgroup
	start      time.Time
	steps      []Step
	seen, hard map[int]uint64   // members seen alive; those alive when SIGKILL went (pid → start time)
	names      map[int][]string // what the first MaxNamed members seen are
	// lateArgv: a member of the root's session is named by its command name when first
	// seen, and its command line is read only if it outlives the grace (TerminateMany:
	// a read each, before the stop signal, delayed a thousand runs' signals); commOnly
	// are those named so.
	lateArgv bool
	commOnly map[int]bool
	moved    map[int]uint64 // members seen that live on outside the subtree (movedOut)
	gone     map[int]bool   // members seen whose pidfd said exited (movedOut)
	reaped   []Fingerprint  // members reaped through their pidfds (reapExited): pid and start time
	pidfds   map[int]int    // a pidfd on each member signalled (pid → fd), until release
	below    bool           // the subtree was seen with cgroups below the run's own
	empty    bool
	err      error
}

func (c *cgroupEscalation) run() {
	if !c.signal() {
		return
	}
	if !c.graceOver(c.cg.AwaitEmpty(c.ctx, time.Now().Add(c.t.Grace))) {
		return
	}
	c.empty = c.cg.AwaitEmpty(context.Background(), time.Now().Add(c.t.Sweep))
}

// signal is the escalation up to its grace: the members read, and the stop signal
// (after SIGHUP and SIGCONT for a PTY run) sent to each. It reports whether there is
// a grace to wait: false when the cgroup was empty or could not be ended.
func (c *cgroupEscalation) signal() bool {
	members, err := c.members()
	return c.signalRead(members, err)
}

// signalOrLeave is signal for a cgroup ended with many others (TerminateMany), unless
// the first read of its members says it is to be ended alone (leave, nothing
// signalled): its cgroup is gone, or its root is not a member (needOutside).
func (c *cgroupEscalation) signalOrLeave() (signalled, leave bool) {
	members, err := c.members()
	if IsGone(err) || err == nil && c.t.Root.PID != 0 && !slices.Contains(members, c.t.Root.PID) {
		return false, true
	}
	return c.signalRead(members, err), false
}

// signalRead is signal with the members (or the error reading them) as just read.
func (c *cgroupEscalation) signalRead(members []int, err error) bool {
	if c.err = err; err != nil {
		return false
	}
	if len(members) == 0 {
		c.empty = true
		return false
	}
	if slices.Contains(members, os.Getpid()) {
		c.err = ErrOwnSession // never empty the cgroup Corral itself is in
		return false
	}
	sigs := []syscall.Signal{c.stopSignal()}
	if c.t.PTY {
		sigs = append([]syscall.Signal{syscall.SIGHUP, syscall.SIGCONT}, sigs...)
		c.done(StepHup, len(members))
	}
	if c.t.Paused {
		sigs = append(sigs, syscall.SIGCONT)
	}
	c.signalMembers(members, sigs)
	c.done(StepTerm, len(members))
	return true
}

// graceOver is the escalation once its grace ended, empty saying whether the cgroup
// emptied within it: what is left is killed (cgroup.kill). It reports whether there
// is a sweep to wait for.
func (c *cgroupEscalation) graceOver(empty bool) bool {
	if c.empty = empty; empty {
		return false
	}
	left, _ := c.members()
	for _, pid := range left {
		c.hard[pid] = c.seen[pid]
	}
	c.argvOfLeft(left)
	if err := c.cg.Kill(); err != nil {
		c.err = err
		return false
	}
	c.done(StepKill, len(left))
	return true
}

// members lists the cgroup's members and notes each one seen, with its start time.
func (c *cgroupEscalation) members() ([]int, error) {
	pids, cgroups, err := c.cg.procs()
	if err != nil {
		return nil, err
	}
	c.below = c.below || cgroups > 1
	for _, pid := range pids {
		if _, ok := c.seen[pid]; !ok {
			if p, err := ReadProc(pid); err == nil {
				c.seen[pid] = p.StartTime
				if len(c.names) < MaxNamed {
					c.name(p)
				}
			}
		}
	}
	return pids, nil
}

// name names member p, first seen, for Report.Ended: as nameOf does, or, with
// lateArgv, a member of the root's session by its command name from stat (read
// already) until the grace ends (argvOfLeft), its command line then read only if it
// is among the first argvRead named, as nameOf reads it: every command line read
// delays the cgroup's kill, and those left are the likeliest to block a read of it.
func (c *cgroupEscalation) name(p Proc) {
	if !c.lateArgv || p.SID != c.t.SID || p.Comm == "" {
		c.names[p.PID] = nameOf(p, c.t.SID, len(c.names))
		return
	}
	named := len(c.names)
	c.names[p.PID] = []string{p.Comm}
	if named >= argvRead {
		return // past the first argvRead, by its command name only, as nameOf does
	}
	if c.commOnly == nil {
		c.commOnly = map[int]bool{}
	}
	c.commOnly[p.PID] = true
}

// argvOfLeft reads the command line of each member of left (as just read, alive when
// the grace ended) named by its command name only (lateArgv): what did not end on the
// stop signal is named in full, read before it is killed. The start time is checked
// after the command line is read: a pid whose start time is no longer the one seen was
// another process by then, and its command line is not the member's: its name stays.
func (c *cgroupEscalation) argvOfLeft(left []int) {
	for _, pid := range left {
		if !c.commOnly[pid] {
			continue
		}
		delete(c.commOnly, pid)
		argv, _ := ReadCmdline(pid)
		if len(argv) == 0 {
			continue
		}
		if p, err := ReadProc(pid); err != nil || p.StartTime != c.seen[pid] {
			continue
		}
		c.names[pid] = argv
	}
}

// signalMembers sends sigs to every member of pids (as members just read them), each
// through a pidfd checked to name a member still. Every pidfd is opened and checked
// before the first signal goes, so the members get each signal together, as a
// group's do from kill(2). A paused run's cgroup is thawed after (its stop signal
// must be acted on: a frozen process only queues it), and any cgroup below that the
// run froze.
//
// The check is one read of the subtree's members after every pidfd was opened: a pid
// listed then names the process its pidfd pins, or that process is dead and its pid
// was reused inside the subtree (the pidfd signals nothing). Read per pid from
// /proc/<pid>/cgroup, a thousand runs' members took a read each. The pidfds are kept
// until release: movedOut asks them which members exited rather than reading /proc.
func (c *cgroupEscalation) signalMembers(pids []int, sigs []syscall.Signal) {
	opened := make(map[int]int, len(pids))
	for _, pid := range pids {
		if _, ok := c.pidfds[pid]; ok {
			continue
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue // gone
		}
		opened[pid] = fd
	}
	fds := make([]int, 0, len(opened))
	if now, _, err := c.cg.procs(); err == nil {
		in := make(map[int]bool, len(now))
		for _, pid := range now {
			in[pid] = true
		}
		for pid, fd := range opened {
			if in[pid] {
				fds = append(fds, fd)
				c.pidfds[pid] = fd
			} else {
				unix.Close(fd) // left the subtree, or died, since pids was read
			}
		}
	} else {
		for pid, fd := range opened {
			if got, err := CgroupOf(pid); err == nil && c.cg.Contains(got) {
				fds = append(fds, fd)
				c.pidfds[pid] = fd
			} else {
				unix.Close(fd)
			}
		}
	}
	for _, sig := range sigs {
		for _, fd := range fds {
			unix.PidfdSendSignal(fd, sig, nil, 0)
		}
	}
	c.thaw()
}

// release closes the pidfds signalMembers kept.
func (c *cgroupEscalation) release() {
	for pid, fd := range c.pidfds {
		unix.Close(fd)
		delete(c.pidfds, pid)
	}
}

// exited lists the members seen whose pidfd says they exited (dead, reaped or not):
// one poll of every kept pidfd, not a read of /proc each.
func (c *cgroupEscalation) exited() map[int]bool {
	if len(c.pidfds) == 0 {
		return nil
	}
	pids := make([]int, 0, len(c.pidfds))
	fds := make([]unix.PollFd, 0, len(c.pidfds))
	for pid, fd := range c.pidfds {
		pids = append(pids, pid)
		fds = append(fds, unix.PollFd{Fd: int32(fd), Events: unix.POLLIN})
	}
	for {
		if _, err := unix.Poll(fds, 0); err == nil {
			break
		} else if err != unix.EINTR {
			return nil
		}
	}
	out := make(map[int]bool, len(fds))
	for k, f := range fds {
		if f.Revents&unix.POLLIN != 0 {
			out[pids[k]] = true
		}
	}
	return out
}

// thaw thaws every cgroup of the subtree: a paused run's (its own), and any the run
// froze below its own (a frozen process only queues the stop signal; cgroup.kill ends
// it all the same, but only after the grace).
func (c *cgroupEscalation) thaw() {
	if !c.t.Paused && !c.below {
		return // no cgroup to thaw: the run's own is not paused, and it has none below
	}
	c.cg.walk(func(dir string, top bool) error {
		if top && !c.t.Paused {
			return nil
		}
		if b, err := os.ReadFile(filepath.Join(dir, "cgroup.freeze")); err == nil && strings.TrimSpace(string(b)) == "1" {
			(&Cgroup{Path: dir}).write("cgroup.freeze", "0")
		}
		return nil
	})
}

func (c *cgroupEscalation) done(step Step, n int) {
	c.steps = append(c.steps, step)
	if c.t.OnStep != nil {
		c.t.OnStep(step, n)
	}
}

func (c *cgroupEscalation) stopSignal() syscall.Signal {
	if c.t.Stop == 0 {
		return syscall.SIGTERM
	}
	return c.t.Stop
}

func (c *cgroupEscalation) report() Report {
	rep := Report{Steps: c.steps, VerifiedEmpty: c.empty && c.err == nil, Elapsed: time.Since(c.start), Reaped: c.reaped}
	left := maps.Clone(c.moved) // not ended: left the cgroup, ended beside it
	if left == nil {
		left = map[int]uint64{}
	}
	if !rep.VerifiedEmpty {
		rep.Err = c.err
		pids, _ := c.cg.Procs()
		for _, pid := range pids {
			left[pid] = c.seen[pid]
		}
		rep.Remaining = readAll(left)
	}
	for pid := range c.gone {
		if _, ok := left[pid]; !ok {
			rep.Dead = append(rep.Dead, pid)
		}
	}
	rep.Killed = countGone(c.seen, left)
	rep.Hard = countGone(c.hard, left)
	boot, _ := BootID()
	for pid, start := range c.seen {
		if _, ok := left[pid]; !ok {
			fp := Fingerprint{BootID: boot, PID: pid, StartTime: start}
			rep.Exited = append(rep.Exited, fp)
			if argv, ok := c.names[pid]; ok {
				rep.Ended = append(rep.Ended, Named{Fingerprint: fp, Argv: argv})
			}
		}
	}
	return rep
}
