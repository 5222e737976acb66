package reaper

import (
	"bytes"
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Claimed returns the live processes that provably belong to a run whose root Corral
// does not pin (the rules of Claim, evaluated on one snapshot), each verified through a
// pidfd at the time of the call. Nothing is signalled. all is a ListAll snapshot to
// reuse (a reconcile pass shares one across its records); nil takes a fresh one.
// Reconciliation uses it to tell a live orphan (steal, then reap) from a lost one.
func Claimed(all []Proc, c Claim, extra []Fingerprint) ([]Fingerprint, error) {
	e, err := claimScan(all, c, extra)
	if err != nil {
		return nil, err
	}
	defer e.release()
	var out []Fingerprint
	for _, x := range e.extra {
		if !x.refused {
			out = append(out, x.fp)
		}
	}
	return out, nil
}

// claimScan pins what claim c and extra prove the run's, on snapshot all (nil: a
// fresh one). The caller releases the escalation it returns.
func claimScan(all []Proc, c Claim, extra []Fingerprint) (*escalation, error) {
	e := newEscalation(nil, Target{SID: c.Root.PID, Claim: &c, Extra: extra})
	if err := e.validate(); err != nil {
		e.release()
		return nil, err
	}
	e.pinExtra()
	var err error
	if all == nil {
		if all, err = ListAll(); err != nil {
			e.release()
			return nil, err
		}
	}
	e.dropExitedExtra()
	e.expand(all, true)
	return e, nil
}

// validate refuses targets no record of ours can name: a session or root number <= 1
// or out of the kernel's pid range (a forged or corrupt record), and
// Corral's own session.
func (e *escalation) validate() error {
	if e.outside != nil { // no session is signalled: only pinned, verified processes
		if e.t.Claim != nil && e.t.Claim.Root.PID != 0 && !ValidPID(e.t.Claim.Root.PID) {
			return ErrProtected
		}
		return nil
	}
	if e.t.Claim != nil && e.t.Claim.Root.PID != 0 && !ValidPID(e.t.Claim.Root.PID) {
		return ErrProtected
	}
	if !ValidPID(e.t.SID) {
		if e.t.SID == e.me.sid {
			return ErrOwnSession
		}
		return ErrProtected
	}
	return e.me.checkSession(e.t.SID)
}

// maxPID is PID_MAX_LIMIT on 64-bit Linux (4M); /proc/sys/kernel/pid_max cannot be set
// above it, so a larger number can never name a process.
const maxPID = 1 << 22

// ValidPID reports whether pid can name a process other than init: 1 < pid <= 4194304.
// Records are read from disk and may be forged; kill(0), kill(-1) and pid 1 must never
// be reachable through one.
func ValidPID(pid int) bool { return pid > 1 && pid <= maxPID }

// dropExitedExtra forgets claimed processes whose pidfd says they exited. Called after
// a snapshot was read: every one kept was alive for the whole of that read, so a parent
// pid or session id naming it in the snapshot named this very process (a number is not
// reused while its process lives).
func (e *escalation) dropExitedExtra() {
	for pid, x := range e.extra {
		if pidfdExited(x.fd) {
			e.dropExtra(pid)
		}
	}
}

// expand adds to e.extra every process of the snapshot that provably belongs to the
// run, starting from the processes already proven (the pinned Extra, and in claim mode
// the recorded root):
//
//   - a child (by ppid) of a proven process, started no earlier than it: a parent
//     pinned after the snapshot was alive through it, so the ppid named that parent; a
//     process reparented to a proven subreaper descends from it all the same;
//   - a member of a session led by a proven process: sessions are joined only by
//     fork, so every member descends from the leader, and a live leader holds the
//     session number, which therefore cannot be recycled;
//   - in claim mode with Find, on the first scan, a process that carries the run's
//     secret marker and started at or after the run's root: how a reconcile after a
//     crash still finds an escapee whose parents are gone.
//
// In claim mode every newcomer must also be Owned (our uid, the run's marker in its
// environment). Each is pinned (pidfd, then its start time re-read)
// before it is trusted as a parent in turn. Nothing is ever claimed for sharing a
// session number with a dead root: that is how a recycled pid once got an unrelated
// daemon killed by a reconcile.
func (e *escalation) expand(all []Proc, first bool) {
	find := first && e.t.Claim != nil && e.t.Claim.Find
	if len(e.extra) == 0 && !find {
		return
	}
	fam := NewFamily(all)
	bySID := map[int][]int{}
	for i, p := range all {
		if p.SID != p.PID {
			bySID[p.SID] = append(bySID[p.SID], i)
		}
	}
	queue := make([]Proc, 0, len(e.extra))
	index := make(map[int]int, len(all))
	for i, p := range all {
		index[p.PID] = i
	}
	for pid, x := range e.extra {
		// A refused process (in Corral's own session or group) proves nothing about its
		// children: a forged record naming the user's shell must not claim what the
		// user runs from it.
		if i, ok := index[pid]; ok && all[i].StartTime == x.fp.StartTime && !x.refused {
			queue = append(queue, all[i])
		}
	}
	if find {
		for _, p := range all {
			if e.mayCarry(p) && e.admit(p, true, false) {
				queue = append(queue, p)
			}
		}
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		from := e.extra[p.PID]
		if from.refused {
			continue
		}
		for _, i := range fam.kids[p.PID] {
			if c := all[i]; c.StartTime >= p.StartTime && e.admit(c, false, from.record) {
				queue = append(queue, c)
			}
		}
		if p.SID != p.PID {
			continue
		}
		for _, i := range bySID[p.PID] {
			if e.admit(all[i], p.PID == e.rootPID(), from.record) {
				queue = append(queue, all[i])
			}
		}
	}
}

// rootPID is the recorded root in claim mode, 0 otherwise.
func (e *escalation) rootPID() int {
	if e.t.Claim == nil {
		return 0
	}
	return e.t.Claim.Root.PID
}

// admit pins p and adds it to e.extra; false when it is already there, dead, not
// signallable at all (pid <= 1), no longer the process the snapshot saw, or in claim
// mode not Owned (byRecord: descending from a process the record proves, of our uid).
func (e *escalation) admit(p Proc, member, byRecord bool) bool {
	if x, ok := e.extra[p.PID]; (ok && x.fp.StartTime == p.StartTime) || dead(p.State) || !ValidPID(p.PID) || p.PID == e.me.pid {
		return false
	}
	fp := Fingerprint{BootID: e.boot, PID: p.PID, StartTime: p.StartTime}
	fd, err := openPidfd(p.PID)
	if err != nil {
		return false
	}
	// The pidfd is opened after the snapshot read p; the start time read again now
	// proves the pid held this same process in between, so the pidfd pins it.
	var now Proc
	if err := fp.verify(e.s, fd); err != nil {
		unix.Close(fd)
		return false
	}
	fp.PidfsIno, _ = pidfdIno(fd)
	if _, err := e.s.read(p.PID, &now); err != nil || !e.ownsAs(p.PID, fd, byRecord) || e.inRunCgroup(p.PID) {
		unix.Close(fd)
		return false
	}
	e.name(now)
	e.putExtra(fp, fd, now, member, byRecord)
	return true
}

// putExtra records a pinned process as the run's, refusing (tracking, never
// signalling) one in Corral's own session or group.
func (e *escalation) putExtra(fp Fingerprint, fd int, p Proc, member, byRecord bool) {
	refused := p.PID == e.me.pid || p.SID == e.me.sid || p.PGID == e.me.pgid
	if old, dup := e.extra[fp.PID]; dup {
		closeFd(old.fd)
	}
	e.extra[fp.PID] = escapee{fp: fp, fd: fd, refused: refused, member: member, record: byRecord}
	e.seen[fp.PID] = fp.StartTime
	e.out[fp.PID] = !member
}

// mayCarry reports whether p is worth admitting for the claim's marker alone (Find):
// alive, signallable, not claimed yet, started at or after the root (a process older
// than the run cannot have inherited from it), of our uid by the owner of /proc/<pid>
// and carrying the marker. These cheap looks spare most processes a pidfd; admit then
// checks the pinned process itself (Owned).
func (e *escalation) mayCarry(p Proc) bool {
	c := e.t.Claim
	if dead(p.State) || !ValidPID(p.PID) || p.StartTime < c.Root.StartTime {
		return false
	}
	if x, ok := e.extra[p.PID]; ok && x.fp.StartTime == p.StartTime {
		return false
	}
	var st unix.Stat_t
	if unix.Stat("/proc/"+strconv.Itoa(p.PID), &st) != nil || int(st.Uid) != os.Geteuid() {
		return false
	}
	v, err := markerOf(p.PID, c.EnvKey)
	return err == nil && v == c.EnvValue
}

// ReadCmdline returns a process's argv from /proc/<pid>/cmdline, for display only: a
// process can rewrite it at will, so nothing is ever decided from it. Empty for a
// zombie or a kernel thread.
func ReadCmdline(pid int) ([]string, error) {
	if pid <= 0 {
		return nil, ErrGone
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, unix.ESRCH) {
			return nil, ErrGone
		}
		return nil, err
	}
	const maxCmdline = 4096 // display only: a huge argv is cut, never held whole
	if len(b) > maxCmdline {
		b = b[:maxCmdline]
	}
	b = bytes.TrimRight(b, "\x00")
	if len(b) == 0 {
		return nil, nil
	}
	return toStrings(bytes.Split(b, []byte{0})), nil
}

func toStrings(bs [][]byte) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = string(b)
	}
	return out
}
