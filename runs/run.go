package runs

import (
	"context"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"corral/ptyhost"
	"corral/ptyhost/keys"
	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/runs/internal/statefile"
	"corral/runs/keeper"
	"corral/runs/probe"
	"corral/runs/workspace"
	"corral/watchdog"
)

// run is one supervised run. Its lifecycle fields are guarded by mu; output capture
// (out, tx, modes) has its own synchronisation because the reader goroutines must never
// wait on the lifecycle.
type run struct {
	id     string
	secret string // RunSecretEnv's value: set when made, never changed
	spec   Spec
	sup    *Supervisor
	ctx    context.Context
	cancel context.CancelCauseFunc
	out    *outputLog
	modes  keys.ModeTracker // the input modes of a PTY run without a screen
	screen *screen.Screen   // PTY runs of a supervisor WithScreens; nil otherwise
	wd     *watchdog.Watchdog
	done   chan struct{} // closed when the run is Exited
	once   *sync.Once    // the finalizer runs exactly once per attempt (a new one for each: service.go)
	tx     [2]*statefile.Transcript
	cast   *statefile.Cast // PTY runs with a log dir: the asciicast recording
	// wt is its worktree (nil: none) and runSetup says its setup steps run before its
	// program (a worktree made for it now, or made for it by a server before this one
	// and it never started); both set when it is made, runSetup cleared once the
	// first attempt ran them.
	wt       *workspace.Worktree
	runSetup bool
	diff     *differ // counts a worktree run's changes (worktree_diff.go); nil without one

	// reaping is set as the finalizer is about to reap the root (cmd.Wait): until
	// then the root's pid is pinned to it (an unreaped child of ours).
	reaping atomic.Bool

	mu          sync.Mutex
	info        Info
	proc        *ptyhost.Proc // nil for an adopted run: no terminal I/O
	cmd         *exec.Cmd     // nil for an adopted run: not our child, never reaped here
	exitSeen    bool
	epoch       uint64           // lease epoch of the stored record; 0 until stored
	outputSaved time.Time        // the last output time its record was last given
	committed   State            // the state started committed before moving to it
	unrecorded  bool             // its first record could not be written: it writes none (start.go)
	escapees    []Escapee        // processes that left the session, attributed to this run
	wb          writeBehindState // a record write waiting on the lock or retrying (persist.go)

	latest    atomic.Pointer[Info] // info as last published, read without mu
	outLogged atomic.Int64         // output total as of the last output heartbeat
	mirrorErr atomic.Bool          // a write to Spec.Stdout/Stderr failed: no more mirroring

	// inputMu orders input around a submit's pause (frontend.go); echo is poked by
	// every read of output, so a submit knows when the app has taken its text.
	inputMu sync.Mutex
	echo    chan struct{}
	attn    uint64 // the screen's attention count last seen, on the PTY reader only
	said    uint64 // the screen's activity announcements last seen, likewise
	// echoes is how many reads of output, from the last write of input on, are still
	// its echo (DetailEcho): echoReads at each write, one less at each read.
	echoes atomic.Int32

	// agent is the agent's state (run_agent.go); nil when no agent's rules apply. Set
	// at start, or later by the foreground program (fg), so it is read with Load.
	agent  atomic.Pointer[agentRun]
	fg     *fgWatch       // recognition by the foreground program (agent_fg.go); nil when off
	cgroup *reaper.Cgroup // the run's cgroup (cgroup.go); nil on the session backend
	kept   *keeper.Exit   // a run resumed from a previous server: its root's exit (readopt.go)
	shared []Escapee      // processes other runs passed to it, which it uses (shared.go)
	// ending is set under mu when its finalizer begins: from then on nothing is passed
	// to it (its escalation may already have looked at its members).
	ending bool
	// lastLooked is set under mu when a shutdown took the last look for its escapees
	// (lookAll): its finalizer does not look again.
	lastLooked bool
	// shutLook, set under mu by a shutdown before it stops the run, is closed once the
	// shutdown's one look for escapees (taken after every run was stopped) is done:
	// its finalizer waits for it before it ends the run.
	shutLook <-chan struct{}
	// shutReady, set with shutLook, is closed by the finalizer once it is ready for
	// its run to be ended (probes and agent stopped); shutEnded is then what the
	// shutdown's one escalation of every run did to this one (endAll), set before
	// shutLook is closed; nil: the finalizer ends its run itself.
	shutReady chan struct{}
	shutEnded *shutEnd
	viewMu    sync.Mutex
	viewers   map[string]bool // the attached UIs looking at the run (viewers.go)

	// cgroupGone: its cgroup was removed from outside (logged once; escape_cgroup.go)
	cgroupGone atomic.Bool
	// lookedCPU is its cgroup's CPU time read before the escape scan's last look at
	// it, 0 before any (escape_cgroup.go); the scan's only, under its lock.
	lookedCPU time.Duration
	// again is a cancel of a run already ending: its finalizer runs the escalation
	// once more while the root lives on (a second kill must do something).
	again chan struct{}
	// readopted is the record a resumed run was taken back with, while it is being
	// resumed: a detection the foreground brings then is given its notes before it
	// judges anything (readopt.go, notify.go).
	readopted atomic.Pointer[Record]
	// attnFrom is the screen's count of bells and notifications when the current
	// attempt started: a detection counts only those after it (agent_attempt.go).
	attnFrom atomic.Uint64
	// cutGrace, set while the finalizer's escalation runs, ends its grace now: a
	// second cancel while the first waits out a long grace on a root that ignores its
	// stop signal kills at once, as a second Ctrl-C would.
	cutGrace context.CancelFunc
	// finishing is set while Supervisor.Finish works on the run's worktree: a second
	// finish meanwhile is refused (finish.go).
	finishing atomic.Bool

	// A service's (service.go): the timer of its next attempt while restarting, a
	// manual restart asked for while an attempt ends, the probes of the current
	// attempt (under mu) and its log probe's matcher, fed by the reader.
	backoff    watchdog.Timer
	restartNow bool
	probes     []*probe.Monitor
	logProbe   atomic.Pointer[probe.LogMatcher]

	// stale are the dependency runs, by name, a run spawned again after a loss must
	// not take (depends_wait.go); set before its wait, never changed.
	stale map[string]string
}

// changeLocked applies f to the run's info, stamps a new sequence number and publishes
// the event. Publishing under mu keeps each run's events in order; the hub never blocks.
func (r *run) changeLocked(typ EventType, detail string, f func(*Info)) {
	if f != nil {
		f(&r.info)
	}
	r.info.Seq++
	cp := r.info
	r.latest.Store(&cp)
	e := Event{Type: typ, Time: r.sup.clock.Now(), Run: cp, Detail: detail}
	r.sup.hub.publish(e)
	r.sup.logEvent(e)
	if typ != EventOutput {
		r.sup.deps.poke() // a dependency's condition may have changed
	}
}

func (r *run) change(typ EventType, detail string, f func(*Info)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.changeLocked(typ, detail, f)
}

// moveLocked changes state; an illegal move is a bug and is returned, never applied.
// The new state is persisted, but a failed write never blocks a move — it is logged
// (registry-error) — or a cancel could be left unable to reach the process. Only the
// move to running is strict, and started commits that record before moving.
func (r *run) moveLocked(next State, f func(*Info)) error {
	s, err := r.info.State.to(next)
	if err != nil {
		return err
	}
	r.changeLocked(EventState, next.String(), func(i *Info) {
		i.State = s
		if f != nil {
			f(i)
		}
	})
	if r.committed == s {
		return nil // started wrote this state already
	}
	r.persistLocked()
	return nil
}

// stop is the one way a run is asked to end, whatever the cause. The first cause that
// finds the run starting or running becomes its reason; later ones change nothing.
func (r *run) stop(reason Reason) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch r.info.State {
	case Starting:
		if r.info.Reason != ReasonNone {
			return false
		}
		r.info.Reason = reason
	case Running:
		if err := r.moveLocked(Exiting, func(i *Info) { i.Reason = reason }); err != nil {
			return false
		}
	case Restarting:
		return r.stopRestartingLocked(reason)
	case Exiting:
		if r.cutGrace != nil { // already ending: its grace ends now
			r.cutGrace()
		}
		select { // and one more pass of the escalation, if it waits on the root
		case r.again <- struct{}{}:
		default:
		}
		return false
	default:
		return false
	}
	r.cancel(cause{reason})
	r.changeLocked(EventCancel, reason.String(), nil)
	return true
}

// observeExit records that the root exited on its own. If no cause was committed
// first, the reason is exit (refined to signal once the wait status is known).
func (r *run) observeExit() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.exitSeen = true
	if r.info.State == Running {
		r.moveLocked(Exiting, func(i *Info) { i.Reason = Exit })
	}
}

// start launches the process. A cancel that arrives before the process exists ends the
// run without starting it; one that arrives during the start is acted on at once.
func (r *run) start() error {
	if h := r.sup.startHook; h != nil {
		h(r.id)
	}
	if err := r.openTranscripts(r.info.Service.attempt() > 1); err != nil { // a later attempt continues them
		return r.failStart(err)
	}
	cmd := r.spec.command(r.sup.cfg, r.id)
	if steps := r.setupSteps(); len(steps) > 0 && cmd.Err == nil {
		cmd.Path, cmd.Args = r.wrapSetup(cmd.Path, cmd.Args, cmd.Env, steps)
	}
	cmd.Env = append(cmd.Env, RunSecretEnv+"="+r.secret)
	if r.sup.reg != nil { // corral hook, run by the run's agent, finds the server by it
		cmd.Env = append(cmd.Env, StateDirEnv+"="+r.sup.reg.Dir())
	}
	// Held until the record is committed: a Corral killed between
	// the fork and the registry write leaves a child that exits having run nothing.
	// Without a registry there is no record to wait for, and no hold to pay for.
	opts := ptyhost.Options{PTY: r.spec.PTY, Cols: r.spec.Cols, Rows: r.spec.Rows,
		OnOutput: r.onOutput, WriteQueue: r.sup.cfg.WriteQueue, Hold: r.sup.reg != nil}
	if r.spec.FixedSize {
		opts.OnChildResize = r.onChildResize
	}
	closeCgroup := r.makeCgroup(&opts)
	if opts.InCgroup && opts.Hold {
		if err := r.commitCgroup(); err != nil {
			closeCgroup()
			return r.failStart(err)
		}
		opts.Hold = false
	}

	r.sup.spawnMu.Lock()
	if r.ctx.Err() != nil {
		r.sup.spawnMu.Unlock()
		return r.endUnstarted(nil)
	}
	proc, err := ptyhost.Start(cmd, opts)
	closeCgroup()
	if err == nil {
		// The root is known before spawnMu is released: the escape scan, which reaps
		// zombie children that are not run roots, must never take it for an orphan.
		r.mu.Lock()
		r.info.PID = proc.PID()
		r.mu.Unlock()
	}
	r.sup.spawnMu.Unlock()
	if err != nil {
		return r.failStart(err)
	}
	err = r.started(cmd, proc)
	r.startProbes()
	go r.monitor(r.waitChild)
	if r.cgroup != nil && r.spec.Escape == EscapeFail {
		go r.watchContained()
	}
	return err
}

// started records the process, commits its record, releases it to exec its program
// and moves the run to running — or straight to exiting when a cancel came in while it
// was starting, the record could not be written, or the exec failed (the error
// returned: a spawn error). A held child never released exits having run nothing.
func (r *run) started(cmd *exec.Cmd, proc *ptyhost.Proc) error {
	fp, _ := reaper.Identify(proc.PID()) // best effort: a root that already exited has none
	r.mu.Lock()
	r.cmd, r.proc = cmd, proc
	if r.screen != nil {
		r.screen.SetReply(replyWriter{proc}) // answers to DA/DSR queries go back to the app
	}
	r.info.PID, r.info.Fingerprint, r.info.StartedAt = proc.PID(), fp, r.sup.clock.Now()
	if r.exitIfCancelledLocked() {
		r.mu.Unlock()
		return nil
	}
	rec, epoch := r.recordLocked(), r.epoch
	if r.cgroup != nil && epoch == 1 { // commitCgroup's record is durable and names its cgroup
		r.commitBehindLocked(rec)
		r.mu.Unlock()
	} else {
		r.mu.Unlock()
		if release, err := r.commitStart(rec, epoch); !release {
			return err
		}
	}
	// Kept before its program runs and before it is running (no close-in can come
	// before its keep, no drop either: the monitor starts after this).
	r.keep()
	// Outside mu: the exec takes as long as the kernel needs, and a cancel must not
	// wait for it. The record is durable, so the program may run now.
	rerr := proc.Release()
	r.mu.Lock()
	defer r.mu.Unlock()
	if rerr != nil {
		r.moveLocked(Exiting, func(i *Info) {
			if i.Reason == ReasonNone {
				i.Reason = SpawnError
			}
			i.SpawnErr = rerr.Error()
		})
		r.cancel(cause{SpawnError})
		return rerr
	}
	if !r.exitIfCancelledLocked() {
		r.moveLocked(Running, nil)
		r.sup.counters.do(func(m *Metrics) { m.SpawnTotal++ })
		r.wd.Start()
	}
	return nil
}

func (r *run) failStart(err error) error {
	r.endUnstarted(err)
	return err
}

// endUnstarted ends a run whose process never started: a spawn error, or a cancel
// that came first.
func (r *run) endUnstarted(spawnErr error) error {
	r.once.Do(func() {
		r.wd.Stop()
		r.diff.end()
		r.closeTranscripts()
		r.dropCgroup(true) // nothing ran in it
		r.mu.Lock()
		defer r.mu.Unlock()
		if spawnErr != nil {
			r.info.Reason, r.info.SpawnErr = SpawnError, spawnErr.Error()
		}
		r.info.EndedAt = r.sup.clock.Now()
		r.info.Cleanup.VerifiedEmpty = true
		if r.restartLocked() {
			return
		}
		r.moveLocked(Exited, nil)
		r.changeLocked(EventExit, r.info.Reason.String(), nil)
		r.sup.countExit(r.info.Reason)
		r.doneLocked()
	})
	return nil
}

func (r *run) rootPID() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.info.PID
}

// rootIsChild reports whether the run's root is this process's child, reaped by its
// exec.Cmd alone, so its pid is pinned until then (an adopted or resumed run's is its
// keeper's).
func (r *run) rootIsChild() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cmd != nil
}
