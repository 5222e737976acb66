package reaper

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// ReadProc reads one process from /proc/<pid>/stat. ErrGone when the pid is not there.
func ReadProc(pid int) (Proc, error) {
	s := getScanner()
	defer putScanner(s)
	var p Proc
	comm, err := s.read(pid, &p)
	if err != nil {
		return Proc{}, fmt.Errorf("read /proc/%d/stat: %w", pid, err)
	}
	p.Comm = string(comm)
	return p, nil
}

// ListAll returns every process whose /proc/<pid>/stat could be read. Processes that
// vanish mid-scan are skipped silently: they are gone, which is what every caller
// scanning for live processes wants to know anyway.
//
// Past listSplit processes, the stats are read on a few goroutines, each a part of
// the pids listed, in their order: a shutdown's look at a thousand runs' two thousand
// processes read them one after another.
func ListAll() ([]Proc, error) { return ListAllBut(nil) }

// ListAllBut is ListAll without the processes skip says to leave out (nil: none),
// whose stat is never read. A shutdown's look for escapees leaves out the members of
// its runs' cgroups: two thousand of the three thousand stats it read were theirs,
// and none of them can be an escapee.
func ListAllBut(skip func(pid int) bool) ([]Proc, error) {
	s := getScanner()
	defer putScanner(s)
	if runtime.GOMAXPROCS(0) < 2 && skip == nil {
		return s.listAll(nil, true)
	}
	var pids []int
	err := s.eachPIDListed(func(pid int) {
		if skip == nil || !skip(pid) {
			pids = append(pids, pid)
		}
	})
	if len(pids) < listSplit || runtime.GOMAXPROCS(0) < 2 {
		// Those listed only: a listing that failed or listed none is not scanned again.
		all, _ := s.listAll(pids, false)
		return all, err
	}
	parts := make([][]Proc, min(runtime.GOMAXPROCS(0), 4))
	var wg sync.WaitGroup
	for k := range parts {
		lo, hi := k*len(pids)/len(parts), (k+1)*len(pids)/len(parts)
		wg.Go(func() {
			s := getScanner()
			defer putScanner(s)
			parts[k], _ = s.listAll(pids[lo:hi], false)
		})
	}
	wg.Wait()
	return slices.Concat(parts...), err
}

// listSplit is how many processes ListAll reads on one goroutine at most (a variable:
// a test lowers it to take the split path).
var listSplit = 1024

// listAll reads the stat of each of pids, or of every process (every: a full scan of
// /proc, pids unused), skipping those gone.
func (s *scanner) listAll(pids []int, every bool) ([]Proc, error) {
	if every {
		all := make([]Proc, 0, 256)
		err := s.each(func(p *Proc, comm []byte) {
			p.Comm = string(comm)
			all = append(all, *p)
		})
		return all, err
	}
	all := make([]Proc, 0, len(pids))
	var p Proc
	for _, pid := range pids {
		if comm, err := s.read(pid, &p); err == nil {
			p.Comm = string(comm)
			all = append(all, p)
		}
	}
	return all, nil
}

// Session returns the live members (not zombies, not dead) of session sid.
func Session(sid int) ([]Proc, error) {
	s := getScanner()
	defer putScanner(s)
	var members []Proc
	err := s.each(func(p *Proc, comm []byte) {
		if p.SID == sid && !dead(p.State) {
			p.Comm = string(comm)
			members = append(members, *p)
		}
	})
	return members, err
}

// ClockTicks is sysconf(_SC_CLK_TCK), the unit of StartTime, UTime and STime. glibc
// reads it from the AT_CLKTCK auxv entry, and so do we; 100 (USER_HZ on every Linux
// architecture Go supports) if the auxv is unavailable.
func ClockTicks() int64 { return clockTicks() }

var clockTicks = sync.OnceValue(func() int64 {
	const atClkTck = 17 // AT_CLKTCK in <linux/auxvec.h>
	auxv, err := unix.Auxv()
	if err == nil {
		for _, kv := range auxv {
			if kv[0] == atClkTck && kv[1] > 0 {
				return int64(kv[1])
			}
		}
	}
	return 100
})

// each calls fn for every process in /proc whose stat it can read and parse. p and comm
// are reused after fn returns. A process that vanishes between getdents and the read is
// skipped. Both the directory listing and every stat read go through the scanner's
// buffers, so a full scan allocates nothing.
func (s *scanner) each(fn func(p *Proc, comm []byte)) error {
	var p Proc
	return s.eachPIDListed(func(pid int) {
		if comm, err := s.read(pid, &p); err == nil {
			fn(&p, comm)
		}
	})
}

// eachPIDListed calls fn with every pid /proc lists, as it reads the listing: one full
// scan (fullScans).
func (s *scanner) eachPIDListed(fn func(pid int)) error {
	fullScans.Add(1)
	fd, err := unix.Open("/proc", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open /proc: %w", err)
	}
	defer unix.Close(fd)
	for {
		n, err := unix.Getdents(fd, s.dir[:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("read /proc: %w", err)
		}
		if n == 0 {
			return nil
		}
		s.eachPID(s.dir[:n], fn)
	}
}

// eachPID walks linux_dirent64 records (d_ino u64, d_off s64, d_reclen u16, d_type u8,
// d_name NUL-terminated) and calls fn for every all-digit name: a process directory.
func (s *scanner) eachPID(b []byte, fn func(pid int)) {
	for len(b) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			return
		}
		if pid, ok := direntPID(b[19:reclen]); ok {
			fn(pid)
		}
		b = b[reclen:]
	}
}

// direntPID parses a NUL-terminated directory name as a pid.
func direntPID(name []byte) (int, bool) {
	v := 0
	for i, c := range name {
		switch {
		case c == 0:
			return v, i > 0
		case c < '0' || c > '9' || i > 9:
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, len(name) > 0
}

// LastPID returns the pid the kernel handed out last in this PID namespace: the last
// field of /proc/loadavg. Every fork and every new thread moves it, so while it stands
// still no process has been created: a one-read test of whether a full /proc scan can
// find anything new (it cannot see a setsid, which forks nothing).
func LastPID() (int, error) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, err
	}
	return parseLastPID(b)
}

// parseLastPID reads the last pid from /proc/loadavg's "0.00 0.01 0.05 1/123 4567\n".
func parseLastPID(b []byte) (int, error) {
	f := bytes.Fields(b)
	if len(f) != 5 {
		return 0, fmt.Errorf("/proc/loadavg: %q: want 5 fields", b)
	}
	n, err := strconv.Atoi(string(f[4]))
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("/proc/loadavg: last pid %q", f[4])
	}
	return n, nil
}
