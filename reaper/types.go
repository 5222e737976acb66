package reaper

import (
	"syscall"
	"time"
)

// Fingerprint identifies one process across time: the boot it ran in, its pid, its
// start time and, where the kernel has pidfs, the inode of a pidfd for it. The pid alone
// is not an identity: pids are recycled (pid_max is 32768 on many systems).
type Fingerprint struct {
	BootID    string `json:"boot_id"`
	PID       int    `json:"pid"`
	StartTime uint64 `json:"start_time"`          // clock ticks since boot
	PidfsIno  uint64 `json:"pidfs_ino,omitempty"` // fstat(pidfd).st_ino; 0 without pidfs
}

// Proc is one process as /proc/<pid>/stat shows it.
type Proc struct {
	PID, PPID, PGID, SID int
	State                byte   // R S D Z T t X ...
	Comm                 string // command name (between the first '(' and the last ')')
	StartTime            uint64 // ticks since boot
	UTime, STime         uint64 // ticks
	RSS                  int64  // bytes (pages × page size)
	Threads              int
}

// dead reports a state that counts as gone: a zombie has exited and only waits to be
// reaped; X is the brief state of a task being released.
func dead(state byte) bool { return state == 'Z' || state == 'X' }

// Target is what Terminate ends: one run's session plus escapees attributed to it.
type Target struct {
	SID    int            // the run's session id (the root's pid)
	PTY    bool           // send SIGHUP (+SIGCONT) to every group first, as a terminal hang-up would
	Stop   syscall.Signal // 0 means SIGTERM
	Paused bool           // follow the stop signal with SIGCONT (a stopped process cannot act on SIGTERM)
	Grace  time.Duration  // how long to wait after the stop signal before SIGKILL
	Sweep  time.Duration  // bound on the post-SIGKILL sweep; 0 means 2 s
	Poll   time.Duration  // how often ctx (and /proc, for members without a pidfd) is checked while waiting; 0 means 10 ms
	Extra  []Fingerprint  // escapees attributed to the run (other sessions)
	// Claim, when set, says Corral does not pin the run's root (a dead owner's run being
	// reconciled, or one adopted from it): its pid, group and session numbers may have
	// been recycled by strangers, so no group is signalled at all. Only processes proven
	// the run's (see Claim) are, each through a pidfd verified against its fingerprint.
	// Nil is the live-run fast path: the root is our unreaped child (WaitExited), its
	// zombie pins the numbers, and every group of session SID is signalled.
	Claim *Claim
	// OnStep, when set, is called right after each escalation step is performed, with
	// the number of processes the step targeted, so the caller can log each step as it
	// happens rather than only from the Report. It runs synchronously on Terminate's
	// goroutine, which holds no lock; a slow OnStep delays the escalation.
	OnStep func(step Step, signalled int)
	// Cgroup, when set, is the run's cgroup (the cgroup backend): the members of its
	// whole subtree are the run, whatever their session, and it is emptied with
	// cgroup.kill. What the cgroup does not hold — Root and Extra when they are not in
	// it (moved out of it, as root can) — is ended by the session mechanics beside it,
	// through pidfds verified against their fingerprints (and, with Claim, only those
	// Owned); no session is signalled by group then. A cgroup gone from outside (emptied
	// and removed) leaves the session mechanics alone for SID, Root and Extra. Nil is
	// the session backend.
	Cgroup *Cgroup
	// Root is the run's root on the cgroup backend: ended beside the cgroup when it is
	// not a member of it. Zero: not known.
	Root Fingerprint
	// Retries is how many more passes a session not verified empty gets (a member
	// stuck in uninterruptible sleep, a failed /proc read): each with no grace and
	// twice the sweep of the one before, merged into one Report (see retry.go).
	Retries int
	// Reap, when set (TerminateMany, the cgroup backend), has each member of the
	// cgroup that exited reaped through the pidfd it was signalled through, if it is
	// this process's child (a zombie reparented to Corral, the subreaper) and Reap(pid)
	// allows it (never a run's root: its exec.Cmd reaps it). The pidfd names that
	// process alone, so no stat is read to tell it from another with its pid.
	// Report.Reaped lists those reaped.
	Reap func(pid int) bool
}

// Claim is what a run whose root Corral does not pin may claim as its own. A process
// is the run's only when it is Owned — its real and effective uid are Corral's and it
// carries EnvKey=EnvValue in /proc/PID/environ (what every process of the run
// inherits), so a record alone, forged or not, never makes a process Corral's — and
// provably so by one of: the recorded root itself (fingerprint); any Extra
// (fingerprint); a member of a session led by a live claimed process (the live leader
// holds the session number); a descendant by parent pid of a claimed process, started
// no earlier than it, its parent pinned and alive after the snapshot; or, with Find, a
// process started at or after the root (an escapee whose parents are gone). Never a
// process merely in a session numbered like the dead root: after pid reuse that is a
// stranger's. A claim without a marker claims nothing.
type Claim struct {
	Root     Fingerprint
	EnvKey   string // e.g. CORRAL_RUN_SECRET
	EnvValue string
	// Find claims a process for its marker alone. Only for a marker nobody can copy
	// (a run's secret): a public one (the run id `corral ls` prints) let a process the
	// user started with a copied id be reaped with the run.
	Find bool
	// Recorded: the Extra fingerprints were written by Corral into a record of this
	// state dir when it saw them leave the run (its escapees): each is the
	// run's by that record — its exact pid, start time and boot — and needs our uid,
	// not the marker, which an `env -i` daemon does not carry; so do the processes
	// descending from one (by lineage, as from the root). Without it an escapee the
	// record named was dropped after a crash and the run said "verified empty" while
	// it lived.
	Recorded bool
}

// Named is a process an escalation ended: its identity and its command line read
// when it was first seen (display only: a process can rewrite it at will) or, for a
// member of the run's session beyond the first few of a big tree, its command name.
// Where many runs are ended at once (TerminateMany, a shutdown), a member of a run's
// session that ended on the stop signal is named by its command name; one that
// outlived the grace, by its command line read before it was killed.
type Named struct {
	Fingerprint
	Argv []string
	// Outside: not a member of the session or cgroup itself but one of Target.Extra
	// (an escapee) or found from one.
	Outside bool
}

// MaxNamed bounds Report.Ended: a cancelled tree of thousands is counted in full and
// named in part (reading each command line costs a file read while it lives).
const MaxNamed = 100

// Step is one escalation step Terminate performed.
type Step string

// The escalation steps, in the order they can happen.
const (
	StepHup  Step = "hup"
	StepTerm Step = "term"
	StepKill Step = "kill"
)

// Report says what Terminate did and what it verified.
type Report struct {
	Steps         []Step // steps actually performed, in order; empty when nothing was alive
	Killed        int    // distinct processes seen alive during the escalation that are gone at the end
	Hard          int    // of them, how many needed SIGKILL
	VerifiedEmpty bool   // the session has no live (non-zombie) member and every Extra is gone
	Remaining     []Proc // when not verified empty
	// Exited names (PID, StartTime) every process seen alive that is gone at the end.
	// Those that were reparented to a subreaper Corral are its zombies now; the caller
	// may reap them by exact pid (runs does, so /proc does not fill with them).
	Exited []Fingerprint
	// Reaped are those of Exited reaped already (Target.Reap), by pid and start time
	// (a pid reused by another member that exits later is not one of them): the caller
	// does not reap them again.
	Reaped []Fingerprint
	// Dead are the pids of Exited that the pidfd they were signalled through saw exit
	// (the cgroup backend): dead for certain, where Exited may hold one whose /proc
	// could not be read. Not to be read again.
	Dead []int
	// Ended names what the cleanup ended (at most MaxNamed of them; Killed counts them
	// all): each process seen alive and gone at the end, with its command line as first
	// seen, so a report can say what was killed, not only how many.
	Ended   []Named
	Elapsed time.Duration
	// Err says why the escalation was refused (ErrOwnSession, ErrProtected,
	// ErrNotSupported) or could not verify (a /proc read failure). Nil otherwise.
	Err error
}

// Descendants returns the descendants of pid in a process list, linked by parent pid,
// breadth first. It is pure: the list is one snapshot (ListAll), so a walk is O(N)
// instead of re-reading /proc per node.
func Descendants(all []Proc, pid int) []Proc { return NewFamily(all).Descendants(pid) }

// Family is one snapshot (ListAll) indexed by parent pid, for walking the trees of
// many roots: one pass to build, then each walk costs its tree's size. The escape
// scan walks every run's tree twice a second, and rebuilding the index per walk was
// most of that scan's CPU in an idle Corral with 50 runs.
type Family struct {
	all  []Proc
	kids map[int][]int // ppid → indexes into all
}

// NewFamily indexes all.
func NewFamily(all []Proc) Family {
	kids := make(map[int][]int, len(all))
	for i, p := range all {
		kids[p.PPID] = append(kids[p.PPID], i)
	}
	return Family{all: all, kids: kids}
}

// Descendants is the package function Descendants on the indexed snapshot.
func (f Family) Descendants(pid int) []Proc {
	visited := map[int]bool{pid: true} // a snapshot racing pid reuse may hold a cycle
	var out []Proc
	queue := append([]int(nil), f.kids[pid]...)
	for len(queue) > 0 {
		p := f.all[queue[0]]
		queue = queue[1:]
		if visited[p.PID] {
			continue
		}
		visited[p.PID] = true
		out = append(out, p)
		queue = append(queue, f.kids[p.PID]...)
	}
	return out
}
