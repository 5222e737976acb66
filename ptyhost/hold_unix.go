//go:build !windows

package ptyhost

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// The spawn hold. os/exec forks and execs in one step, so a
// supervisor SIGKILLed between the fork and its registry write leaves a program
// running that no record names and no reconcile can find. With Options.Hold the
// child is first this same binary in hold mode: it is forked and exec'd (its pid
// and start time are final from here on: exec changes neither), and waits on an
// inherited pipe. The supervisor fingerprints it, writes the record durably, and
// only then calls Release; the held process execs the real program in place
// (same pid, start time, session and controlling terminal). If the supervisor
// dies first, the pipe reads EOF and the held process exits having run nothing:
// runc holds its container init on an exec fifo the same way.
//
// The mode is chosen by holdEnv in the environment (the target path) with the
// release pipe on fd 3 and the status pipe on fd 4. It is dispatched from an init
// function, so every binary that imports ptyhost — corral itself, and the test
// binaries that re-execute themselves — serves it before its own main or TestMain.
const (
	holdEnv     = "CORRAL_SPAWN_HOLD"
	holdFD      = 3 // read end of the release pipe: one byte releases, EOF aborts
	holdStatus  = 4 // write end of the status pipe: closed by exec, or an errno
	holdAborted = 125
	holdExecErr = 127
)

func init() {
	target, ok := os.LookupEnv(holdEnv)
	if !ok {
		return
	}
	var st unix.Stat_t
	if unix.Fstat(holdFD, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		// A stray variable in the user's environment, not a spawn: ignore it.
		os.Unsetenv(holdEnv)
		return
	}
	runHold(target)
}

// runHold waits for the release, then execs target with this process's argv and
// environment (less holdEnv). It never returns. Exits go through syscall.Exit so a
// race-instrumented test binary does not linger for its atexit sleep.
func runHold(target string) {
	unix.CloseOnExec(holdStatus) // a successful exec closes it: the supervisor reads EOF
	var b [1]byte
	n, err := unix.Read(holdFD, b[:])
	for err == unix.EINTR {
		n, err = unix.Read(holdFD, b[:])
	}
	if n != 1 {
		syscall.Exit(holdAborted) // the supervisor died before recording the run
	}
	unix.Close(holdFD)
	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, holdEnv+"=") {
			env = append(env, kv)
		}
	}
	defaultSignals()
	err = syscall.Exec(target, os.Args, env)
	errno, ok := err.(syscall.Errno)
	if !ok {
		errno = syscall.EINVAL
	}
	v := uint32(errno)
	unix.Write(holdStatus, []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)})
	syscall.Exit(holdExecErr)
}

// defaultSignals makes the program start with the default action for the signals its
// escalation and its operator send. exec keeps an ignored signal ignored, and the Go
// runtime keeps an inherited SIG_IGN for SIGHUP and SIGINT, so every run inherited
// its supervisor's ignores: the server's SIGHUP (ignored to outlive its terminal)
// made the hang-up step do nothing, and a Corral started under nohup or as a
// script's background job (SIGINT ignored) made interrupt do nothing. A signal that
// is caught when exec runs is reset to its default; catching them here does that.
// A held child does it before its exec. A child started without a hold (no registry,
// or a cgroup named by its record first) is forked by the supervisor itself, so the
// supervisor catches them, once, before its first such start: caught into a channel
// nobody reads, a signal it ignored stays without effect on it (the server still
// outlives its terminal), and the Go runtime resets every caught signal to its
// default in the child between fork and exec.
func defaultSignals() {
	sigs := []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGPIPE}
	for _, s := range sigs {
		if signal.Ignored(s) {
			signal.Notify(make(chan os.Signal, 1), s)
		}
	}
}

// childDefaults is defaultSignals in a supervisor that starts children without a hold.
var childDefaults sync.Once

// hold is the supervisor's side of a held child.
type hold struct {
	target  string
	release *os.File // write end: one byte releases the child
	status  *os.File // read end: EOF once the child exec'd, or its errno
}

// prepareHold turns cmd into the hold for its own program: the program is checked
// now, so a missing or non-executable one is still a synchronous start error, and
// cmd is rewritten to run this binary in hold mode. done must be called once cmd
// has started (or failed to): it closes the child's pipe ends in this process.
func prepareHold(cmd *exec.Cmd) (h *hold, done func(), err error) {
	if cmd.Err != nil {
		return nil, nil, cmd.Err
	}
	if len(cmd.ExtraFiles) > 0 {
		return nil, nil, fmt.Errorf("%w: ExtraFiles with a hold", ErrBadCmd)
	}
	if err := checkExecutable(cmd); err != nil {
		return nil, nil, err
	}
	self, err := os.Executable()
	if runtime.GOOS == "linux" {
		// The running binary itself, even moved or deleted since it started (a server
		// its keeper started again after a reinstall): its path may name nothing now.
		self, err = "/proc/self/exe", nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("hold: %w", err)
	}
	relR, relW, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("hold pipe: %w", err)
	}
	stR, stW, err := os.Pipe()
	if err != nil {
		relR.Close()
		relW.Close()
		return nil, nil, fmt.Errorf("hold pipe: %w", err)
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	h = &hold{target: cmd.Path, release: relW, status: stR}
	if len(cmd.Args) == 0 {
		cmd.Args = []string{cmd.Path}
	}
	cmd.Path = self
	cmd.Env = append(env[:len(env):len(env)], holdEnv+"="+h.target)
	cmd.ExtraFiles = []*os.File{relR, stW} // fds 3 and 4 in the child
	return h, func() { relR.Close(); stW.Close() }, nil
}

// checkExecutable reports, before any fork, what execve would refuse for certain:
// a program that does not exist, is a directory, or may not be executed.
func checkExecutable(cmd *exec.Cmd) error {
	path := cmd.Path
	if !filepath.IsAbs(path) && cmd.Dir != "" {
		path = filepath.Join(cmd.Dir, path)
	}
	var st unix.Stat_t
	err := unix.Stat(path, &st)
	if err == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
		err = unix.EACCES
	}
	if err == nil {
		err = unix.Faccessat(unix.AT_FDCWD, path, unix.X_OK, unix.AT_EACCESS)
	}
	if err != nil {
		return &os.PathError{Op: "exec", Path: cmd.Path, Err: err}
	}
	return nil
}

// Release lets a held child exec its program and waits until it has (the status
// pipe closes) or has failed to (the child reports the errno and exits). A child
// started without Options.Hold, or already released, returns nil at once.
func (p *Proc) Release() error {
	h := p.takeHold()
	if h == nil {
		return nil
	}
	defer h.status.Close()
	_, err := h.release.Write([]byte{1})
	h.release.Close()
	if err != nil {
		return fmt.Errorf("release held child: %w", err) // EPIPE: it died while held
	}
	var b [4]byte
	n, err := io.ReadFull(h.status, b[:])
	switch {
	case n == 0 && errors.Is(err, io.EOF):
		return nil // exec succeeded: the close-on-exec status pipe closed
	case n == 4:
		errno := syscall.Errno(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
		return &os.PathError{Op: "exec", Path: h.target, Err: errno}
	}
	return fmt.Errorf("release held child: status: %w", err)
}

// abortHold closes a never-released hold: the child reads EOF and exits having
// run nothing.
func (p *Proc) abortHold() {
	if h := p.takeHold(); h != nil {
		h.release.Close()
		h.status.Close()
	}
}

func (p *Proc) takeHold() *hold {
	p.holdMu.Lock()
	defer p.holdMu.Unlock()
	h := p.hold
	p.hold = nil
	return h
}

// startCmd starts cmd, held when o.Hold asks for it (h is then non-nil).
func startCmd(cmd *exec.Cmd, o Options) (h *hold, err error) {
	if !o.Hold {
		childDefaults.Do(defaultSignals)
		return nil, cmd.Start()
	}
	h, done, err := prepareHold(cmd)
	if err != nil {
		return nil, err
	}
	err = cmd.Start()
	done()
	if err != nil {
		h.release.Close()
		h.status.Close()
		return nil, err
	}
	return h, nil
}
