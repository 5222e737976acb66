//go:build linux

package sshtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// startLimit bounds an sshd's start (until it listens) and an end waited for, on
// a loaded machine.
const startLimit = 20 * time.Second

// Host is one sshd: a machine of the test's, reachable while it runs.
type Host struct {
	Name string
	// StateDir is the host's state dir: its sessions' CORRAL_STATE_DIR.
	StateDir string

	t      testing.TB
	sshd   string
	dir    string
	config func(port int) string

	mu     sync.Mutex
	port   int
	cmd    *exec.Cmd // the listener; nil while stopped
	exited chan error
	log    *logTail
}

// Port is the host's sshd port on 127.0.0.1.
func (h *Host) Port() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.port
}

// start starts the host's sshd on a free port (another, should the one chosen be
// taken before sshd binds it).
func (h *Host) start(t testing.TB) {
	t.Helper()
	var err error
	for range 3 {
		if err = h.listen(freePort(t)); err == nil {
			return
		}
	}
	t.Fatalf("sshd of %s: %v", h.Name, err)
}

// listen starts sshd on port and waits until it listens (its log says so).
func (h *Host) listen(port int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	cfg := filepath.Join(h.dir, "sshd_config")
	if err := os.WriteFile(cfg, []byte(h.config(port)), 0o600); err != nil {
		return err
	}
	log := &logTail{ready: make(chan struct{})}
	cmd := exec.Command(h.sshd, "-D", "-e", "-f", cfg)
	cmd.Stderr = log
	// Its own process group: a terminal's Ctrl-C goes to the test alone, which ends
	// sshd itself.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-log.ready:
		h.port, h.cmd, h.exited, h.log = port, cmd, exited, log
		return nil
	case err := <-exited:
		return fmt.Errorf("sshd exited (%v): %s", err, log.String())
	case <-time.After(startLimit):
		cmd.Process.Kill()
		<-exited
		return fmt.Errorf("sshd not listening after %s: %s", startLimit, log.String())
	}
}

// Stop makes the host unreachable: its listener, every connection's sshd processes
// and the commands they ran end (each client's ssh sees its connection drop); what
// those commands left behind on purpose — a corral server, a daemon in a session of
// its own — keeps running, as on a remote machine whose network went away.
func (h *Host) Stop() {
	h.t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cmd == nil {
		return
	}
	listener := h.cmd.Process.Pid
	// Stopped, it accepts and forks nothing while its connections are looked up.
	h.cmd.Process.Signal(syscall.SIGSTOP)
	conns, commands := h.sessions(listener)
	// The commands too: one that reads nothing (sleep) would not see its connection
	// end. Not a daemon one of them started in a session of its own.
	ps := append(conns, commands...)
	for _, p := range ps {
		p.Signal(syscall.SIGKILL)
	}
	h.cmd.Process.Kill()
	<-h.exited
	h.cmd = nil
	if !gone(ps, startLimit) {
		h.t.Errorf("a process of %s's connections still running %s after SIGKILL", h.Name, startLimit)
	}
}

// Freeze makes the host go silent without a word, as a machine that fell off the
// network or went to sleep: its listener and every connection's sshd processes are
// stopped (SIGSTOP), so nothing answers and no connection is closed; a client notices
// only by its own keep-alives. Thaw lets them go on.
func (h *Host) Freeze() { h.signalAll(syscall.SIGSTOP) }

// Thaw undoes Freeze: the connections' sshds find their clients gone and end.
func (h *Host) Thaw() { h.signalAll(syscall.SIGCONT) }

func (h *Host) signalAll(sig syscall.Signal) {
	h.t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cmd == nil {
		return
	}
	h.cmd.Process.Signal(sig)
	conns, _ := h.sessions(h.cmd.Process.Pid)
	for _, p := range conns {
		p.Signal(sig)
	}
}

// Restart starts the host's sshd again, on its port, with its keys.
func (h *Host) Restart() {
	h.t.Helper()
	if err := h.listen(h.Port()); err != nil {
		h.t.Fatalf("restart sshd of %s: %v", h.Name, err)
	}
}

// sessions are the processes of the listener's connections (each connection's
// sshd leads a session of its own, its privilege-separated child in it) and of the
// commands they run (each in a session its sshd made): the descendants of the
// listener by pid, in sessions led by its children or theirs. A daemon a command
// started in a session of its own (setsid: corral server) is neither.
func (h *Host) sessions(listener int) (conns, commands []reaper.Fingerprint) {
	all, err := reaper.ListAll()
	if err != nil {
		h.t.Fatalf("list processes: %v", err)
	}
	sid := map[int]int{}
	var connSIDs, cmdSIDs []int
	for _, p := range all {
		sid[p.PID] = p.SID
		if p.PPID == listener && p.SID == p.PID {
			connSIDs = append(connSIDs, p.SID)
		}
	}
	for _, p := range all {
		if p.SID == p.PID && slices.Contains(connSIDs, sid[p.PPID]) {
			cmdSIDs = append(cmdSIDs, p.SID)
		}
	}
	for _, p := range all {
		fp, err := reaper.Identify(p.PID)
		switch {
		case err != nil:
		case slices.Contains(connSIDs, p.SID):
			conns = append(conns, fp)
		case slices.Contains(cmdSIDs, p.SID):
			commands = append(commands, fp)
		}
	}
	return conns, commands
}

// gone reports whether every process of ps has ended within limit.
func gone(ps []reaper.Fingerprint, limit time.Duration) bool {
	_, ok := eventually.Within(limit, func() (struct{}, bool) {
		for _, p := range ps {
			if alive, _ := p.Alive(); alive {
				return struct{}{}, false
			}
		}
		return struct{}{}, true
	})
	return ok
}

// cleanup ends the host: its sshd, then the corral servers left on it.
func (h *Host) cleanup() {
	h.Stop()
	endServer(h.t, h.StateDir)
}

// endServer ends the corral server a test left running in dir: SIGTERM to its
// keeper (which passes it on: the server ends its runs, then the keeper follows) or
// to the server without one, by the pids their lock files record, checked to be a
// corral server of dir; then it waits for both to be gone.
func endServer(t testing.TB, dir string) {
	t.Helper()
	var ps []reaper.Fingerprint
	for _, lock := range []string{"keeper.lock", "server.lock"} {
		if fp, ok := serverOf(dir, lock); ok {
			ps = append(ps, fp)
		}
	}
	if len(ps) == 0 {
		return
	}
	ps[0].Signal(syscall.SIGTERM)
	if !gone(ps, startLimit) {
		t.Errorf("the corral server of %s still running %s after SIGTERM", dir, startLimit)
	}
}

// serverOf is the live process lock names in dir, when its command line is corral
// server's for dir.
func serverOf(dir, lock string) (reaper.Fingerprint, bool) {
	b, err := os.ReadFile(filepath.Join(dir, lock))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || !reaper.ValidPID(pid) {
		return reaper.Fingerprint{}, false
	}
	fp, err := reaper.Identify(pid)
	if err != nil {
		return fp, false
	}
	argv, err := reaper.ReadCmdline(pid)
	if err != nil || !slices.Contains(argv, "server") || !slices.Contains(argv, dir) {
		return fp, false
	}
	return fp, true
}

// logTail is sshd's log (-e: stderr): its last 8 KiB for a failure's message, and
// ready closed once it says it listens.
type logTail struct {
	mu    sync.Mutex
	buf   []byte
	ready chan struct{}
	seen  bool
}

const logKept = 8 << 10

func (l *logTail) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	if !l.seen && bytes.Contains(l.buf, []byte("Server listening on")) {
		l.seen = true
		close(l.ready)
	}
	if len(l.buf) > logKept {
		l.buf = append(l.buf[:0], l.buf[len(l.buf)-logKept:]...)
	}
	return len(p), nil
}

func (l *logTail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf)
}
