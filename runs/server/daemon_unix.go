//go:build unix

package server

import (
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"corral/runs/keeper"
)

func daemonAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// CloseInherited closes every descriptor this process inherited but 0–2 and the
// keeper's socket (keeper.EnvFD names it), if a keeper started this server: a
// daemon holds nothing of the process that started it (a caller's pipe, whose reader
// would wait for the server's end to see EOF; make's jobserver), and nothing of it
// reaches the runs it starts. Call it first: inherited descriptors are the ones open
// without close-on-exec (every descriptor Go opens has it).
func CloseInherited() {
	keep, err := strconv.Atoi(os.Getenv(keeper.EnvFD))
	if err != nil {
		keep = -1
	}
	dir := "/proc/self/fd"
	if _, err := os.Stat(dir); err != nil {
		dir = "/dev/fd"
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	var inherited []int
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd <= 2 || fd == keep {
			continue
		}
		if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && flags&unix.FD_CLOEXEC == 0 {
			inherited = append(inherited, fd)
		}
	}
	for _, fd := range inherited {
		unix.Close(fd)
	}
}
