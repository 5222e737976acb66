package reaper

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// CgroupBase is where Corral makes its runs' cgroups (a "corral" cgroup it made), and
// why it chose it or why there is none: the backend and its reason, which corral
// doctor, the details pane and the records show.
type CgroupBase struct {
	Dir    string // "" when runs are owned by their sessions instead
	Reason string
}

// CgroupOff is the configured root that turns the cgroup backend off.
const CgroupOff = "off"

// baseName is the cgroup Corral makes to hold its runs' cgroups.
const baseName = "corral"

// FindCgroupBase finds where runs' cgroups can be made: under configured when given
// (a cgroup2 directory; CgroupOff for sessions), else under Corral's own cgroup when
// it may make cgroups there (a delegated subtree, as systemd's user@UID.service), else
// under the root of a writable cgroup2 mount (root, as here on a hybrid layout).
// "Writable" is proven by making the base and a probe in it; a kernel without
// cgroup.kill (before 5.14) is not used.
func FindCgroupBase(configured string) CgroupBase {
	if configured == CgroupOff {
		return CgroupBase{Reason: "sessions: the cgroup backend is turned off (cgroup_root = \"off\")"}
	}
	mount, err := cgroup2MountOnce()
	if err != nil {
		return CgroupBase{Reason: "sessions: " + err.Error()}
	}
	if configured != "" {
		return tryBase(configured, "the configured cgroup_root "+configured)
	}
	var tried []string
	if own, err := CgroupOf(os.Getpid()); err == nil && own != mount {
		b := tryBase(own, "Corral's own cgroup "+own+" (delegated)")
		if b.Dir != "" {
			return b
		}
		tried = append(tried, b.Reason)
	}
	b := tryBase(mount, "the cgroup2 mount "+mount+" (writable)")
	if b.Dir == "" && len(tried) > 0 {
		b.Reason += "; " + strings.Join(tried, "; ")
	}
	return b
}

// tryBase makes (or finds) parent/corral and proves a run's cgroup can be made in it.
func tryBase(parent, what string) CgroupBase {
	dir := filepath.Join(parent, baseName)
	if err := unix.Mkdir(dir, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
		return CgroupBase{Reason: fmt.Sprintf("sessions: cannot make a cgroup in %s: %v", what, err)}
	}
	probe := filepath.Join(dir, "probe-"+strconv.Itoa(os.Getpid()))
	if err := mkdirIn(dir, filepath.Base(probe)); err != nil {
		return CgroupBase{Reason: fmt.Sprintf("sessions: cannot make a cgroup in %s: %v", dir, err)}
	}
	defer removeWithBase(probe) // the base is made again by the first run's cgroup
	if err := unix.Access(filepath.Join(probe, "cgroup.kill"), unix.W_OK); err != nil {
		return CgroupBase{Reason: fmt.Sprintf("sessions: no cgroup.kill in %s (Linux 5.14 or later has it): %v", what, err)}
	}
	if err := mayStartIn(probe); err != nil {
		return CgroupBase{Reason: fmt.Sprintf("sessions: cannot start a process in a cgroup of %s: %v", what, err)}
	}
	return CgroupBase{Dir: dir, Reason: "cgroup: in " + what}
}

// mayStartIn says whether this process may start a child inside cgroup dir
// (CLONE_INTO_CGROUP) or move one there: the kernel asks for write access to dir's
// cgroup.procs and to that of the nearest cgroup holding both dir and this process's
// own. A directory chowned to the user without its cgroup.procs (a delegation done by
// hand, half: systemd chowns cgroup.procs, cgroup.threads and cgroup.subtree_control
// with it) lets cgroups be made, and every start into them fail.
func mayStartIn(dir string) error {
	own, err := CgroupOf(os.Getpid())
	if err != nil {
		return err
	}
	for _, cg := range []string{dir, commonCgroup(own, dir)} {
		procs := filepath.Join(cg, "cgroup.procs")
		if err := unix.Faccessat(unix.AT_FDCWD, procs, unix.W_OK, unix.AT_EACCESS); err != nil {
			return fmt.Errorf("%s: %w", procs, err)
		}
	}
	return nil
}

// commonCgroup is the nearest cgroup directory that holds both a and b (cleaned
// paths of one cgroup2 mount).
func commonCgroup(a, b string) string {
	for !within(b, a) {
		a = filepath.Dir(a)
	}
	return a
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+"/") || dir == "/"
}

// cgroup2Mount is where the cgroup2 hierarchy is mounted (/sys/fs/cgroup on a unified
// host, /sys/fs/cgroup/unified on a hybrid one).
func cgroup2Mount() (string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint options ... - fstype source superoptions
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if fields := strings.Fields(pre); ok && len(fields) >= 5 && strings.HasPrefix(post, "cgroup2 ") {
			return unescapeMount(fields[4]), nil
		}
	}
	return "", errors.New("no cgroup2 mount")
}

// unescapeMount undoes mountinfo's octal escapes of space, tab, newline and backslash.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	r := strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`)
	return r.Replace(s)
}

// CgroupOf is the directory of pid's cgroup2 cgroup.
func CgroupOf(pid int) (string, error) {
	mount, err := cgroup2MountOnce()
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			return filepath.Join(mount, p), nil
		}
	}
	return "", fmt.Errorf("pid %d: no cgroup2 cgroup", pid)
}

// cgroup2MountOnce is cgroup2Mount, read once.
var cgroup2MountOnce = sync.OnceValues(cgroup2Mount)

// Cgroup2Mount is where the cgroup2 hierarchy is mounted, or why there is none.
func Cgroup2Mount() (string, error) { return cgroup2MountOnce() }
