package reaper

import (
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// self is Corral's own pid, process group and session: never signalled.
type self struct{ pid, pgid, sid int }

func ownIDs() self {
	sid, _ := unix.Getsid(0) // getsid(0) is the caller's own session: it cannot fail
	return self{pid: os.Getpid(), pgid: unix.Getpgrp(), sid: sid}
}

// SignalSession sends sig to every process group that has a live member in session sid
// (all of them: job-control shells give each job its own group in the session). It
// refuses with ErrOwnSession when sid is Corral's own session or any group is Corral's
// own group, and with ErrProtected for numbers <= 1; ErrGone when no member is alive.
func SignalSession(sid int, sig syscall.Signal) error {
	me := ownIDs()
	if err := me.checkSession(sid); err != nil {
		return err
	}
	s := getScanner()
	defer putScanner(s)
	groups, err := s.sessionGroups(sid)
	if err != nil {
		return fmt.Errorf("signal session %d: %w", sid, err)
	}
	if len(groups) == 0 {
		return fmt.Errorf("signal session %d: %w", sid, ErrGone)
	}
	for _, g := range groups {
		if g == me.pgid {
			return ErrOwnSession
		}
	}
	var errs []error
	for _, g := range groups {
		if err := signalGroup(s, g, sid, sig); err != nil && !errors.Is(err, ErrGone) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// checkSession refuses our own session, session 0 (kernel threads) and init's. Our own
// session is checked first: inside a PID namespace whose session leader lives outside it
// (a container started by a runtime, as CI is) getsid reports 0, and the refusal should
// still name the real reason.
func (me self) checkSession(sid int) error {
	if sid == me.sid {
		return ErrOwnSession
	}
	if sid <= 1 {
		return ErrProtected
	}
	return nil
}

// sessionGroups lists the distinct process groups with a live member in session sid.
func (s *scanner) sessionGroups(sid int) ([]int, error) {
	var groups []int
	err := s.each(func(p *Proc, _ []byte) {
		if p.SID == sid && !dead(p.State) && !containsInt(groups, p.PGID) {
			groups = append(groups, p.PGID)
		}
	})
	return groups, err
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// groupFlagMissing is set once PIDFD_SIGNAL_PROCESS_GROUP failed with EINVAL (Linux
// before 6.9), so later calls go straight to kill(-pgid).
var groupFlagMissing atomic.Bool

// signalGroup sends sig to process group pgid of session sid. kill(-pgid) names the
// group by number, and the number is freed once no task uses it as pid, pgid or sid
// (kernel/pid.c). So, when the leader exists, it signals through the leader's pidfd with
// PIDFD_SIGNAL_PROCESS_GROUP: the pidfd pins the struct pid that IS the group's id, and
// the leader's stat confirms it still belongs to this session. Without a leader (it was
// reaped) or on older kernels it falls back to kill(-pgid); the group number is then
// held by the remaining members, and the run root (the main group's leader) is kept an
// unreaped zombie for exactly this reason.
func signalGroup(s *scanner, pgid, sid int, sig syscall.Signal) error {
	if pgid <= 1 {
		return ErrProtected
	}
	if !groupFlagMissing.Load() {
		done, err := signalGroupPidfd(s, pgid, sid, sig)
		if done {
			return err
		}
	}
	err := unix.Kill(-pgid, sig)
	if err == unix.ESRCH {
		return ErrGone
	}
	if err != nil {
		return fmt.Errorf("kill(-%d, %v): %w", pgid, sig, err)
	}
	return nil
}

// signalGroupPidfd tries the pidfd path; done is false when the caller should fall back
// to kill(-pgid).
func signalGroupPidfd(s *scanner, pgid, sid int, sig syscall.Signal) (done bool, err error) {
	fd, err := openPidfd(pgid)
	if err != nil {
		return false, nil // leader reaped: the members still hold the number
	}
	defer unix.Close(fd)
	var p Proc
	if _, err := s.read(pgid, &p); err != nil {
		return false, nil
	}
	if p.SID != sid {
		// The leader left the session (setsid) or the number was recycled, which means
		// the group we saw no longer exists. Signal nothing.
		return true, ErrGone
	}
	err = unix.PidfdSendSignal(fd, sig, nil, unix.PIDFD_SIGNAL_PROCESS_GROUP)
	switch err {
	case nil:
		return true, nil
	case unix.ESRCH:
		return true, ErrGone
	case unix.EINVAL:
		groupFlagMissing.Store(true)
		return false, nil
	}
	return true, fmt.Errorf("pidfd group signal %d %v: %w", pgid, sig, err)
}

// WaitExited blocks until the direct child pid has exited, WITHOUT reaping it
// (waitid(P_PID, pid, WEXITED|WNOWAIT)). The zombie keeps its pid, pgid and sid numbers
// allocated while the session is cleaned, and exec.Cmd.Wait still reaps it and gets the
// exit status afterwards. It never waits for "any child": wait4(-1) would steal
// exec.Cmd's status.
//
// The wait holds no thread: the child's pidfd (readable once it has exited) waits in
// the Go netpoller, one epoll for every run, and the waitid that follows returns at
// once. A blocking waitid would hold an OS thread per run for the run's whole life
// (a thousand idle runs, a thousand threads). Without a pollable pidfd (Linux < 5.3,
// seccomp, no free descriptor) it falls back to that blocking waitid.
func WaitExited(pid int) error {
	if fd, err := openPidfd(pid); err == nil {
		if ownChild(fd) {
			awaitPidfd(fd)
		} else {
			unix.Close(fd)
		}
	}
	return waitExitedBlocking(pid)
}

// ownChild reports whether the pidfd fd is of a child of ours that is not reaped:
// waitid(P_PIDFD) fails with ECHILD for any other process (a pid reused after its
// reaping), and with EINVAL before Linux 5.4; both leave the wait to waitid(P_PID),
// which says so at once or waits itself.
func ownChild(fd int) bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PIDFD, fd, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return err == nil
		}
	}
}

// awaitPidfd blocks in the netpoller until the pidfd fd (owned from here on, closed on
// return) is readable; it returns at once when the pidfd cannot join the netpoller,
// leaving the wait to the caller.
func awaitPidfd(fd int) {
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return
	}
	file := os.NewFile(uintptr(fd), "pidfd")
	defer file.Close()
	if rc, err := file.SyscallConn(); err == nil {
		_ = rc.Read(func(fd uintptr) bool { return pidfdExited(int(fd)) })
	}
}

// waitExitedBlocking is WaitExited in a blocking waitid.
func waitExitedBlocking(pid int) error {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			if err != nil {
				return fmt.Errorf("waitid %d: %w", pid, err)
			}
			return nil
		}
	}
}

// ExitedStatus reports whether the direct child pid has exited and its wait status,
// WITHOUT reaping it (waitid(P_PID, pid, WEXITED|WNOHANG|WNOWAIT)): the zombie keeps
// its numbers until its holder reaps it (ReapIfZombie). A pid that is not our child
// is an error (ECHILD).
func ExitedStatus(pid int) (syscall.WaitStatus, bool, error) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, false, fmt.Errorf("waitid %d: %w", pid, err)
		}
		c := (*sigchld)(unsafe.Pointer(&info))
		if c.pid != int32(pid) {
			return 0, false, nil // still running: WNOHANG leaves the info zeroed
		}
		return c.waitStatus(), true, nil
	}
}

// sigchld is the head of a siginfo_t that waitid fills for a child: signo, errno and
// code, then (aligned to a pointer) the child's pid, uid and status.
type sigchld struct {
	signo, errno, code int32
	_                  [unsafe.Sizeof(uintptr(0))/4 - 1]int32
	pid                int32
	uid                uint32
	status             int32
}

// waitStatus encodes the siginfo as wait4 would have: an exit code in the second
// byte, or the killing signal (with 0x80 for a core dump) in the first.
func (c *sigchld) waitStatus() syscall.WaitStatus {
	const cldExited, cldDumped = 1, 3 // CLD_* of <signal.h>
	switch c.code {
	case cldExited:
		return syscall.WaitStatus(uint32(c.status&0xff) << 8)
	case cldDumped:
		return syscall.WaitStatus(uint32(c.status&0x7f) | 0x80)
	}
	return syscall.WaitStatus(uint32(c.status & 0x7f)) // CLD_KILLED
}
