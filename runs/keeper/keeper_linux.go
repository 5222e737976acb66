package keeper

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"corral/reaper"
)

// EnvFD names the variable that tells a server which descriptor is its keeper's.
const EnvFD = "CORRAL_KEEPER_FD"

// Options are the keeper process's: the state dir it keeps runs for and the server
// it starts there (Exe Args…; it adds only the socket, as descriptor 3). Exe is
// opened as the keeper starts and every server of it is started through that
// descriptor, so a binary moved or deleted since (a reinstall, a rebuilt build
// directory) still starts one.
type Options struct {
	StateDir string
	Exe      string
	Args     []string
	Log      *slog.Logger
	Stderr   *os.File // the server's stderr (a keeper in the foreground); nil: /dev/null
	// Pending, when set, reports whether the server that ended left runs without a
	// process (waiting for dependencies, between two attempts) that only a server
	// goes on with: the keeper then starts the next one as if it kept a run.
	Pending func() bool
}

// Supported: this system has keepers.
const Supported = true

// Started reports whether a keeper started this process (FromEnv finds it).
func Started() bool {
	_, ok := os.LookupEnv(EnvFD)
	return ok
}

// ErrRunning: the state dir has a keeper already (it starts the server).
var ErrRunning = errors.New("keeper: the state dir has a keeper already")

// BufferCap bounds the output kept per run while no server reads: past it the
// keeper stops reading and the run's next write blocks, as on a terminal nobody
// reads (a flood loses nothing; it waits).
const BufferCap = 4 << 20

// Restart backoff: a server that ended within firstBackoff of its start is started
// again after a wait that doubles up to maxBackoff, so a server that cannot start
// (a broken binary after an upgrade) does not spin.
const (
	firstBackoff = 200 * time.Millisecond
	maxBackoff   = 10 * time.Second
	steadyAfter  = 5 * time.Second
)

// Greeting bounds: a server the keeper started says hello (Recover) once it has opened
// the state dir; one that has not within the bound is killed and counts as a server
// that did not come up. A handed-over binary has the shorter one, well inside a lease
// (10 s), so that when it hangs the keeper's own binary takes the runs' records back
// before their leases expire; the keeper's own binary, known to have served, is given
// longer on a loaded machine.
const (
	upgradeGreetLimit = 5 * time.Second
	greetLimit        = 30 * time.Second
)

// failLimit: this many servers in a row that did not come up (not started, ended or
// killed before their hello) and the keeper says so: in keeper.log, and in
// keeper.status, which corral doctor, ls and every client read.
const failLimit = 3

// stopLimit bounds how long a keeper with no run waits, once told to end, for its
// server to end before it kills it.
const stopLimit = 5 * time.Second

// Serve is the keeper process: it starts the server and keeps its runs until it keeps
// none and its server has ended. It returns ErrRunning at once when the state dir has
// a keeper.
func Serve(o Options) error {
	lock, err := lockKeeper(o.StateDir)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := reaper.SetSubreaper(); err != nil {
		return err
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	self, err := openExe(o.Exe)
	if err != nil {
		return err
	}
	defer self.Close()
	k := &keeper{o: o, log: o.Log, self: self, runs: map[string]*kept{}, wake: make(chan struct{}, 1)}
	defer k.clearStatus()
	signal.Ignore(syscall.SIGHUP, syscall.SIGPIPE)
	chld := make(chan os.Signal, 1)
	signal.Notify(chld, syscall.SIGCHLD)
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM, syscall.SIGINT)
	k.log.Info("keeper started", "pid", os.Getpid())
	backoff, young := time.Duration(0), 0
	var restart <-chan time.Time
	if err := k.startServer(); err != nil {
		return err
	}
	for {
		select {
		case <-chld:
		case s := <-term:
			k.terminate(s)
		case <-k.wake:
		case <-restart:
			restart = nil
			if k.stopped() {
				k.log.Info("keeper stopped: told to end, with no run kept")
				return nil
			}
			if err := k.startServer(); err != nil {
				k.log.Error("server not started", "err", err)
				k.failed(err.Error())
				k.upgradeFailed()
				backoff = nextBackoff(backoff)
				restart = time.After(backoff)
			}
		}
		gone := k.reap()
		if gone == nil {
			if k.stopped() {
				k.log.Info("keeper stopped: told to end, with no run kept")
				return nil
			}
			continue
		}
		// Every message the server sent before it died is read first (its last drops,
		// a keep just before a crash): its connection gives EOF after them.
		<-gone.served
		lived := time.Since(gone.started)
		if k.done() && !k.pending() {
			k.log.Info("keeper stopped: the server ended and no run is kept")
			return nil
		}
		if !gone.greeted {
			k.failed(gone.why())
			if gone.upgrade {
				k.upgradeFailed() // a handed-over binary that does not come up: the keeper's own now
			}
		}
		if lived >= steadyAfter && gone.greeted {
			backoff, young = 0, 0 // a crash after a steady run: the next server at once
		} else {
			backoff, young = nextBackoff(backoff), young+1
		}
		if young >= youngLimit {
			k.upgradeFailed()
		}
		restart = time.After(backoff)
	}
}

// openExe opens the binary servers are started from, to start them through the
// descriptor: /proc/self/fd/N names the file itself, whatever became of its path. The
// number is taken high, away from those a child is given (0–3), so that starting one
// never overwrites it before the exec.
func openExe(exe string) (*os.File, error) {
	fd, err := unix.Open(exe, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("keeper: open %s: %w", exe, err)
	}
	high, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 64)
	unix.Close(fd)
	if err != nil {
		return nil, fmt.Errorf("keeper: %s: %w", exe, err)
	}
	return os.NewFile(uintptr(high), exe), nil
}

// stopped reports whether the keeper was told to end (SIGTERM, SIGINT) and has
// nothing left: no run kept, no server.
func (k *keeper) stopped() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.stopping && len(k.runs) == 0 && k.srv == nil
}

// done reports whether the keeper has nothing left to do: no run kept and no binary
// handed over (an upgrade of a server with no run still starts the new one).
func (k *keeper) done() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.runs) == 0 && (!k.handover || k.stopping)
}

// pending reports whether the server that ended left runs without a process that a
// next server must go on with (Options.Pending); never once the keeper is told to end.
func (k *keeper) pending() bool {
	k.mu.Lock()
	stopping := k.stopping
	k.mu.Unlock()
	return !stopping && k.o.Pending != nil && k.o.Pending()
}

// youngLimit: this many servers of an upgraded binary dying young in a row, and the
// keeper goes back to the binary it started with, so a broken upgrade cannot leave the
// runs with no server that stays up (and no way to ask for another upgrade).
const youngLimit = 3

// upgradeFailed drops the binary a handover named, if any: the next server is the
// keeper's own binary again.
func (k *keeper) upgradeFailed() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.next != "" {
		k.log.Warn("the upgraded binary does not stay up: back to the keeper's own", "next", k.next, "exe", k.o.Exe)
		k.next = ""
	}
}

func nextBackoff(d time.Duration) time.Duration {
	if d == 0 {
		return firstBackoff
	}
	return min(2*d, maxBackoff)
}

// lockKeeper takes keeper.lock in the state dir, never through a link.
func lockKeeper(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, "keeper.lock"), os.O_CREATE|os.O_RDWR|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("keeper: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("keeper: lock: %w", err)
	}
	// Its pid, for people and tests (the lock is what counts).
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

// keeper is the keeper process's state.
type keeper struct {
	o    Options
	log  *slog.Logger
	self *os.File // o.Exe, opened as the keeper started
	wake chan struct{}

	mu       sync.Mutex
	runs     map[string]*kept
	srv      *server // the server it started last; nil once that one is reaped
	next     string  // the binary servers are started from after a handover
	handover bool    // a handover asked for a server of next that is not started yet
	stopping bool    // told to end (SIGTERM, SIGINT): no server is started for nothing

	failures  int       // servers in a row that did not come up
	lastErr   string    // why the last of them did not
	failSince time.Time // when the first of them did not

	statusMu sync.Mutex // keeper.status is written by one at a time
}

// server is one server the keeper started.
type server struct {
	pid     int
	exe     string
	upgrade bool // started from the binary a handover named
	conn    *conn
	started time.Time
	ready   bool   // it has recovered: exits are told to it as they happen
	greeted bool   // it said hello
	killed  string // why the keeper killed it, if it did
	fatal   string // the error it said it ends with (fail), if any
	status  syscall.WaitStatus
	served  chan struct{} // closed once its connection has ended and every message is handled
}

// why is what a server that did not come up is reported with.
func (s *server) why() string {
	switch {
	case s.killed != "":
		return s.killed
	case s.fatal != "":
		return s.fatal
	case s.status.Signaled():
		return fmt.Sprintf("the server (pid %d, %s) was killed by %v before it answered", s.pid, s.exe, s.status.Signal())
	}
	return fmt.Sprintf("the server (pid %d, %s) exited with status %d before it answered", s.pid, s.exe, s.status.ExitStatus())
}

// kept is one run: its descriptors, what was read while no server read, and its
// root's exit once observed.
type kept struct {
	id  string
	pid int
	pty bool
	// fds are the PTY master; or stdin (-1 once closed), stdout and stderr: numbers,
	// in no poller, so the keeper never wakes for a byte while a server reads them.
	fds []int

	mu       sync.Mutex
	buf      [2][]byte
	draining sync.WaitGroup
	readers  []*os.File // while no server reads: pollable duplicates of the outputs

	exited bool
	lost   bool // exited, reaped by its server before it ended: no status
	status syscall.WaitStatus
}

func (k *keeper) keeping() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.runs)
}

func (k *keeper) poke() {
	select {
	case k.wake <- struct{}{}:
	default:
	}
}

// startServer starts the server with its end of a new socket pair as descriptor 3.
func (k *keeper) startServer() error {
	c, theirs, err := pair()
	if err != nil {
		return err
	}
	defer theirs.Close()
	k.mu.Lock()
	exe, path, upgrade := k.o.Exe, fmt.Sprintf("/proc/self/fd/%d", k.self.Fd()), k.next != ""
	if upgrade {
		exe, path = k.next, k.next
	}
	k.handover = false
	k.mu.Unlock()
	cmd := exec.Command(path, k.o.Args...)
	cmd.Args[0] = exe // what ps shows: the binary's name, not the descriptor's
	cmd.ExtraFiles = []*os.File{theirs}
	cmd.Env = append(os.Environ(), EnvFD+"=3")
	cmd.Dir = "/"
	if k.o.Stderr != nil {
		cmd.Stderr = k.o.Stderr
	}
	if err := cmd.Start(); err != nil {
		c.close()
		return fmt.Errorf("keeper: start server %s: %w", exe, err)
	}
	srv := &server{pid: cmd.Process.Pid, exe: exe, upgrade: upgrade, conn: c, started: time.Now(), served: make(chan struct{})}
	cmd.Process.Release() // reaped by reap, with every other child
	k.mu.Lock()
	k.srv = srv
	k.mu.Unlock()
	k.log.Info("server started", "pid", srv.pid, "exe", exe, "kept", k.keeping())
	limit := greetLimit
	if upgrade {
		limit = upgradeGreetLimit
	}
	time.AfterFunc(limit, func() { k.unanswered(srv, limit) })
	go k.serve(srv)
	return nil
}

// unanswered kills srv if it has not said hello within limit and is still the
// keeper's server: one that hangs as it starts must not leave the runs without a
// server for ever.
func (k *keeper) unanswered(srv *server, limit time.Duration) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if srv.greeted || k.srv != srv {
		return
	}
	srv.killed = fmt.Sprintf("the server (pid %d, %s) did not answer within %s: killed", srv.pid, srv.exe, limit)
	k.log.Warn("server killed: it did not answer", "pid", srv.pid, "exe", srv.exe, "limit", limit)
	unix.Kill(srv.pid, syscall.SIGKILL) // still our unreaped child: the pid is its
}

// failed counts a server that did not come up; at failLimit in a row the keeper says
// so, in its log and its status (which clients read).
func (k *keeper) failed(why string) {
	k.mu.Lock()
	k.failures++
	k.lastErr = why
	n := k.failures
	k.mu.Unlock()
	if n == failLimit {
		k.log.Error("no server could be started", "tries", n, "err", why, "kept", k.keeping())
	}
	k.writeStatus()
}

// terminate is SIGTERM or SIGINT. A keeper that keeps no run ends: its server, asked
// to end, is killed if it has not within stopLimit. One that keeps runs never ends
// them itself: a server that is up is told to (it ends its runs and exits, and the
// keeper follows); either way the keeper says what it keeps and how to end it.
func (k *keeper) terminate(s os.Signal) {
	k.mu.Lock()
	defer k.mu.Unlock()
	srv := k.srv
	k.log.Info("signal", "signal", s.String(), "kept", len(k.runs))
	if len(k.runs) == 0 {
		k.stopping = true
		if srv != nil {
			unix.Kill(srv.pid, syscall.SIGTERM)
			time.AfterFunc(stopLimit, func() {
				k.mu.Lock()
				defer k.mu.Unlock()
				if k.srv == srv && len(k.runs) == 0 {
					k.log.Warn("server killed: it did not end", "pid", srv.pid, "limit", stopLimit)
					unix.Kill(srv.pid, syscall.SIGKILL)
				}
			})
		}
		k.poke()
		return
	}
	var what []string
	var pids []string
	for _, kp := range k.runs {
		what = append(what, fmt.Sprintf("%s (pid %d)", kp.id, kp.pid))
		pids = append(pids, strconv.Itoa(kp.pid))
	}
	slices.Sort(what)
	slices.Sort(pids)
	var how string
	if srv != nil && srv.greeted {
		unix.Kill(srv.pid, syscall.SIGTERM)
		how = fmt.Sprintf("the server (pid %d) is told to end them, as corral shutdown does; the keeper ends after them", srv.pid)
	} else {
		why := k.lastErr
		if why == "" {
			why = "it is starting one"
		}
		how = fmt.Sprintf("no server is up to end them (%s): they go on, and the keeper goes on starting servers; "+
			"once one answers corral shutdown ends them, or end them yourself: kill %s", why, strings.Join(pids, " "))
	}
	line := fmt.Sprintf("keeper (pid %d): %s: it keeps %d run(s): %s; %s", os.Getpid(), s, len(what), strings.Join(what, ", "), how)
	k.log.Warn(line)
	if k.o.Stderr != nil {
		fmt.Fprintln(k.o.Stderr, line)
	}
}

// serve reads the server's messages until it hangs up; then the keeper reads the
// runs' output itself.
func (k *keeper) serve(srv *server) {
	defer close(srv.served)
	for {
		m, fds, err := srv.conn.recv()
		if errors.Is(err, errBadMessage) {
			k.log.Warn("message skipped", "err", err) // the server goes on: so does its connection
			continue
		}
		if err != nil {
			if !errors.Is(err, errHungUp) && !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				k.log.Warn("server connection", "err", err)
			}
			break
		}
		k.handle(srv, m, fds)
	}
	srv.conn.close()
	k.mu.Lock()
	srv.ready = false
	if k.srv == nil || k.srv == srv { // not once a newer server has taken the runs
		for _, kp := range k.runs {
			kp.startDrain()
		}
	}
	k.mu.Unlock()
	k.log.Info("server hung up", "pid", srv.pid)
	k.poke()
}

func (k *keeper) handle(srv *server, m msg, fds []int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	switch m.Op {
	case opHello:
		srv.greeted = true
		if k.failures > 0 {
			k.log.Info("a server is up again", "pid", srv.pid, "after", k.failures)
		}
		k.failures, k.lastErr = 0, ""
		go k.writeStatus()
		k.recoverTo(srv)
		return
	case opFail:
		srv.fatal = m.Err
		k.log.Warn("the server ends on an error", "pid", srv.pid, "err", m.Err)
	case opKeep:
		if want := map[bool]int{true: 1, false: 3}[m.PTY]; len(fds) != want {
			k.log.Warn("keep skipped", "run_id", m.ID, "descriptors", len(fds), "want", want)
			break
		}
		if old := k.runs[m.ID]; old != nil {
			old.close()
		}
		k.runs[m.ID] = &kept{id: m.ID, pid: m.PID, pty: m.PTY, fds: fds}
		return
	case opDrop:
		if kp := k.runs[m.ID]; kp != nil {
			delete(k.runs, m.ID)
			kp.close()
			if kp.exited {
				reaper.ReapIfZombie(kp.pid) // ours to reap: the server is done with it
			}
		}
	case opCloseIn:
		if kp := k.runs[m.ID]; kp != nil && !kp.pty && kp.fds[0] >= 0 {
			unix.Close(kp.fds[0])
			kp.fds[0] = -1
		}
	case opHandover:
		k.next, k.handover = m.Exe, true
		k.log.Info("handover", "next", m.Exe)
	default:
		k.log.Warn("unknown message", "op", m.Op)
	}
	closeAll(fds) // only keep carries descriptors
}

// recoverTo sends srv every run kept: its descriptors, the output read meanwhile and
// its exit if it has exited; then ready. Called with k.mu held, so no message of the
// server is handled in between. A run whose descriptors cannot be sent stays kept
// for the next server.
func (k *keeper) recoverTo(srv *server) {
	n := 0
	for _, kp := range k.runs {
		kp.stopDrain()
		if err := kp.sendTo(srv.conn); err != nil {
			k.log.Warn("recover", "run_id", kp.id, "err", err)
			continue
		}
		n++
	}
	if err := srv.conn.send(msg{Op: opReady}); err != nil {
		k.log.Warn("recover", "err", err)
		return
	}
	srv.ready = true
	k.log.Info("recovered", "server", srv.pid, "runs", n)
}

// sendTo sends the run, its output kept (which it then forgets) and its exit.
func (kp *kept) sendTo(c *conn) error {
	var fds []int
	for _, fd := range kp.fds {
		if fd >= 0 {
			fds = append(fds, fd)
		}
	}
	m := msg{Op: opRun, ID: kp.id, PID: kp.pid, PTY: kp.pty}
	if len(fds) < len(kp.fds) {
		m.Stream = -1 // stdin was closed: the descriptors are stdout and stderr
	}
	if err := c.send(m, fds...); err != nil {
		return err
	}
	kp.mu.Lock()
	defer kp.mu.Unlock()
	for s, b := range kp.buf {
		for len(b) > 0 {
			n := min(len(b), chunk)
			if err := c.send(msg{Op: opData, ID: kp.id, Stream: s, Data: b[:n]}); err != nil {
				return err
			}
			b = b[n:]
		}
		kp.buf[s] = nil
	}
	if kp.exited {
		return c.send(kp.exitMsg())
	}
	return nil
}

// reap reaps every child of the keeper but the kept roots — escaped processes
// reparented to it, and the server — then observes kept roots that exited (without
// reaping them: their pids stay pinned until the server drops them) and tells a
// recovered server. It returns the server if it was reaped.
func (k *keeper) reap() (gone *server) {
	k.mu.Lock()
	defer k.mu.Unlock()
	roots := map[int]bool{}
	for _, kp := range k.runs {
		roots[kp.pid] = true
	}
	for _, pid := range reaper.Children() {
		if roots[pid] {
			continue
		}
		var ws syscall.WaitStatus
		if k.srv != nil && pid == k.srv.pid {
			ws, _, _ = reaper.ExitedStatus(pid)
		}
		reaped, _ := reaper.ReapIfZombie(pid)
		if reaped && k.srv != nil && pid == k.srv.pid {
			k.srv.status = ws
			gone, k.srv = k.srv, nil
			k.log.Info("server ended", "pid", pid, "lived", time.Since(gone.started).Round(time.Millisecond))
		}
	}
	for _, kp := range k.runs {
		if !kp.exited {
			k.observe(kp)
		}
	}
	return gone
}

// observe checks whether a kept root has exited. While a server lives its roots are
// its children, not ours (ECHILD); once it has ended every root it had not reaped is
// ours, so a root that is not was reaped by it: exited, status unknown.
func (k *keeper) observe(kp *kept) {
	ws, exited, err := reaper.ExitedStatus(kp.pid)
	switch {
	case err != nil && k.srv == nil:
		kp.exited, kp.lost = true, true
	case err != nil, !exited:
		return
	default:
		kp.exited, kp.status = true, ws
	}
	k.log.Info("run exited", "run_id", kp.id, "pid", kp.pid, "status", uint32(kp.status), "unknown", kp.lost)
	if k.srv != nil && k.srv.ready {
		if err := k.srv.conn.send(kp.exitMsg()); err != nil {
			k.log.Warn("exit not told", "run_id", kp.id, "err", err)
		}
	}
}

func (kp *kept) exitMsg() msg {
	return msg{Op: opExited, ID: kp.id, PID: kp.pid, Status: uint32(kp.status), Lost: kp.lost}
}

// startDrain reads the run's output until a server takes it back, the buffer is full,
// or the output ends: through duplicates of its outputs made pollable for the time
// being. Called with the keeper's lock held.
func (kp *kept) startDrain() {
	if kp.readers != nil {
		return
	}
	outs := kp.fds[1:]
	if kp.pty {
		outs = kp.fds[:1]
	}
	dups, err := dupAllFDs(outs)
	if err != nil {
		return // nothing read: the output waits in the kernel for the next server
	}
	for s, fd := range dups {
		f := os.NewFile(uintptr(fd), kp.id)
		kp.readers = append(kp.readers, f)
		kp.draining.Add(1)
		go kp.drain(s, f)
	}
}

// drain reads one output of the run into its buffer. The wait for output is the
// netpoller's and holds no read buffer: one is taken from drainBufs once the output is
// readable, so a thousand silent runs kept while no server reads hold none.
func (kp *kept) drain(s int, f *os.File) {
	defer kp.draining.Done()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	for {
		kp.mu.Lock()
		room := BufferCap - len(kp.buf[0]) - len(kp.buf[1])
		kp.mu.Unlock()
		if room <= 0 {
			return // full: the run waits for a server, as on a terminal nobody reads
		}
		var n int
		var rerr error
		err := rc.Read(func(fd uintptr) bool {
			bp := drainBufs.Get().(*[]byte)
			defer drainBufs.Put(bp)
			buf := (*bp)[:min(room, len(*bp))]
			for {
				n, rerr = unix.Read(int(fd), buf)
				if rerr != unix.EINTR {
					break
				}
			}
			if rerr == unix.EAGAIN {
				return false // nothing yet: wait in the netpoller
			}
			if n > 0 {
				kp.mu.Lock()
				kp.buf[s] = append(kp.buf[s], buf[:n]...)
				kp.mu.Unlock()
			}
			return true
		})
		if err != nil || rerr != nil || n <= 0 {
			return // a deadline (a server takes the run back), EOF, or EIO: the output ended
		}
	}
}

// drainBufs are the read buffers of the runs' drains, held only for a read.
var drainBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// stopDrain ends the run's readers, waits for them and closes their duplicates (out
// of the poller again). Called with the keeper's lock held.
func (kp *kept) stopDrain() {
	if kp.readers == nil {
		return
	}
	past := time.Unix(1, 0)
	for _, f := range kp.readers {
		f.SetReadDeadline(past)
	}
	kp.draining.Wait()
	for _, f := range kp.readers {
		f.Close()
	}
	kp.readers = nil
}

func (kp *kept) close() {
	kp.stopDrain()
	for _, fd := range kp.fds {
		if fd >= 0 {
			unix.Close(fd)
		}
	}
}
