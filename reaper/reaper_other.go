//go:build !linux

package reaper

import (
	"context"
	"syscall"
)

// macOS will use sysctl kern.proc.* for start times and group members and kqueue
// EVFILT_PROC for exit; Windows will put each run in a Job Object (CTRL_BREAK, then
// TerminateJobObject). Until then every call returns
// ErrNotSupported.

// BootID is not supported here yet.
func BootID() (string, error) { return "", ErrNotSupported }

// Identify is not supported here yet.
func Identify(pid int) (Fingerprint, error) { return Fingerprint{}, ErrNotSupported }

// Alive is not supported here yet.
func (f Fingerprint) Alive() (bool, error) { return false, ErrNotSupported }

// Signal is not supported here yet.
func (f Fingerprint) Signal(sig syscall.Signal) error { return ErrNotSupported }

// ReadProc is not supported here yet.
func ReadProc(pid int) (Proc, error) { return Proc{}, ErrNotSupported }

// ListAll is not supported here yet.
func ListAll() ([]Proc, error) { return nil, ErrNotSupported }

// ListAllBut is not supported here yet.
func ListAllBut(skip func(pid int) bool) ([]Proc, error) { return nil, ErrNotSupported }

// LastPID is not supported here yet.
func LastPID() (int, error) { return 0, ErrNotSupported }

// Session is not supported here yet.
func Session(sid int) ([]Proc, error) { return nil, ErrNotSupported }

// ClockTicks returns 100, the usual tick rate; no value here is measured in ticks yet.
func ClockTicks() int64 { return 100 }

// SignalSession is not supported here yet.
func SignalSession(sid int, sig syscall.Signal) error { return ErrNotSupported }

// WaitExited is not supported here yet.
func WaitExited(pid int) error { return ErrNotSupported }

// Terminate is not supported here yet: it signals nothing and verifies nothing.
func Terminate(ctx context.Context, t Target) Report {
	return Report{Err: ErrNotSupported}
}

// TerminateMany is Terminate of each target.
func TerminateMany(ctxs []context.Context, targets []Target) []Report {
	reps := make([]Report, len(targets))
	for i, t := range targets {
		reps[i] = Terminate(ctxs[i], t)
	}
	return reps
}

// SetSubreaper is not supported here yet.
func SetSubreaper() error { return ErrNotSupported }

// ReapIfZombie is not supported here yet: it reaps nothing.
func ReapIfZombie(pid int) (bool, error) { return false, ErrNotSupported }

// EnvVar is not supported here yet.
func EnvVar(pid int, key string) (string, error) { return "", ErrNotSupported }

// WaitGone is not supported here yet: it returns at once without knowing.
func WaitGone(ctx context.Context, f Fingerprint) error { return ErrNotSupported }

// Claimed is not supported here yet.
func Claimed(all []Proc, c Claim, extra []Fingerprint) ([]Fingerprint, error) {
	return nil, ErrNotSupported
}

// Owned is not supported here yet.
func Owned(pid int, c Claim) error { return ErrNotSupported }

// OwnUID is not supported here yet.
func OwnUID(pid int) error { return ErrNotSupported }

// SignalClaimed is not supported here yet.
func SignalClaimed(c Claim, extra []Fingerprint, sig syscall.Signal) error { return ErrNotSupported }

// ReadCmdline is not supported here yet.
func ReadCmdline(pid int) ([]string, error) { return nil, ErrNotSupported }

// ValidPID reports whether pid can name a process other than init.
func ValidPID(pid int) bool { return pid > 1 && pid <= 1<<22 }
func Children() []int       { return nil }

// SocketInodes is not supported here yet.
func SocketInodes(pid int) []uint64 { return nil }

// SocketPeers is not supported here yet.
func SocketPeers() (map[uint64]uint64, error) { return nil, ErrNotSupported }

// ExitedStatus is not supported here yet.
func ExitedStatus(pid int) (ws syscall.WaitStatus, _ bool, _ error) {
	return ws, false, ErrNotSupported
}
