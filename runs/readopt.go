package runs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"corral/ptyhost"
	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/runs/keeper"
)

// Runs that outlive their server (ARCHITECTURE.md, "Runs that outlive their server
// (the keeper)"): every started run's descriptors are handed to the keeper that
// started this server; a server started after another (crash or upgrade) takes back
// the runs the keeper kept and supervises them as if it had started them, with their
// own PTY or pipes.

// WithKeeper hands every run's descriptors to k, the keeper that started this server,
// so the runs outlive it; Readopt takes back those of the server before.
func WithKeeper(k *keeper.Client) Option { return func(s *Supervisor) { s.keeper = k } }

// DetailResumed is EventSpawn's detail for a run taken over from a previous server
// through the keeper: same process, same terminal.
const DetailResumed = "resumed"

// keep hands the started run's descriptors to the keeper. A keeper that is gone costs
// the run nothing but its survival of this server: that is logged.
func (r *run) keep() {
	k := r.sup.keeper
	if k == nil || r.proc == nil {
		return
	}
	if err := k.Keep(r.id, r.proc.PID(), r.spec.PTY, r.proc.Files()...); err != nil {
		r.sup.reg.emit("keeper-error", "run_id", r.id, "err", err.Error())
	}
}

// unkeep tells the keeper the run has ended (it closes its copies of the descriptors
// and reaps the root if it is its child).
func (r *run) unkeep() {
	if k := r.sup.keeper; k != nil {
		k.Drop(r.id)
	}
}

// replayBytes is how much of a resumed run's transcript rebuilds its screen and its
// in-memory log: the end of it, as a terminal would have shown it.
const replayBytes = 1 << 20

// Readopt takes over the runs the keeper kept for this state dir from a server before
// this one: each record is stolen from the dead instance (a new lease epoch, written
// before anything else, so the old owner's fencing holds), and the run is hosted
// again through its own descriptors — same pid, same record, its transcript
// continued, its screen rebuilt from the transcript and the output the keeper read
// meanwhile, its watchdog resumed with the time that passed counted. A run whose root
// exited meanwhile ends with its real status. Call it before anything reconciles.
func (s *Supervisor) Readopt(kept []keeper.Run) []Decision {
	out := make([]Decision, 0, len(kept))
	for _, k := range kept {
		out = append(out, s.resume(k))
	}
	return out
}

func (s *Supervisor) resume(k keeper.Run) Decision {
	d := Decision{ID: k.ID, PID: k.PID}
	rec, err := s.stealKept(k)
	if err != nil {
		return s.unaccounted(k, err)
	}
	d.Name = rec.Name
	r := s.resumedRun(rec, k)
	if err := r.rehost(k); err != nil {
		d.Detail = "resumed without its terminal: " + err.Error()
	}
	s.mu.Lock()
	s.runs[r.id] = r
	s.order = append(s.order, r.id)
	s.mu.Unlock()
	r.change(EventSpawn, DetailResumed, nil)
	first := r.agent.Load() // restored in resumedRun if it is the record's agent
	// An agent in its foreground, not named by its command, is known before it prints.
	r.lookAtStart()
	r.restoreAgent(rec) // an agent the look found: what its notifications said
	r.unclaimedHeld(rec, first)
	r.readopted.Store(nil) // an agent started from now on is a new one
	r.rejudgeAgent(rec)
	if rec.State == Exiting { // its old server was ending it: so does this one, for its reason
		reason := rec.Reason
		if reason == ReasonNone {
			reason = SupervisorShutdown
		}
		r.stop(reason) // before the monitor, so an exit seen first cannot take the reason
	} else {
		// What the old server's window held, judged by the state just re-derived (a
		// run being ended drops it: the run ended with it held).
		r.resumeNotes()
		r.wd.Start()
		if r.pausedNow() { // paused under the old server: still stopped, and shown so
			r.wd.Pause()
			r.change(EventPause, "resumed paused", func(i *Info) { i.Paused = true })
		}
	}
	r.startProbes()
	go r.monitor(func() { r.waitKept(k.Exit) })
	d.Decision = VerdictAdopted
	if d.Detail == "" {
		d.Detail = "resumed from the keeper: same process, same terminal"
	}
	s.reg.emit("resume", "run_id", r.id, "pid", k.PID, "epoch", rec.LeaseEpoch)
	return d
}

// rejudgeAgent gives a resumed run its agent's state at once, judged from the screen
// and title rebuilt from the transcript and the keeper's bytes, by the rules and the
// detector that judge it live: an agent that prints nothing after the change (one at
// its permission question) is not left unknown until its next output. The state
// keeps the old server's since when that server had judged the same, and the record
// is written either way, so that corral ls (the registry) and info, poll, explain and
// the UI (the run's Info) say the same from the start.
func (r *run) rejudgeAgent(rec Record) {
	if a := r.agent.Load(); a != nil && r.screen != nil {
		now := r.sup.clock.Now()
		a.evalMu.Lock()
		tr, changed := a.det.Update(r.agentInputs(a), now)
		a.evalMu.Unlock()
		if tr.State == rec.AgentState && !rec.AgentStateSince.IsZero() && rec.AgentStateSince.Before(now) {
			tr.Since = rec.AgentStateSince
		}
		if changed {
			r.agentChanged(a, tr)
			return // written with the change
		}
	}
	r.mu.Lock()
	if r.info.State == Running && rec.AgentState != r.info.AgentState {
		r.persistLocked() // the old server's state is no longer anyone's word
	}
	r.mu.Unlock()
}

// errOwnerAlive: the kept run's record belongs to an instance that is alive (it took the
// run over while no server of the keeper ran): it is that instance's to supervise.
var errOwnerAlive = errors.New("its owner is alive")

// unaccounted deals with a kept run whose record does not let this server take it
// (missing, closed, naming another pid): the keeper's word is that a server of this
// state dir started it. A root still alive is the keeper's child, so its numbers are
// pinned: its session is ended, never left running unsupervised. A root that exited
// may have been reaped already and its number reused: nothing is signalled.
func (s *Supervisor) unaccounted(k keeper.Run, why error) Decision {
	d := Decision{ID: k.ID, PID: k.PID, Decision: VerdictLost, Reason: Lost}
	closeFiles(k.Files)
	exited := false
	select {
	case <-k.Exit.Done():
		exited = true
	default:
	}
	switch {
	case errors.Is(why, errOwnerAlive):
		d.Decision, d.Reason = VerdictLeftAlone, ReasonNone
		d.Detail = fmt.Sprintf("kept by the keeper but %v: left to it", why)
	case exited:
		d.Detail = fmt.Sprintf("kept by the keeper but %v; it had exited: nothing signalled", why)
	default:
		t := reaper.Target{SID: k.PID, PTY: k.PTY, Grace: s.cfg.Grace, Sweep: s.cfg.Sweep, Poll: s.cfg.Poll}
		rep := reaper.Terminate(context.Background(), t)
		d.Decision, d.Reason = VerdictReaped, OrphanReaped
		d.Detail = fmt.Sprintf("kept by the keeper but %v; ended: %s", why, StepsText(rep.Steps))
	}
	if s.keeper != nil {
		s.keeper.Drop(k.ID)
	}
	s.reg.emit("resume", "run_id", k.ID, "pid", k.PID, "err", why.Error(), "decision", d.Decision)
	return d
}

// stealKept takes the kept run's record from its dead owner, under the registry lock.
// The record must be live and name the same root; its owner must be dead (the keeper
// saw its server end, and its instance lock says so too).
func (s *Supervisor) stealKept(k keeper.Run) (Record, error) {
	if s.reg == nil {
		return Record{}, ErrNoRegistry
	}
	var rec Record
	err := s.reg.transact(func(t tx) error {
		var err error
		rec, err = t.r.record(k.ID)
		switch {
		case err != nil:
			return err
		case rec.State == Exited:
			return fmt.Errorf("its record says it exited (%s)", rec.Reason)
		case rec.PID != k.PID && !pidBehind(rec, k.PID):
			return fmt.Errorf("its record names pid %d, the keeper %d", rec.PID, k.PID)
		case s.reg.InstanceAlive(rec.OwnerInstanceID):
			return fmt.Errorf("%w: %s", errOwnerAlive, rec.OwnerInstanceID)
		}
		if rec.PID == 0 { // the root is the keeper's child: its number is pinned
			rec.PID, rec.PGID, rec.SID, rec.State = k.PID, k.PID, k.PID, Running
			rec.Fingerprint, _ = reaper.Identify(k.PID)
		}
		prev := rec.OwnerInstanceID
		rec.OwnerInstanceID, rec.LeaseEpoch = s.reg.Instance(), rec.LeaseEpoch+1
		rec.LeaseExpiresAt = s.reg.now().Add(s.cfg.LeaseExpiry)
		rec.Adopted = false
		rec.Keeper = s.keptBy // the keeper keeps it still (a record from before records named it)
		if err := t.put(rec); err != nil {
			return err
		}
		s.reg.emit("lease-steal", "run_id", rec.ID, "from", prev, "epoch", rec.LeaseEpoch, "pid", rec.PID)
		return nil
	})
	return rec, err
}

// pidBehind reports whether rec is the record of a run kept with root pid whose pid
// had not reached it yet: a run in its cgroup is kept before its pid is written
// (commitBehindLocked), and a server that died between the two left a record that
// names the run's cgroup and no pid. The root must be a member of that cgroup.
func pidBehind(rec Record, pid int) bool {
	if rec.PID != 0 || rec.Cgroup == "" {
		return false
	}
	cg, err := recordCgroup(rec)
	if err != nil {
		return false
	}
	in, err := reaper.CgroupOf(pid)
	return err == nil && cg.Contains(in)
}

// resumedRun is the run of a stolen record, as newRun makes one.
func (s *Supervisor) resumedRun(rec Record, k keeper.Run) *run {
	ctx, cancel := context.WithCancelCause(context.Background())
	r := &run{id: rec.ID, secret: rec.Secret, spec: rec.Spec, sup: s, ctx: ctx, cancel: cancel,
		out: newOutputLog(s.cfg.OutputCap), done: make(chan struct{}), once: new(sync.Once), echo: make(chan struct{}, 1),
		again: make(chan struct{}, 1),
		epoch: rec.LeaseEpoch, escapees: rec.Escapees, shared: rec.Shared, kept: k.Exit,
		committed: Running}
	if cg, err := recordCgroup(rec); rec.Cgroup != "" && err == nil {
		r.cgroup = cg
	}
	r.info = Info{ID: rec.ID, Name: rec.Name, Kind: rec.Backend, Spec: rec.Spec, State: Running,
		PID: rec.PID, Fingerprint: rec.Fingerprint, CreatedAt: rec.CreatedAt, Cgroup: rec.Cgroup,
		StartedAt: rec.CreatedAt, LastOutputAt: rec.LastOutputAt, Escapees: len(rec.Escapees),
		Shared: len(rec.Shared), Cols: rec.Spec.Cols, Rows: rec.Spec.Rows,
		LeaseOwner: rec.OwnerInstanceID, LeaseEpoch: rec.LeaseEpoch, LeaseExpiresAt: rec.LeaseExpiresAt,
		SessionID: rec.SessionID, RestoredFrom: rec.RestoredFrom, Conversed: rec.Conversed}
	r.info.Worktree, r.info.Diff, r.info.SetupErr = rec.Worktree, rec.Diff, rec.SetupErr
	if rec.Spec.isService() { // a service goes on with its attempts; its probes start again
		r.info.Service = rec.Service
		if r.info.Service == nil {
			r.info.Service = newServiceInfo(rec.Spec)
		}
		svc := *r.info.Service
		svc.ReadyProbe, svc.AliveProbe = nil, nil
		if svc.Ready != "" {
			svc.Ready, svc.ReadySince = ReadyStarting, time.Time{} // judged again by this server
		}
		r.info.Service = &svc
	}
	if rec.Worktree != nil { // its figures are counted as before; git from this server's PATH
		wt := *rec.Worktree
		r.wt = &wt
		r.startDiffer(os.Environ())
	}
	s.logPaths(r)
	now := s.clock.Now()
	// The last output: the record's is as of the old server's last heartbeat; its
	// transcripts' times are within a fraction of a second of the output itself.
	last := rec.CreatedAt
	for _, t := range []time.Time{rec.LastOutputAt, s.lastWrite(r.info.Transcript), s.lastWrite(r.info.StderrTranscript)} {
		if t.After(last) {
			last = t
		}
	}
	silent := now.Sub(last)
	if len(k.Output[0])+len(k.Output[1]) > 0 {
		silent = 0 // it wrote while no server read
	}
	r.wd = s.newWatchdog(rec.Spec, r, now.Sub(rec.CreatedAt), silent)
	r.readopted.Store(&rec)
	if a, err := s.agentFor(rec.Spec); err == nil && a != nil {
		r.startAgent(a)
		r.restoreAgent(rec) // what its notifications said: not said again
	}
	r.watchForeground()
	return r
}

// rehost gives the resumed run its terminal back: transcripts continued, the screen
// and the log rebuilt from the transcript's end, the output the keeper read fed
// through as if just read, then the descriptors hosted again.
func (r *run) rehost(k keeper.Run) error {
	if err := r.openTranscripts(true); err != nil {
		r.sup.reg.emit("resume", "run_id", r.id, "err", err.Error())
	}
	opts := ptyhost.Options{OnOutput: r.onOutput, WriteQueue: r.sup.cfg.WriteQueue}
	if r.spec.FixedSize {
		opts.OnChildResize = r.onChildResize
	}
	cols, rows := r.spec.Cols, r.spec.Rows
	if k.PTY && len(k.Files) == 1 {
		if c, rw, err := ptyhost.WindowSize(k.Files[0]); err == nil {
			cols, rows = c, rw
		}
	}
	r.info.Cols, r.info.Rows = cols, rows
	if r.sup.screens && r.spec.PTY {
		r.screen = screen.NewScreen(int(cols), int(rows))
		r.screen.SetHistoryLimit(r.sup.cfg.ScrollbackLines)
		r.screen.SetFocus(false)
	}
	r.replay()
	for s, b := range k.Output {
		if len(b) > 0 {
			r.onOutput(ptyhost.Stream(s), b)
		}
	}
	proc, err := ptyhost.Resume(k.PID, k.Files, opts)
	if err != nil {
		closeFiles(k.Files)
		return err
	}
	r.mu.Lock()
	r.proc = proc
	if r.screen != nil {
		r.screen.SetReply(replyWriter{proc})
	}
	r.mu.Unlock()
	return nil
}

// replay rebuilds the screen (or, without one, the key modes) and the in-memory log
// from the end of the transcripts the previous server wrote; nothing is written again.
func (r *run) replay() {
	r.replayTail(replayBytes, replayBytes)
	if r.screen != nil {
		r.attn = r.screen.Attention()
		r.said, _ = r.screen.Activity()
	}
}

// pausedNow reports whether the run is paused as its old server left it: its cgroup
// frozen, or its root stopped (SIGSTOP).
func (r *run) pausedNow() bool {
	if r.cgroup != nil {
		frozen, err := r.cgroup.Frozen()
		return err == nil && frozen
	}
	p, err := reaper.ReadProc(r.info.PID)
	return err == nil && p.State == 'T'
}

// lastWrite is when a log file was last written (zero when it cannot be read).
func (s *Supervisor) lastWrite(path string) time.Time {
	if path == "" || s.logs == nil {
		return time.Time{}
	}
	f, err := s.logs.Open(filepath.Base(path), os.O_RDONLY, 0)
	if err != nil {
		return time.Time{}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return time.Time{}
	}
	return st.ModTime()
}

// replayTail rebuilds the in-memory log from the last logBytes of the run's
// transcripts, and its screen (or, without one, the key modes of a PTY run) from the
// last screenBytes of those; nothing is written again.
func (r *run) replayTail(logBytes, screenBytes int64) {
	for s, path := range [2]string{r.info.Transcript, r.info.StderrTranscript} {
		if path == "" || r.sup.logs == nil {
			continue
		}
		b, _ := r.sup.logs.Tail(filepath.Base(path), logBytes)
		if len(b) == 0 {
			continue
		}
		tail := b[max(int64(len(b))-screenBytes, 0):]
		if r.screen != nil {
			r.screen.Write(tail)
		} else if r.spec.PTY {
			r.modes.Feed(tail)
		}
		r.out.write(ptyhost.Stream(s), b)
	}
}

func closeFiles(files []*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}

// waitKept waits for a resumed run's root to exit: its keeper tells; a keeper that died
// tells nothing more, and the root, now nobody's child here, is waited for through a
// pidfd (its status unknown).
func (r *run) waitKept(e *keeper.Exit) {
	select {
	case <-e.Done():
		return
	case <-r.sup.keeper.Gone():
	}
	select {
	case <-e.Done():
	default:
		reaper.WaitGone(context.Background(), r.info.Fingerprint)
	}
}

// unpinned reports whether a resumed run's numbers are no longer held: its keeper
// died, or its root had been reaped by its old server (the keeper could not know its
// status). Then only what is provably the run's is signalled, as for an adopted run.
func (r *run) unpinned() bool {
	if r.kept == nil {
		return false
	}
	select {
	case <-r.kept.Done():
		_, known := r.kept.Status()
		return !known
	default:
	}
	select {
	case <-r.sup.keeper.Gone():
		return true
	default:
		return false
	}
}

// keptStatus is a resumed run's root's wait status, from its keeper; ok is false for
// a run this server started, or when the keeper could not know it.
func (r *run) keptStatus() (ws syscall.WaitStatus, ok bool) {
	if r.kept == nil {
		return ws, false
	}
	select {
	case <-r.kept.Done():
		return r.kept.Status()
	default:
		return ws, false
	}
}

// elapsedFor is what is left of a duration d of which elapsed has passed (at least a
// millisecond: a deadline that passed while no server watched fires at once).
func elapsedFor(d, elapsed time.Duration) time.Duration {
	if d <= 0 {
		return d
	}
	return max(d-elapsed, time.Millisecond)
}
