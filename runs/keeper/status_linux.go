package keeper

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// StatusFile is where a keeper says how its servers fare, for clients that find no
// server: one whose servers do not come up is not "no server running".
const StatusFile = "keeper.status"

// FailLimit is how many servers in a row must fail to come up before a keeper is
// reported as unable to start one.
const FailLimit = failLimit

// Status is what a keeper says of its servers.
type Status struct {
	PID int `json:"pid"`
	// Failures counts the servers in a row that did not come up (not started, or
	// ended or killed before they answered); 0 once one has.
	Failures  int       `json:"failures"`
	LastError string    `json:"last_error,omitempty"`
	Since     time.Time `json:"since,omitzero"` // when the first of those failed
}

// writeStatus writes keeper.status (never through a link). Not atomic: a reader that
// finds it half written knows only that the keeper lives.
func (k *keeper) writeStatus() {
	k.mu.Lock()
	st := Status{PID: os.Getpid(), Failures: k.failures, LastError: k.lastErr}
	if k.failures == 0 {
		k.failSince = time.Time{}
	} else if k.failSince.IsZero() {
		k.failSince = time.Now()
	}
	st.Since = k.failSince
	k.mu.Unlock()
	b, _ := json.Marshal(st)
	k.statusMu.Lock()
	defer k.statusMu.Unlock()
	f, err := os.OpenFile(filepath.Join(k.o.StateDir, StatusFile), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		k.log.Warn("status not written", "err", err)
		return
	}
	f.Write(append(b, '\n'))
	f.Close()
}

// clearStatus removes keeper.status as the keeper ends.
func (k *keeper) clearStatus() {
	k.statusMu.Lock()
	defer k.statusMu.Unlock()
	os.Remove(filepath.Join(k.o.StateDir, StatusFile))
}

// Find reports the state dir's keeper when one is alive: the process whose pid
// keeper.lock holds and that holds the lock itself (the kernel's /proc/locks says
// so), with what it last said of its servers.
func Find(dir string) (Status, bool) {
	lock := filepath.Join(dir, "keeper.lock")
	var st unix.Stat_t
	if err := unix.Lstat(lock, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return Status{}, false
	}
	b, err := os.ReadFile(lock)
	if err != nil {
		return Status{}, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 || !holdsFlock(pid, st.Ino) {
		return Status{}, false
	}
	s := Status{PID: pid}
	if b, err := os.ReadFile(filepath.Join(dir, StatusFile)); err == nil {
		var f Status
		if json.Unmarshal(b, &f) == nil && f.PID == pid {
			s = f
		}
	}
	return s, true
}

// holdsFlock reports whether pid holds a flock on the file of inode ino
// (/proc/locks: "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF").
func holdsFlock(pid int, ino uint64) bool {
	f, err := os.Open("/proc/locks")
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	want, inode := strconv.Itoa(pid), strconv.FormatUint(ino, 10)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 6 || fs[1] != "FLOCK" || fs[4] != want {
			continue
		}
		if dev := strings.Split(fs[5], ":"); len(dev) == 3 && dev[2] == inode {
			return true
		}
	}
	return false
}
