package reaper

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// member is what the escalation remembers of a live session member.
type member struct {
	start uint64
	pgid  int
	fd    int // pidfd to wait on (a wake-up hint only, never signalled blindly); -1 if none
}

// escapee is a live Extra: its fingerprint and a pidfd pinned and verified against it.
type escapee struct {
	fp      Fingerprint
	fd      int
	refused bool // in Corral's own session or group: tracked, never signalled
	member  bool // claim mode: in the recorded root's session (gets the hang-up)
	record  bool // claim mode: proven by the record (Claim.Recorded) or by lineage from such a one
	stopped bool // had the stop signal
}

// escalation is the state of one Terminate call.
type escalation struct {
	ctx   context.Context
	t     Target
	me    self
	boot  string
	start time.Time
	s     *scanner
	w     waiter

	live    map[int]member  // session members alive at the last look, by pid
	next    map[int]member  // scratch for rescan
	extra   map[int]escapee // Extra alive at the last look, by pid
	seen    map[int]uint64  // every process seen alive (members and Extra): pid → start time
	hard    map[int]uint64  // those alive when SIGKILL was sent
	stopped map[int]bool    // groups that got the stop signal
	zombies map[int]uint64  // session members confirmed exited: pid → start time
	steps   []Step
	names   map[int][]string // what the first MaxNamed processes seen are, for Report.Ended
	out     map[int]bool     // pids seen as Extra (outside the session or cgroup)
	// outside: this escalation ends what the cgroup does not hold, beside the cgroup's
	// (terminateCgroup): Root and Extra, and what descends from them, that are not in
	// it. No session is signalled by group then.
	outside *Cgroup
	// shared: the scans of /proc are those of every session target of a
	// TerminateMany (sharedscan_linux.go), not this escalation's own.
	shared  *sharedScan
	unknown bool  // an Extra could not be checked (I/O error): never verified empty
	scanned bool  // a full scan was done (claim mode reads environments on the first only)
	empty   bool  // verified: no live member, no Extra
	err     error // why not verified (refusal, /proc failure, signal failure)
}

func newEscalation(ctx context.Context, t Target) *escalation {
	if ctx == nil {
		ctx = context.Background()
	}
	if t.Sweep <= 0 {
		t.Sweep = defaultSweep
	}
	if t.Poll <= 0 {
		t.Poll = defaultPoll
	}
	boot, _ := BootID()
	return &escalation{
		ctx: ctx, t: t, me: ownIDs(), boot: boot, start: time.Now(), s: getScanner(), w: newWaiter(),
		live: map[int]member{}, next: map[int]member{}, extra: map[int]escapee{},
		seen: map[int]uint64{}, hard: map[int]uint64{}, stopped: map[int]bool{}, zombies: map[int]uint64{},
		names: map[int][]string{}, out: map[int]bool{},
	}
}

// name names a process seen for the first time, for Report.Ended (the first MaxNamed).
func (e *escalation) name(p Proc) {
	if _, ok := e.seen[p.PID]; ok || len(e.names) >= MaxNamed {
		return
	}
	e.names[p.PID] = nameOf(p, e.t.SID, len(e.names))
}

// nameOf is what Report.Ended shows of process p, the named-th of its escalation: its
// command line, read while it lives, for the first argvRead and for any process outside
// the run's session sid (a daemon: which one it is is what a reader wants to know);
// its command name from stat, read already, for the rest of a big tree (a read each
// delayed the stop signal of a thousand processes).
func nameOf(p Proc, sid, named int) []string {
	if named < argvRead || p.SID != sid {
		if argv, _ := ReadCmdline(p.PID); len(argv) > 0 {
			return argv
		}
	}
	if p.Comm == "" {
		return nil
	}
	return []string{p.Comm}
}

const argvRead = 16

// inside reports whether pid is a member of the cgroup beside which this escalation
// runs (outside mode): the cgroup's own escalation ends it.
func (e *escalation) inside(pid int) bool {
	if e.outside == nil {
		return false
	}
	dir, err := CgroupOf(pid)
	return err == nil && e.outside.Contains(dir)
}

// inRunCgroup reports, in outside mode, whether pid is in the cgroup of this run or of
// another run beside it (a run cgroup of the same base): found by lineage or by the
// run's secret alone, a process there is that run's (a shared daemon passed on to it
// carries the secret of the run that started it), never this one's escapee.
func (e *escalation) inRunCgroup(pid int) bool {
	if e.outside == nil {
		return false
	}
	dir, err := CgroupOf(pid)
	if err != nil {
		return false
	}
	rel, ok := strings.CutPrefix(dir, filepath.Dir(e.outside.Path)+"/")
	name, _, _ := strings.Cut(rel, "/")
	return ok && validCgroupName(name)
}

// release closes every pidfd the escalation still holds.
func (e *escalation) release() {
	for _, m := range e.live {
		closeFd(m.fd)
	}
	for _, x := range e.extra {
		closeFd(x.fd)
	}
	putScanner(e.s)
}

func (e *escalation) count() int { return len(e.live) + len(e.extra) }

// pinExtra pins every Extra that still matches its fingerprint, and in claim mode the
// recorded root. A stale one (pid reused, other boot) is dropped here and never
// signalled; so is one naming pid <= 1 or Corral itself, which only a forged record
// can (a forged escapee with pid 1 got SIGTERM and SIGCONT), and in claim mode one
// that is not Owned (a forged record's fingerprint of another
// user's process, or of one without the run's marker).
func (e *escalation) pinExtra() {
	fps := e.t.Extra
	rooted := false
	if c := e.t.Claim; c != nil && c.Root.PID != 0 {
		fps, rooted = append([]Fingerprint{c.Root}, fps...), true
	} else if e.outside != nil && e.t.Root.PID != 0 {
		fps, rooted = append([]Fingerprint{e.t.Root}, fps...), true
	}
	for i, f := range fps {
		if !ValidPID(f.PID) || f.PID == e.me.pid {
			e.note(ErrProtected)
			continue
		}
		fd, err := f.pin(e.s)
		if err != nil {
			e.unknown = e.unknown || !errors.Is(err, ErrGone)
			e.note(err)
			continue
		}
		var p Proc
		if _, err = e.s.read(f.PID, &p); err != nil {
			unix.Close(fd)
			e.unknown = e.unknown || !errors.Is(err, ErrGone)
			continue
		}
		root := i == 0 && rooted
		byRecord := !root && e.t.Claim != nil && e.t.Claim.Recorded
		if !e.ownsAs(f.PID, fd, byRecord) || e.inside(f.PID) {
			unix.Close(fd)
			continue
		}
		e.name(p)
		e.putExtra(f, fd, p, root, byRecord)
	}
}

// rescan replaces the live set with a full /proc scan of the session and drops Extra
// that exited. Members keep their pidfd across scans; new ones get one. In claim mode
// the session is not trusted (its number may be a stranger's): the scan only extends
// the proven set (expand). Processes descending from Extra are added in both modes.
func (e *escalation) rescan() error {
	clear(e.next)
	claim := e.t.Claim != nil || e.outside != nil // no session to scan: only what is proven extends
	var all []Proc
	keep := claim || len(e.extra) > 0
	each := e.s.each
	switch {
	case e.shared != nil && !keep: // only the session's members are looked at
		each = func(fn func(*Proc, []byte)) error { return e.shared.session(e.t.SID, fn) }
	case e.shared != nil:
		each = e.shared.each
	}
	err := each(func(p *Proc, _ []byte) {
		if keep {
			all = append(all, *p)
		}
		if claim || p.SID != e.t.SID || (dead(p.State) && e.exited(p.PID, p.StartTime)) {
			return
		}
		m, ok := e.live[p.PID]
		if !ok || m.start != p.StartTime {
			m = member{start: p.StartTime, fd: openWatch(p.PID)}
		}
		m.pgid = p.PGID
		e.next[p.PID] = m
		e.name(*p)
		e.seen[p.PID] = p.StartTime
	})
	for pid, m := range e.live {
		if n, ok := e.next[pid]; !ok || n.fd != m.fd {
			closeFd(m.fd)
		}
	}
	e.live, e.next = e.next, e.live
	e.dropExitedExtra()
	if err == nil && keep {
		e.expand(all, !e.scanned)
	}
	e.scanned = true
	return err
}

// exited confirms that a process whose stat says Z has really exited. The stat shows
// the thread-group leader's state, and a leader that called pthread_exit is a zombie
// while its other threads run on; its pidfd becomes readable only when the whole
// group has exited. Confirmed zombies are remembered, so each is checked once.
func (e *escalation) exited(pid int, start uint64) bool {
	if st, ok := e.zombies[pid]; ok && st == start {
		return true
	}
	fd := openWatch(pid)
	if fd < 0 {
		return true // reaped in the meantime
	}
	defer unix.Close(fd)
	if !pidfdExited(fd) {
		return false
	}
	e.zombies[pid] = start
	return true
}

// openWatch opens a pidfd to learn of pid's exit without polling /proc. It is opened
// after the stat was read, so it may pin a newcomer that took a recycled pid; that
// only delays a wake-up until the next full scan, which corrects the live set.
func openWatch(pid int) int {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return -1
	}
	return fd
}

func closeFd(fd int) {
	if fd >= 0 {
		unix.Close(fd)
	}
}

// dropMember forgets a member whose pidfd said it exited. It is remembered as a
// confirmed zombie, so the next full scan, which still sees it as Z until it is
// reaped, does not open a pidfd to confirm it again: for a cancelled tree of a hundred
// that was three syscalls per process in the verifying scan.
func (e *escalation) dropMember(pid int) {
	m := e.live[pid]
	closeFd(m.fd)
	delete(e.live, pid)
	e.zombies[pid] = m.start
}

func (e *escalation) dropExtra(pid int) {
	closeFd(e.extra[pid].fd)
	delete(e.extra, pid)
}

// groups lists the distinct process groups of the live members.
func (e *escalation) groups() []int {
	var gs []int
	for _, m := range e.live {
		if !containsInt(gs, m.pgid) {
			gs = append(gs, m.pgid)
		}
	}
	return gs
}

// signalGroup signals one group of the session, never Corral's own.
func (e *escalation) signalGroup(pgid int, sig syscall.Signal) {
	if pgid == e.me.pgid {
		e.note(ErrOwnSession)
		return
	}
	e.note(signalGroup(e.s, pgid, e.t.SID, sig))
}

// killMember SIGKILLs one member through its pidfd after re-reading its start time:
// if /proc/<pid> still shows the start time the scan saw, the pid has held that same
// process all along, so the pidfd opened in between pins it too.
func (e *escalation) killMember(pid int, m member) {
	if m.fd < 0 || pid == e.me.pid || m.pgid == e.me.pgid {
		return
	}
	var p Proc
	if _, err := e.s.read(pid, &p); err != nil || p.StartTime != m.start || dead(p.State) {
		return
	}
	e.note(sendPidfd(m.fd, syscall.SIGKILL, 0))
}

// signalExtra signals every live Extra through its pinned, verified pidfd.
func (e *escalation) signalExtra(sig syscall.Signal) {
	for pid, x := range e.extra {
		e.signalOne(pid, x, sig)
	}
}

// stopExtra sends the stop signal (and SIGCONT when paused) to the Extra that have not
// had it: all of them at the stop step, later those claimed during the grace.
func (e *escalation) stopExtra() {
	for pid, x := range e.extra {
		if x.stopped {
			continue
		}
		x.stopped = true
		e.extra[pid] = x
		e.signalOne(pid, x, e.stopSignal())
		if e.t.Paused {
			e.signalOne(pid, x, syscall.SIGCONT)
		}
	}
}

func (e *escalation) signalOne(pid int, x escapee, sig syscall.Signal) {
	if x.refused || !ValidPID(pid) {
		e.note(ErrOwnSession)
		return
	}
	e.note(sendPidfd(x.fd, sig, 0))
}

// note keeps the first real signalling error; ErrGone is the expected outcome of
// racing a process that exits on its own.
func (e *escalation) note(err error) {
	if err != nil && !errors.Is(err, ErrGone) && e.err == nil {
		e.err = err
	}
}

// report builds the Report. Processes still alive (by pid and start time) are not
// counted as killed.
func (e *escalation) report() Report {
	verified := e.empty && !e.unknown
	rep := Report{Steps: e.steps, VerifiedEmpty: verified, Elapsed: time.Since(e.start)}
	left := map[int]uint64{}
	if !verified {
		rep.Err = e.err
		for pid, m := range e.live {
			left[pid] = m.start
		}
		for pid, x := range e.extra {
			left[pid] = x.fp.StartTime
		}
		rep.Remaining = readAll(left)
	}
	rep.Killed = countGone(e.seen, left)
	rep.Hard = countGone(e.hard, left)
	for pid, start := range e.seen {
		if st, ok := left[pid]; !ok || st != start {
			fp := Fingerprint{BootID: e.boot, PID: pid, StartTime: start}
			rep.Exited = append(rep.Exited, fp)
			if argv, ok := e.names[pid]; ok {
				rep.Ended = append(rep.Ended, Named{Fingerprint: fp, Argv: argv, Outside: e.out[pid]})
			}
		}
	}
	return rep
}

func countGone(set, left map[int]uint64) int {
	n := 0
	for pid, start := range set {
		if st, ok := left[pid]; !ok || st != start {
			n++
		}
	}
	return n
}

// readAll reads the processes still alive, for Report.Remaining.
func readAll(pids map[int]uint64) []Proc {
	var out []Proc
	for pid, start := range pids {
		if p, err := ReadProc(pid); err == nil && p.StartTime == start {
			out = append(out, p)
		}
	}
	return out
}
