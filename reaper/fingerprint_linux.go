package reaper

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

const bootIDPath = "/proc/sys/kernel/random/boot_id"

// BootID returns this boot's id, a fresh random UUID at every boot. Start times count
// ticks since boot, so a fingerprint means nothing without it.
func BootID() (string, error) { return bootID() }

var bootID = sync.OnceValues(func() (string, error) {
	b, err := os.ReadFile(bootIDPath)
	if err != nil {
		return "", fmt.Errorf("boot id: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
})

// hasPidfs reports whether pidfds live on pidfs (Linux ≥ 6.9). Only there is
// fstat(pidfd).st_ino a per-process id, unique for the boot; before that every pidfd
// was an anonymous inode sharing one inode number.
var hasPidfs = sync.OnceValue(func() bool {
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	var fs unix.Statfs_t
	return unix.Fstatfs(fd, &fs) == nil && fs.Type == unix.PID_FS_MAGIC
})

// Identify fingerprints a live or zombie process. The pidfd is opened FIRST: it pins the
// process, so the start time read afterwards and the inode belong to the same one. A
// pid recycled between the two is caught by polling the pidfd (it reports the pinned
// process's exit) against the state the stat line shows.
func Identify(pid int) (Fingerprint, error) {
	boot, err := BootID()
	if err != nil {
		return Fingerprint{}, err
	}
	fd, err := openPidfd(pid)
	if err != nil {
		return Fingerprint{}, fmt.Errorf("identify %d: %w", pid, err)
	}
	defer unix.Close(fd)
	ino, err := pidfdIno(fd)
	if err != nil {
		return Fingerprint{}, fmt.Errorf("identify %d: %w", pid, err)
	}
	p, err := ReadProc(pid)
	if err != nil {
		return Fingerprint{}, fmt.Errorf("identify %d: %w", pid, err)
	}
	if pidfdExited(fd) && !dead(p.State) {
		return Fingerprint{}, fmt.Errorf("identify %d: %w", pid, ErrGone) // the stat is a newcomer's
	}
	return Fingerprint{BootID: boot, PID: pid, StartTime: p.StartTime, PidfsIno: ino}, nil
}

// Alive reports whether the fingerprinted process still exists and is not a zombie. A
// mismatch (pid reused, another boot) is (false, nil); only unexpected I/O failures are
// errors.
func (f Fingerprint) Alive() (bool, error) {
	s := getScanner()
	defer putScanner(s)
	fd, err := f.pin(s)
	if err == ErrGone {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	unix.Close(fd)
	return true, nil
}

// Signal sends sig to exactly the fingerprinted process: pidfd_open(pid), re-verify the
// fingerprint against what the pidfd pinned, then pidfd_send_signal. ErrGone (nothing
// signalled) when it no longer matches or exited.
func (f Fingerprint) Signal(sig syscall.Signal) error {
	if f.PID <= 1 {
		return ErrProtected
	}
	s := getScanner()
	defer putScanner(s)
	fd, err := f.pin(s)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return sendPidfd(fd, sig, 0)
}

// pin opens a pidfd for f.PID and returns it only when the pinned process is the
// fingerprinted one and alive. Otherwise ErrGone (or an I/O error).
func (f Fingerprint) pin(s *scanner) (int, error) {
	if f.PID <= 0 {
		return -1, ErrGone
	}
	if boot, err := BootID(); err != nil {
		return -1, err
	} else if boot != f.BootID {
		return -1, ErrGone
	}
	fd, err := openPidfd(f.PID)
	if err != nil {
		return -1, err
	}
	if err := f.verify(s, fd); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// verify checks the process behind fd against f: the pidfs inode when both are known,
// then the start time and state in /proc/<pid>/stat. If the pinned process was reaped
// and its pid reused, the stat shows the newcomer's start time and the check fails.
func (f Fingerprint) verify(s *scanner, fd int) error {
	ino, err := pidfdIno(fd)
	if err != nil {
		return err
	}
	if ino != 0 && f.PidfsIno != 0 && ino != f.PidfsIno {
		return ErrGone
	}
	var p Proc
	if _, err := s.read(f.PID, &p); err != nil {
		return err
	}
	if p.StartTime != f.StartTime || dead(p.State) {
		return ErrGone
	}
	return nil
}

// openPidfd is pidfd_open(pid, 0). ESRCH (no such process) and EINVAL (the number is
// now a thread of another process, not a thread-group leader) both mean gone.
func openPidfd(pid int) (int, error) {
	if pid <= 0 {
		return -1, ErrGone
	}
	for {
		fd, err := unix.PidfdOpen(pid, 0)
		switch err {
		case nil:
			return fd, nil
		case unix.EINTR:
			continue
		case unix.ESRCH, unix.EINVAL:
			return -1, ErrGone
		}
		return -1, fmt.Errorf("pidfd_open %d: %w", pid, err)
	}
}

// pidfdIno is fstat(pidfd).st_ino on pidfs, and 0 on kernels without it.
func pidfdIno(fd int) (uint64, error) {
	if !hasPidfs() {
		return 0, nil
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0, fmt.Errorf("fstat pidfd: %w", err)
	}
	return st.Ino, nil
}

// pidfdExited polls the pidfd without blocking: it is readable once the pinned process
// has exited (zombie or reaped).
func pidfdExited(fd int) bool {
	pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(pfd, 0)
		if err != unix.EINTR {
			return err == nil && n > 0 && pfd[0].Revents != 0
		}
	}
}

// sendPidfd is pidfd_send_signal; ESRCH (the pinned process was reaped) means gone.
func sendPidfd(fd int, sig syscall.Signal, flags int) error {
	err := unix.PidfdSendSignal(fd, sig, nil, flags)
	if err == unix.ESRCH {
		return ErrGone
	}
	if err != nil {
		return fmt.Errorf("pidfd_send_signal %v: %w", sig, err)
	}
	return nil
}
