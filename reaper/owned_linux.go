package reaper

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Owned says whether process pid may be claimed for a run by its credentials and its
// environment: its real and effective uid are Corral's (another user's process is
// never Corral's, whatever a record says: a root Corral SIGTERMed uid 65534's sleep
// named by a forged record), and it carries the claim's marker. nil when
// it does; otherwise an error wrapping ErrNotOurs says why. A claim without a marker
// owns nothing. The caller pins the process before and confirms it alive after (owns).
func Owned(pid int, c Claim) error {
	if c.EnvKey == "" || c.EnvValue == "" {
		return fmt.Errorf("%w: no marker to check", ErrNotOurs)
	}
	if err := OwnUID(pid); err != nil {
		return err
	}
	v, err := markerOf(pid, c.EnvKey)
	if err != nil {
		return err
	}
	if v != c.EnvValue {
		return fmt.Errorf("%w: pid %d does not carry the run's %s", ErrNotOurs, pid, c.EnvKey)
	}
	return nil
}

// owns is Owned for a process pinned by fd, in claim mode (live runs are proven by
// lineage and pass): its files were read after the pin, and a pidfd that has not
// reported an exit since says the pid named the pinned process all along.
func (e *escalation) owns(pid, fd int) bool {
	if e.t.Claim == nil {
		return true
	}
	return Owned(pid, *e.t.Claim) == nil && !pidfdExited(fd)
}

// ownsAs is owns, or for a process the record proves (byRecord: a recorded escapee, or
// one descending from it) our uid alone: such a process is the run's by its exact
// fingerprint or its lineage, and `env -i` took its marker.
func (e *escalation) ownsAs(pid, fd int, byRecord bool) bool {
	if !byRecord {
		return e.owns(pid, fd)
	}
	return OwnUID(pid) == nil && !pidfdExited(fd)
}

// OwnUID is Owned's uid half: nil when pid's real and effective uid are Corral's.
func OwnUID(pid int) error {
	real, eff, err := uids(pid)
	if err != nil {
		return err
	}
	if me := os.Geteuid(); real != me || eff != me {
		return fmt.Errorf("%w: pid %d runs as uid %d (effective %d), Corral as uid %d", ErrNotOurs, pid, real, eff, me)
	}
	return nil
}

// markerOf is EnvVar, read again a few times while the environment reads as empty: a
// process in the middle of an execve shows none for a moment (seen reading a shell's
// environment as it exec'd its program), and taking that for "unmarked" would leave
// a run's process unclaimed. A process started with `env -i` costs the retries.
func markerOf(pid int, key string) (string, error) {
	for try := 0; ; try++ {
		v, empty, err := envVar(pid, key)
		if err != nil || !empty || try == envRetries {
			return v, err
		}
		time.Sleep(time.Millisecond)
	}
}

// envRetries bounds markerOf's re-reads of an empty environment.
const envRetries = 3

// uids reads a process's real and effective uid from /proc/<pid>/status. The owner of
// /proc/<pid> is no answer: it is root for any process that is not dumpable.
func uids(pid int) (real, eff int, err error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0, fmt.Errorf("status %d: %w", pid, goneIfMissing(err))
	}
	for line := range bytes.SplitSeq(b, []byte{'\n'}) {
		if rest, ok := bytes.CutPrefix(line, []byte("Uid:")); ok {
			f := bytes.Fields(rest)
			if len(f) >= 2 {
				real, err1 := strconv.Atoi(string(f[0]))
				eff, err2 := strconv.Atoi(string(f[1]))
				if err1 == nil && err2 == nil {
					return real, eff, nil
				}
			}
		}
	}
	return 0, 0, fmt.Errorf("status %d: no Uid line", pid)
}

// SignalClaimed sends sig to every process Claimed would return, each through its
// pinned, verified pidfd: how an adopted run, whose root Corral does not pin, is
// paused, resumed or interrupted without naming a group by its number.
// ErrGone when none is alive.
func SignalClaimed(c Claim, extra []Fingerprint, sig syscall.Signal) error {
	e, err := claimScan(nil, c, extra)
	if err != nil {
		return err
	}
	defer e.release()
	if len(e.extra) == 0 {
		return ErrGone
	}
	e.signalExtra(sig)
	return e.err
}

// goneIfMissing is ErrGone for a /proc file of a process that went away.
func goneIfMissing(err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ESRCH) {
		return ErrGone
	}
	return err
}
