package reaper

import (
	"errors"
	"runtime"
)

var (
	// ErrNotSupported is returned on platforms whose mechanics are not written yet.
	ErrNotSupported = errors.New("reaper: not supported on " + runtime.GOOS + " yet")
	// ErrGone means the process (or every member of the session) no longer exists, or
	// its pid now belongs to another process. Nothing was signalled.
	ErrGone = errors.New("reaper: process gone")
	// ErrOwnSession refuses to signal Corral's own session or process group.
	ErrOwnSession = errors.New("reaper: refusing to signal corral's own session or process group")
	// ErrProtected refuses to signal pid or group numbers <= 1 (kill(0) is the caller's
	// group, kill(-1) is every process, pid 1 is init), and ReapIfZombie refuses pids
	// <= 0 (wait4 would take any child of a group, or of all).
	ErrProtected = errors.New("reaper: refusing to signal pid or group <= 1")
	// ErrBadCgroup refuses a cgroup that is not one of Corral's runs' (a record read
	// from disk names it, and may be forged).
	ErrBadCgroup = errors.New("reaper: not a run cgroup of corral's")
	// ErrNotOurs: a live process a record names is not Corral's to signal: another
	// uid's, or without the run's marker in its environment.
	ErrNotOurs = errors.New("reaper: not provably this run's process")
	// errBadStat reports a /proc/<pid>/stat line this package cannot parse.
	errBadStat = errors.New("reaper: malformed stat line")
)
