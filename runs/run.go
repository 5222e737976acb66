package runs

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"corral/ptyhost"
	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/watchdog"
)

// run is one supervised run. Its lifecycle fields are guarded by mu; output capture
// (out, tx, modes) has its own synchronisation because the reader goroutines must never
// wait on the lifecycle.
type run struct {
	id     string
	spec   Spec
	sup    *Supervisor
	ctx    context.Context
	cancel context.CancelCauseFunc
	out    *outputLog
	modes  ptyhost.ModeTracker
	screen *screen.Screen // PTY runs of a supervisor WithScreens; nil otherwise
	wd     *watchdog.Watchdog
	done   chan struct{} // closed when the run is Exited
	once   sync.Once     // the finalizer runs exactly once
	tx     [2]*transcript
	cast   *castFile // PTY runs with a log dir: the asciicast recording

	mu        sync.Mutex
	info      Info
	proc      *ptyhost.Proc // nil for an adopted run: no terminal I/O
	cmd       *exec.Cmd     // nil for an adopted run: not our child, never reaped here
	exitSeen  bool
	epoch     uint64           // lease epoch of the stored record; 0 until stored
	committed State            // the state started committed before moving to it
	escapees  []Escapee        // processes that left the session, attributed to this run
	wb        writeBehindState // a record write waiting on the lock or retrying (durable.go)

	latest    atomic.Pointer[Info] // info as last published, read without mu
	outLogged atomic.Int64         // output total as of the last output heartbeat
	mirrorErr atomic.Bool          // a write to Spec.Stdout/Stderr failed: no more mirroring

	// inputMu orders input around a submit's pause (controls.go); echo is poked by
	// every read of output, so a submit knows when the app has taken its text.
	inputMu sync.Mutex
	echo    chan struct{}
	attn    uint64 // the screen's attention count last seen, on the PTY reader only
	said    uint64 // the screen's activity announcements last seen, likewise
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
	if err := r.openTranscripts(); err != nil {
		return r.failStart(err)
	}
	cmd := r.spec.command(r.sup.cfg, r.id)
	// Held until the record is committed (issue 15 item 2): a Corral killed between
	// the fork and the registry write leaves a child that exits having run nothing.
	// Without a registry there is no record to wait for, and no hold to pay for.
	opts := ptyhost.Options{PTY: r.spec.PTY, Cols: r.spec.Cols, Rows: r.spec.Rows,
		OnOutput: r.onOutput, WriteQueue: r.sup.cfg.WriteQueue, Hold: r.sup.reg != nil}
	if r.spec.FixedSize {
		opts.OnChildResize = r.onChildResize
	}

	r.sup.spawnMu.Lock()
	if r.ctx.Err() != nil {
		r.sup.spawnMu.Unlock()
		return r.endUnstarted(nil)
	}
	proc, err := ptyhost.Start(cmd, opts)
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
	go r.monitor(r.waitChild)
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
	rec := r.recordLocked()
	r.mu.Unlock()
	if release, err := r.commitStart(rec); !release {
		return err
	}
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
		r.closeTranscripts()
		r.mu.Lock()
		defer r.mu.Unlock()
		r.moveLocked(Exited, func(i *Info) {
			if spawnErr != nil {
				i.Reason, i.SpawnErr = SpawnError, spawnErr.Error()
			}
			i.EndedAt = r.sup.clock.Now()
			i.Cleanup.VerifiedEmpty = true
		})
		r.changeLocked(EventExit, r.info.Reason.String(), nil)
		r.sup.countExit(r.info.Reason)
		r.doneLocked()
	})
	return nil
}

// monitor waits for the root to exit or the run to be cancelled, then finalizes.
// waitExit blocks until the root has exited: for our own child without reaping it
// (reaper.WaitExited, so the pid stays pinned); for an adopted run through a pidfd.
func (r *run) monitor(waitExit func()) {
	exited := make(chan struct{})
	go func() {
		waitExit()
		close(exited)
	}()
	select {
	case <-exited:
		r.observeExit()
	case <-r.ctx.Done():
	}
	r.finalize(exited)
}

// waitChild waits for the run's own root to exit, leaving it unreaped. An error means
// the child is not waitable (already reaped), which is exited all the same.
func (r *run) waitChild() { _ = reaper.WaitExited(r.proc.PID()) }

// finalize runs once per started run: terminate what is left of the session (all of
// it on a cancel; stragglers when the root exited on its own), reap the root, drain
// the output within its bound, and record the result.
func (r *run) finalize(exited <-chan struct{}) {
	r.once.Do(func() {
		if h := r.sup.finalizeHook; h != nil {
			h(r.id) // before the watchdog stops, so tests can race a deadline here
		}
		r.wd.Stop()
		r.sup.scanEscapes() // a last look for escapees before the session is ended
		rep := reaper.Terminate(r.sup.hurry, r.target())
		r.sup.reapExited(rep.Exited, r.rootPID())
		r.change(EventCleanup, cleanupDetail(rep), func(i *Info) { i.Cleanup = cleanupOf(rep) })
		r.sup.countCleanup(rep)
		<-exited
		var werr error
		var forced bool
		if r.cmd != nil {
			werr = r.cmd.Wait() // the one place this run's root is reaped
			forced = r.proc.FinishOutput(r.sup.cfg.Drain)
			r.proc.Close()
		}
		r.closeTranscripts()
		r.finish(werr, forced)
	})
}

// endRetries: a run's session not verified empty (a member stuck in uninterruptible
// sleep, a failed /proc read) gets two more passes of the escalation before the run
// is recorded as it is.
const endRetries = 2

// target is the escalation that ends the run's session.
func (r *run) target() reaper.Target {
	r.mu.Lock()
	defer r.mu.Unlock()
	cfg := r.sup.cfg
	t := reaper.Target{SID: r.info.PID, PTY: r.spec.PTY, Stop: r.spec.StopSignal,
		Paused: r.info.Paused, Grace: r.spec.Grace, Sweep: cfg.Sweep, Poll: cfg.Poll,
		Extra: fingerprints(r.escapees), OnStep: r.sup.stepLogger(r.id), Retries: endRetries}
	if r.info.Adopted {
		// Not our child: no zombie pins its numbers, so only what is provably the
		// run's is signalled, each through a verified pidfd (issue 15.1).
		t.Claim = &reaper.Claim{Root: r.info.Fingerprint, EnvKey: RunIDEnv, EnvValue: r.id}
	}
	return t
}

// finish records the exit status and moves the run to exited.
func (r *run) finish(werr error, forced bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	code, sig := exitStatus(r.cmd, werr)
	r.moveLocked(Exited, func(i *Info) {
		i.ExitCode, i.Signal = code, sig
		if i.Reason == Exit && sig != 0 {
			i.Reason = Signal // killed by a signal Corral did not send
		}
		i.EndedAt = r.sup.clock.Now()
		i.Cleanup.OutputForced = forced
		i.Paused = false
	})
	r.changeLocked(EventExit, r.info.Reason.String(), nil)
	r.sup.countExit(r.info.Reason)
	r.doneLocked()
}

// exitStatus reads the root's exit code or fatal signal.
func exitStatus(cmd *exec.Cmd, werr error) (*int, int) {
	if cmd == nil {
		return nil, 0 // adopted: not our child, its status is not ours to know
	}
	ps := cmd.ProcessState
	if ps == nil {
		return nil, 0
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return nil, int(ws.Signal())
	}
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) {
		return nil, 0
	}
	code := ps.ExitCode()
	return &code, 0
}

func cleanupOf(rep reaper.Report) Cleanup {
	return Cleanup{Steps: rep.Steps, Killed: rep.Killed, Hard: rep.Hard,
		VerifiedEmpty: rep.VerifiedEmpty, Remaining: len(rep.Remaining)}
}

func cleanupDetail(rep reaper.Report) string {
	if rep.VerifiedEmpty {
		return "verified empty"
	}
	return "not verified empty"
}

// onOutput is called by the host's reader goroutine for every read. It must stay
// cheap: it never takes the run's lifecycle lock.
func (r *run) onOutput(s ptyhost.Stream, p []byte) {
	// The screen and the modes first, the log after them: whoever sees the bytes in
	// the log (a poll, a test waiting for output, the UI's log read) then finds them on
	// the screen too, and keys are encoded for the modes they set. In the other order
	// a poll could return bytes the pane did not show yet (CI saw exactly that).
	if r.screen != nil {
		r.screen.Write(p)
		// A bell or a desktop notification: the app asks for its human, and its
		// silence from now on is waiting, not hanging (issue 14.5).
		if a := r.screen.Attention(); a != r.attn {
			r.attn = a
			r.wd.AwaitInput()
		}
		// An agent's title or OSC 7501 saying it waits or works (screen_activity.go).
		if n, idle := r.screen.Activity(); n != r.said {
			r.said = n
			if idle {
				r.wd.AwaitInput()
			} else {
				r.wd.Working()
			}
		}
	}
	if r.spec.PTY {
		r.modes.Feed(p)
	}
	r.out.write(s, p)
	r.tx[s].write(p)
	r.cast.output(p, time.Now())
	if w := r.mirror(s); w != nil && !r.mirrorErr.Load() {
		if _, err := w.Write(p); err != nil {
			r.mirrorLost(err)
		}
	}
	r.wd.Output()
	select {
	case r.echo <- struct{}{}:
	default:
	}
	r.sup.hub.publish(Event{Type: EventOutput, Run: Info{ID: r.id}})
}

// takeSize gives the run's screen and recording a new PTY size.
func (r *run) takeSize(cols, rows uint16) {
	if r.screen != nil {
		r.screen.Resize(int(cols), int(rows))
	}
	r.cast.resize(cols, rows, time.Now())
}

// onChildResize takes up a window size the child set on its own terminal (FixedSize
// runs), before the output written after it is emulated. Called by the reader, which
// never takes the lifecycle lock, so the Info update goes through a goroutine.
func (r *run) onChildResize(cols, rows uint16) {
	r.takeSize(cols, rows)
	go r.change(EventState, "resize", func(i *Info) { i.Cols, i.Rows = cols, rows })
}

// mirrorLost ends the run when the writer its output is streamed to fails: for corral
// run that is its stdout closed by the reader (EPIPE: `corral run -- yes | head -2`).
// Nobody reads the run any more, so it is ended as Corral itself is being stopped
// (supervisor-shutdown), through the usual escalation; it is not left draining for
// ever. The reader goroutine must not take the lifecycle lock, so the stop is
// asked for on a goroutine of its own, once.
func (r *run) mirrorLost(err error) {
	if r.mirrorErr.Swap(true) {
		return
	}
	if r.sup.reg != nil {
		r.sup.reg.events.emit("output-closed", "run", r.id, "err", err.Error())
	}
	go r.stop(SupervisorShutdown)
}

func (r *run) mirror(s ptyhost.Stream) io.Writer {
	if s == ptyhost.Stderr && r.spec.Stderr != nil {
		return r.spec.Stderr
	}
	if s == ptyhost.Stdout && r.spec.Stdout != nil {
		return r.spec.Stdout
	}
	return nil
}

// openTranscripts creates the run's transcript files at the paths newRun chose: one
// for a PTY run, stdout and stderr apart for a pipe run.
func (r *run) openTranscripts() error {
	paths := [2]string{r.info.Transcript, r.info.StderrTranscript}
	for s, path := range paths {
		if path == "" {
			continue
		}
		t, err := openTranscript(path, r.sup.cfg.TranscriptCap)
		if err != nil {
			return err
		}
		r.tx[s] = t
	}
	if r.info.Cast != "" {
		c, err := openCast(r.info.Cast, r.spec.Cols, r.spec.Rows, r.spec.Name, r.sup.cfg.Term,
			r.sup.cfg.TranscriptCap, time.Now())
		if err != nil {
			return err
		}
		r.cast = c
	}
	return nil
}

func (r *run) closeTranscripts() {
	for _, t := range r.tx {
		t.close()
	}
	r.cast.close()
}

// replyWriter sends a screen's answers to terminal queries to the run's input.
type replyWriter struct{ p *ptyhost.Proc }

func (w replyWriter) Write(b []byte) (int, error) {
	if err := w.p.Write(b); err != nil {
		return 0, err
	}
	return len(b), nil
}
