package reaper

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// statFields is how many fields after the comm parseStat needs: state (field 3)
// through rss (field 24).
const statFields = 22

var pageSize = int64(os.Getpagesize())

// parseStat parses one /proc/<pid>/stat line into p, all fields but Comm, and returns
// the comm bytes, which alias b. The comm may hold spaces and ')' (a binary named
// "a) (b c" shows as "(a) (b c)"), so it runs from the first '(' to the LAST ')', and
// the numbered fields are split only after that, as the kernel's proc(5) advises.
func parseStat(b []byte, p *Proc) ([]byte, error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 1 || end < open {
		return nil, errBadStat
	}
	var f [statFields][]byte
	if splitFields(b[end+1:], f[:]) < statFields || len(f[0]) != 1 {
		return nil, errBadStat
	}
	bad := false
	num := func(b []byte) int64 { v, ok := atoi(b); bad = bad || !ok; return v }
	unum := func(b []byte) uint64 { v, ok := atou(b); bad = bad || !ok; return v }
	*p = Proc{
		PID: int(num(bytes.TrimSpace(b[:open]))), State: f[0][0],
		PPID: int(num(f[1])), PGID: int(num(f[2])), SID: int(num(f[3])),
		UTime: unum(f[11]), STime: unum(f[12]), Threads: int(num(f[17])),
		StartTime: unum(f[19]), RSS: num(f[21]) * pageSize,
	}
	if bad {
		return nil, errBadStat
	}
	return b[open+1 : end], nil
}

// splitFields fills out with the space-separated fields of b and returns how many it
// found (at most len(out)); a trailing newline is not part of a field.
func splitFields(b []byte, out [][]byte) int {
	n := 0
	for len(b) > 0 && n < len(out) {
		b = bytes.TrimLeft(b, " \n")
		i := bytes.IndexAny(b, " \n")
		if i < 0 {
			i = len(b)
		}
		if i > 0 {
			out[n] = b[:i]
			n++
		}
		b = b[i:]
	}
	return n
}

// atoi parses a decimal integer with an optional '-' (tpgid and nice are signed).
func atoi(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	u, ok := atou(b)
	if !ok || u > 1<<62 {
		return 0, false
	}
	if neg {
		return -int64(u), true
	}
	return int64(u), true
}

func atou(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

// scanner reads /proc with reused buffers so that polling a hundred pids every few
// milliseconds allocates nothing. It holds no file descriptor between calls, so it can
// live in a sync.Pool.
type scanner struct {
	path [40]byte   // "/proc/<pid>/stat\x00"
	buf  [4096]byte // one stat line; kernel threads' comm grows with the workqueue name
	dir  [8192]byte // getdents64 records
}

var scanners = sync.Pool{New: func() any { return new(scanner) }}

func getScanner() *scanner  { return scanners.Get().(*scanner) }
func putScanner(s *scanner) { scanners.Put(s) }

// read parses /proc/<pid>/stat into p and returns the comm bytes (valid until the next
// call). ErrGone when the pid does not exist: ENOENT at open, or ESRCH at read when the
// task was released in between.
func (s *scanner) read(pid int, p *Proc) ([]byte, error) {
	path := append(s.path[:0], "/proc/"...)
	path = strconv.AppendInt(path, int64(pid), 10)
	path = append(path, "/stat\x00"...)
	fd, err := openRaw(path)
	if err != nil {
		return nil, goneIf(err, unix.ENOENT, unix.ESRCH)
	}
	n, err := readRetry(fd, s.buf[:])
	unix.Close(fd)
	if err != nil {
		return nil, goneIf(err, unix.ENOENT, unix.ESRCH)
	}
	return parseStat(s.buf[:n], p)
}

// openRaw is openat(AT_FDCWD, path, O_RDONLY|O_CLOEXEC) on a NUL-terminated byte path:
// unix.Open would copy the path into a fresh C string on every call.
func openRaw(path []byte) (int, error) {
	cwd := unix.AT_FDCWD // a variable: the negative constant cannot convert to uintptr
	for {
		r, _, e := unix.Syscall6(unix.SYS_OPENAT, uintptr(cwd), uintptr(unsafe.Pointer(&path[0])),
			uintptr(unix.O_RDONLY|unix.O_CLOEXEC), 0, 0, 0)
		if e != unix.EINTR {
			if e != 0 {
				return -1, e
			}
			return int(r), nil
		}
	}
}

func readRetry(fd int, b []byte) (int, error) {
	for {
		n, err := unix.Read(fd, b)
		if err != unix.EINTR {
			return n, err
		}
	}
}

// goneIf maps the listed errnos to ErrGone and keeps any other error.
func goneIf(err error, gone ...syscall.Errno) error {
	for _, g := range gone {
		if errors.Is(err, g) {
			return ErrGone
		}
	}
	return err
}
