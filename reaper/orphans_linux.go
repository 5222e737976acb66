package reaper

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// SetSubreaper makes this process a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so
// descendants that double-fork reparent to it instead of init, where Corral can still
// see, attribute and kill them. Idempotent. Reparenting sends the subreaper no SIGCHLD
// (only a child's death does), so orphans are found by scanning Children.
func SetSubreaper() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("set child subreaper: %w", err)
	}
	return nil
}

// ReapIfZombie reaps exactly pid if it is a zombie child of this process:
// wait4(pid, WNOHANG). It never waits for "any child" (wait4(-1) or a group): that
// would steal exec.Cmd's exit status from its Wait. It returns (true, nil)
// when it reaped, (false, nil) when pid is still running or not our child.
//
// The caller guarantees pid is not a process some exec.Cmd still owns, by holding the
// lock that covers cmd.Start and run registration. __WALL also reaps a child whose exit
// signal is not SIGCHLD (clone with another signal), which wait4 would otherwise skip.
func ReapIfZombie(pid int) (bool, error) {
	if pid <= 0 {
		return false, fmt.Errorf("reap %d: %w", pid, ErrProtected) // 0 and -n mean "any in a group"
	}
	var ws unix.WaitStatus
	for {
		got, err := unix.Wait4(pid, &ws, unix.WNOHANG|unix.WALL, nil)
		switch err {
		case nil:
			return got == pid, nil
		case unix.EINTR:
			continue
		case unix.ECHILD:
			return false, nil
		}
		return false, fmt.Errorf("reap %d: %w", pid, err)
	}
}

// EnvVar reads one variable from /proc/<pid>/environ (NUL-separated KEY=VALUE, the
// environment the process was started with). It returns "" with ErrGone when the
// process went away, and "" with nil when the variable is unset (also for a zombie,
// whose memory, environment included, is already released). Corral uses it to
// attribute a reparented orphan to the run whose marker it inherited; a heuristic only,
// since `env -i` drops the marker.
func EnvVar(pid int, key string) (string, error) {
	v, _, err := envVar(pid, key)
	return v, err
}

// envVar is EnvVar, also saying whether the environment read was empty.
func envVar(pid int, key string) (string, bool, error) {
	if pid <= 0 {
		return "", false, ErrGone
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ESRCH) {
			return "", false, fmt.Errorf("environ %d: %w", pid, ErrGone)
		}
		return "", false, fmt.Errorf("environ %d: %w", pid, err)
	}
	prefix := key + "="
	for kv := range bytes.SplitSeq(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(prefix)); ok {
			return string(v), false, nil
		}
	}
	return "", len(b) == 0, nil
}

// Children lists this process's children: /proc/self/task/*/children, every thread's
// (a child belongs to the thread that forked it).
func Children() []int {
	tasks, _ := os.ReadDir("/proc/self/task")
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}
