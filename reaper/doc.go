// Package reaper holds the OS mechanics of ownership: who a process is,
// which processes belong to a run, and how a run is ended and verified empty.
//
// The ownership unit is the session (or, where Corral can make cgroups, a cgroup of the
// run's own: cgroup_linux.go). Every run is started with setsid, so its root has
// pid == pgid == sid, and everything it starts stays in that session unless it escapes
// with setsid or a daemonizing double fork. Job-control shells put jobs in their own
// process groups inside the session, so signals go to every group of the session, never
// only to the root's group.
//
// Identity is a Fingerprint: boot id + pid + start time (field 22 of /proc/<pid>/stat)
// + the pidfs inode of a pidfd when the kernel has pidfs (Linux ≥ 6.9). A process that
// is not our direct child is signalled only through a pidfd opened first and verified
// against the fingerprint afterwards, so a recycled pid is never hit.
//
// Terminate is the one escalation for PTY and pipe runs: optional hang-up, the stop
// signal to every group (plus SIGCONT when paused), a grace period polled cheaply,
// SIGKILL for what remains, and a bounded sweep until the session is verified empty.
// It learns of exits from pidfds (readable once the process has exited) and confirms
// with full /proc scans, so waiting costs no CPU the dying processes need.
// A session a pass could not verify empty gets Target.Retries more passes, with no
// grace and a doubled sweep, merged into one Report (retry.go).
// The run root is expected to be an unreaped zombie while it runs (see WaitExited):
// the zombie keeps its pid, pgid and sid numbers allocated, so kill(-pgid) cannot reach
// a stranger that reused the number. A run whose root Corral does not pin (reconciled
// after its owner died, or adopted) is ended in claim mode instead (Target.Claim): no
// group is signalled, only processes proven the run's, one by one through pidfds
// verified against their fingerprints (Claim lists the proofs), each of Corral's uid
// and carrying the run's marker in its environment (Owned).
//
// Corral is a child subreaper (SetSubreaper), so a descendant that double-forks out of
// its session reparents to Corral rather than init. Reparenting sends no SIGCHLD: the
// caller scans Children, reaps zombies by exact pid (ReapIfZombie; never wait4(-1),
// which would steal exec.Cmd's exit status), attributes escapees from earlier tree
// walks (Escapees), and shows each run as a Tree built from one shared ListAll.
//
// Nothing here matches command lines or process names; decisions use only session ids,
// group ids, pids, fingerprints and, in claim mode, uids and the run's inherited marker
// (EnvVar).
// ReadCmdline reads an escapee's argv for display only. Linux is implemented; macOS and Windows compile and
// return ErrNotSupported.
package reaper
