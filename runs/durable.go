package runs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"corral/reaper"
)

// persistLocked writes the run's record after a state move. The first write creates
// it (lease epoch 1); later ones are fenced by the epoch. Without a registry it does
// nothing. Called with r.mu held, so records are handed over in state order.
//
// It never waits for registry.lock: a cancel moves the run to exiting through here,
// and a lock held elsewhere (another Corral's `ls`, a stuck reader) must not hold the
// cancel back (issue 15 item 4). A write that finds the lock busy, or fails (a full
// disk, item 11), is handed to the run's write-behind, which retries in the
// background; while one is pending, later records queue behind it, so an older state
// never lands over a newer one.
func (r *run) persistLocked() error {
	reg := r.sup.reg
	if reg == nil || r.unrecorded {
		return nil
	}
	rec := r.recordLocked()
	if r.wb.busy {
		r.wb.pending, r.wb.light = &rec, false
		if r.wb.final != nil && rec.State == Exited {
			close(r.wb.final) // the record held back is superseded: write this one now
			r.wb.final = nil
		}
		return nil
	}
	if r.epoch != 0 && r.sup.shuttingDown.Load() {
		// A shutdown's thousand stops write their records behind, in groups (a few
		// fsyncs for all), not one fsync each on the loop that stops them; and the
		// exiting record is held back until the run's exited one replaces it (or
		// shutdownHold passes): one write per run, not two.
		final, renew := make(chan struct{}), make(chan struct{}, 1)
		r.wb.busy, r.wb.pending, r.wb.light, r.wb.final, r.wb.renew = true, &rec, false, final, renew
		r.sup.writers.Add(1)
		go func() {
			t := time.NewTimer(shutdownHold)
			defer t.Stop()
			for {
				select {
				case <-final:
				case <-t.C:
				case <-renew:
					// Its grace began, or its cleanup is done: held from then on, however
					// long a thousand other runs took to get there.
					t.Reset(shutdownHold)
					continue
				}
				break
			}
			r.writeBehind()
		}()
		return nil
	}
	err := r.putRecord(rec, r.epoch, false)
	if err == nil {
		if r.epoch == 0 {
			r.epoch = 1
		}
		return nil
	}
	if errors.Is(err, ErrLeaseLost) {
		reg.emit("registry-error", "run_id", r.id, "err", err.Error())
		return err
	}
	r.wb.busy, r.wb.pending, r.wb.light = true, &rec, false
	r.sup.writers.Add(1)
	go r.writeBehind()
	if errors.Is(err, errLocked) {
		return nil // written as soon as the lock is free
	}
	reg.emit("registry-error", "run_id", r.id, "state", r.info.State.String(), "err", err.Error(), "retry", 0)
	return err
}

// putRecord stores rec durably: a create under epoch 0, else a fenced update.
func (r *run) putRecord(rec Record, epoch uint64, block bool) error {
	return r.storeRecord(rec, epoch, block, true)
}

// storeRecord is putRecord, the fsyncs of an update optional (Registry.store).
func (r *run) storeRecord(rec Record, epoch uint64, block, durable bool) error {
	reg := r.sup.reg
	write := func() error {
		if epoch == 0 {
			return reg.createIn(rec)
		}
		return reg.updateIn(durable, r.id, epoch, func(stored *Record) {
			rec.OwnerInstanceID, rec.LeaseEpoch, rec.LeaseExpiresAt =
				stored.OwnerInstanceID, stored.LeaseEpoch, stored.LeaseExpiresAt
			*stored = rec
		})
	}
	if block { // a writer that waits joins the group of those waiting (registry_group.go)
		return reg.grouped(write)
	}
	return reg.locked(false, write)
}

// writeBehind is a run's persistence in the background: it writes the newest pending
// record, waiting for the registry lock, and retries a failed write with backoff
// (bounded: writeRetries) until it lands or a newer record replaces it. A final
// record that never lands is not left claiming a live run: see giveUp.
func (r *run) writeBehind() {
	defer r.sup.writers.Done()
	delay, failures := writeRetryDelay, 0
	for {
		r.mu.Lock()
		rec, epoch, light := r.wb.pending, r.epoch, r.wb.light
		if rec == nil {
			r.wb.busy = false
			if r.wb.closeDone {
				close(r.done)
			}
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
		err := r.storeRecord(*rec, epoch, true, !light)
		r.mu.Lock()
		if err == nil && epoch == 0 {
			r.epoch = 1
		}
		done := err == nil || errors.Is(err, ErrLeaseLost) || failures >= writeRetries
		if done && r.wb.pending == rec { // a newer record is written next, not dropped
			r.wb.pending = nil
		}
		if done { // what corral run warns of: the record on disk is not the run's
			r.info.RecordErr = ""
			if err != nil {
				r.info.RecordErr = err.Error()
			}
		}
		r.mu.Unlock()
		switch {
		case err == nil:
			if failures > 0 {
				r.sup.reg.emit("registry-recovered", "run_id", r.id, "state", rec.State.String(), "retries", failures)
			}
			delay, failures = writeRetryDelay, 0
		case errors.Is(err, ErrLeaseLost):
			r.sup.reg.emit("registry-error", "run_id", r.id, "err", err.Error())
		case done:
			r.giveUp(*rec, err)
			delay, failures = writeRetryDelay, 0
		default:
			failures++
			r.sup.reg.emit("registry-error", "run_id", r.id, "state", rec.State.String(), "err", err.Error(),
				"retry", failures)
			time.Sleep(delay) // backoff in this goroutine only: nothing waits on it
			delay = min(2*delay, writeRetryMax)
		}
	}
}

// Write-behind backoff: 50 ms doubling to 2 s, ten retries, about 11 s in all.
// Variables only so tests can shorten them.
var (
	writeRetryDelay = 50 * time.Millisecond
	writeRetryMax   = 2 * time.Second
	writeRetries    = 10
)

// giveUp ends the retries of a record that could not be written. A final record
// (exited, its session verified empty) is then removed instead: a removal needs no
// free space, and a record left saying running would be reported lost by every
// reconcile (issue 15 item 11). A run not verified empty keeps its old record, so a
// later reconcile still looks for what is left of it.
func (r *run) giveUp(rec Record, cause error) {
	reg := r.sup.reg
	if rec.State != Exited || !rec.Cleanup.VerifiedEmpty {
		reg.emit("registry-gave-up", "run_id", r.id, "state", rec.State.String(), "err", cause.Error())
		return
	}
	err := reg.remove(r.id)
	attrs := []any{"run_id", r.id, "err", cause.Error()}
	if err != nil {
		attrs = append(attrs, "remove_err", err.Error())
	}
	reg.emit("record-dropped", attrs...)
}

// waitWriters waits, within ctx, for every run's write-behind to finish.
func (s *Supervisor) waitWriters(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		s.writers.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// writeBehindState is a run's pending background write, under run.mu.
type writeBehindState struct {
	busy      bool    // a write-behind goroutine owns the run's writes
	pending   *Record // the newest record it has yet to write
	light     bool    // pending needs no fsync (commitBehindLocked's)
	closeDone bool    // the run has exited: close done once the last write is over
	// final, while a shutdown holds the run's record back, is closed when the record
	// that replaces it is the exited one; renew (holdLocked) holds it shutdownHold
	// more from now.
	final chan struct{}
	renew chan struct{}
}

// holdLocked renews a shutdown's hold of the run's exiting record: its grace begins
// now, or its cleanup is done and its exited record is near.
func (r *run) holdLocked() {
	if r.wb.final == nil {
		return // not held (any more)
	}
	select {
	case r.wb.renew <- struct{}{}:
	default:
	}
}

// shutdownHold bounds how long a shutdown holds a run's exiting record back, waiting
// for the exited record to replace it: a program that takes its grace has its exiting
// record written meanwhile. A variable: a test on a loaded machine holds longer.
var shutdownHold = time.Second

// doneLocked marks the run ended (closes done) once its final record is written or
// given up: Wait returning means the record on disk says how the run ended.
func (r *run) doneLocked() {
	if r.wb.busy {
		r.wb.closeDone = true
		return
	}
	close(r.done)
}

// commitRunning creates the run's record in state running, before the run moves
// there (DESIGN §2: running only after the registry commit); a run in its cgroup
// has one already (commitCgroup), and commitBehindLocked adds its pid. Called
// without r.mu: it waits for registry.lock, and a cancel must not wait behind it.
func (r *run) commitRunning(rec Record, epoch uint64) error {
	reg := r.sup.reg
	if reg == nil {
		return nil
	}
	rec.State = Running
	if err := r.putRecord(rec, epoch, true); err != nil {
		reg.emit("registry-error", "run_id", r.id, "err", err.Error())
		return err
	}
	return nil
}

// commitBehindLocked is commitRunning for a run that started in its cgroup: its
// running record (the pid) goes to the write-behind, not fsynced, instead of being
// waited for on the spawn's path. commitCgroup made the record naming its cgroup
// durable before the fork, which is all a reconcile needs of a Corral killed before
// this write lands (a record without a pid is alive while its cgroup is populated, and
// reaped, never adopted). Waited for, the write took registry.lock, read, wrote and
// renamed the record: 0.6–0.9 ms of a 3 ms spawn → running here. Later records queue
// behind it, so it never lands over a newer state.
func (r *run) commitBehindLocked(rec Record) {
	rec.State = Running
	r.committedLocked()
	r.wb.pending, r.wb.light = &rec, true
	if !r.wb.busy {
		r.wb.busy = true
		r.sup.writers.Add(1)
		go r.writeBehind()
	}
}

// persistLightLocked writes the run's record behind, without the fsyncs: for what
// only shows (an agent's state's rule), so that corral ls reads what Info says
// without a durable write on the reader's path. A durable write still pending stays
// durable, with this record.
func (r *run) persistLightLocked() {
	if r.sup.reg == nil || r.unrecorded || r.epoch == 0 {
		return
	}
	rec := r.recordLocked()
	light := r.wb.pending == nil || r.wb.light
	r.wb.pending, r.wb.light = &rec, light
	if !r.wb.busy {
		r.wb.busy = true
		r.sup.writers.Add(1)
		go r.writeBehind()
	}
}

// commitCgroup stores the record of a run about to start in its cgroup, naming the
// cgroup, before anything runs in it. A Corral killed after the fork then leaves a
// cgroup its record names, which a reconcile empties (reconcile.go, liveness), so the
// run needs no spawn hold: a held child is this binary started whole before it can
// exec the program (about 2 ms here, the larger part of spawn → running). A record
// that cannot be written fails the spawn, as commitStart's does.
func (r *run) commitCgroup() error {
	r.mu.Lock()
	rec, epoch := r.recordLocked(), r.epoch
	r.mu.Unlock()
	store := r.sup.reg.create
	if epoch > 0 { // a service's later attempt: its record exists, fenced by its epoch
		store = func(rec Record) error { return r.putRecord(rec, epoch, true) }
	}
	if err := store(rec); err != nil {
		r.sup.reg.emit("registry-error", "run_id", r.id, "err", err.Error())
		r.mu.Lock()
		r.unrecorded = true
		r.info.RecordErr = err.Error()
		r.mu.Unlock()
		return fmt.Errorf("%w: %w", ErrRegistry, err)
	}
	r.mu.Lock()
	r.epoch = max(r.epoch, 1) // a run taken over from a server before keeps its stolen epoch
	r.mu.Unlock()
	return nil
}

// committedLocked notes that commitRunning stored the record.
func (r *run) committedLocked() {
	if reg := r.sup.reg; reg != nil {
		// A service's later attempt, or a waiting run, taken over from a server
		// before keeps the epoch it was stolen with: its record is fenced by it.
		r.epoch, r.committed = max(r.epoch, 1), Running
		r.info.LeaseOwner, r.info.LeaseEpoch = reg.Instance(), r.epoch
		r.info.LeaseExpiresAt = reg.now().Add(r.sup.cfg.LeaseExpiry)
	}
}

// recordLocked is the run's durable record as of now.
func (r *run) recordLocked() Record {
	i := r.info
	rec := Record{
		ID: i.ID, Secret: r.secret, Name: i.Name, Backend: i.Kind, Spec: r.spec,
		PID: i.PID, PGID: i.PID, SID: i.PID, Fingerprint: i.Fingerprint,
		State: i.State, Reason: i.Reason, ExitCode: i.ExitCode, Signal: i.Signal,
		CreatedAt: i.CreatedAt, LastOutputAt: r.outputSavedLocked(),
		CleanupMode: cleanupMode(i), Cgroup: i.Cgroup, Cleanup: i.Cleanup, Adopted: i.Adopted,
		Escapees: r.escapees, Shared: r.shared, Detail: i.SpawnErr,
		AgentStatus: i.AgentStatus, AgentMode: i.AgentMode, AgentBy: i.AgentBy,
		Worktree: i.Worktree, Diff: i.Diff, SetupErr: i.SetupErr,
		SessionID: i.SessionID, RestoredFrom: i.RestoredFrom, RestoredBy: i.RestoredBy, Conversed: i.Conversed,
	}
	rec.Finished, rec.Service = i.Finished, i.Service
	rec.WaitingFor, rec.DependencyErr, rec.StaleDeps = i.WaitingFor, i.DependencyErr, r.stale
	if rec.PID == 0 {
		rec.BootID = thisBoot()
	}
	if !i.Adopted { // an adopted run was never handed to the keeper
		rec.Keeper = r.sup.keptBy
	}
	if a := r.agent.Load(); a != nil {
		rec.AgentEpisode, rec.AgentNotified, rec.AgentHeld = a.notes.kept()
	}
	for _, l := range []string{i.Transcript, i.StderrTranscript, i.Cast} {
		if l != "" {
			rec.Logs = append(rec.Logs, l)
		}
	}
	return rec
}

// logEvent writes a lifecycle event to events.jsonl (no-op without a registry).
func (s *Supervisor) logEvent(e Event) {
	if s.reg == nil || e.Type == EventOutput || e.Type == EventWatchdog || e.Type == EventDiff {
		return
	}
	attrs := []any{"run_id", e.Run.ID, "name", e.Run.Name, "state", e.Run.State.String(), "seq", e.Run.Seq}
	if e.Detail != "" {
		attrs = append(attrs, "detail", e.Detail)
	}
	if e.Run.PID != 0 {
		attrs = append(attrs, "pid", e.Run.PID)
	}
	if e.Type == EventAgent {
		attrs = append(attrs, "agent", e.Run.Agent, "agent_state", e.Run.AgentState.String(), "agent_rule", e.Run.AgentRule)
	}
	if e.Type == EventExit {
		attrs = append(attrs, "reason", e.Run.Reason.String(), "killed", e.Run.Cleanup.Killed)
		if e.Run.ExitCode != nil {
			attrs = append(attrs, "exit_code", *e.Run.ExitCode)
		}
	}
	s.reg.emit(string(e.Type), attrs...)
}

// stepLogger records each escalation step as it is performed.
func (s *Supervisor) stepLogger(id string) func(reaper.Step, int) {
	return func(st reaper.Step, n int) {
		s.reg.emit("escalation", "run_id", id, "step", string(st), "processes", n)
	}
}

func (s *Supervisor) countCleanup(rep reaper.Report) {
	s.counters.do(func(m *Metrics) {
		m.CleanupKillTotal["term"] += int64(rep.Killed - rep.Hard)
		m.CleanupKillTotal["kill"] += int64(rep.Hard)
	})
}

func (s *Supervisor) countExit(reason Reason) {
	s.counters.do(func(m *Metrics) {
		m.ExitTotal[reason.String()]++
		switch reason {
		case OverallTimeout:
			m.TimeoutTotal["overall"]++
		case NoOutputTimeout:
			m.TimeoutTotal["no-output"]++
		}
	})
}

// Metrics returns this supervisor's counters.
func (s *Supervisor) Metrics() Metrics { return s.counters.snapshot() }

// Registry is the supervisor's registry, or nil.
func (s *Supervisor) Registry() *Registry { return s.reg }

// background runs the lease heartbeat (and, when enabled, the escape scan) until
// Close. One goroutine: both are short and neither may overlap itself.
func (s *Supervisor) background(ctx context.Context) {
	beat := time.NewTimer(s.cfg.LeaseHeartbeat)
	defer beat.Stop()
	var scan <-chan time.Time
	chld := make(chan os.Signal, 1)
	switch {
	case s.escapes != nil && s.escapes.contained: // reap orphans as children end
		defer notifyChildExits(chld)()
		// and look for what left a run's cgroup on the heartbeat's ticks the pacer finds
		// due: only a move out of the cgroup (root's, rare) is looked for, and a timer of
		// its own, twice a second, tripled an idle server's CPU (0.03 % → 0.1 %).
	case s.escapes != nil:
		t := time.NewTicker(s.cfg.EscapeScan)
		defer t.Stop()
		scan = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-beat.C:
			s.heartbeat()
			if s.escapes != nil && s.escapes.contained {
				s.escapes.tick()
			}
			beat.Reset(s.nextBeat())
		case <-scan:
			s.escapes.tick()
		case <-chld:
			if !s.shuttingDown.Load() { // a shutdown's thousand exits: its runs reap their own, then it reaps the rest once
				s.escapes.reapOrphans()
			}
		}
	}
}

// nextBeat is how long the heartbeat sleeps: until its lease is due for renewal (half
// of it left, and a millisecond, so the tick renews it), at least LeaseHeartbeat (a
// failed renewal is tried again then) and at most half a lease. With the defaults an
// idle server wakes every 5 s, renewing at each wake with 5 s of its 10 s lease left,
// where a fixed 2 s tick woke five times per two renewals (at 4 s left). What a beat
// does besides has work only when something ran: the output events (one per run per
// beat at most) and the counters; the cgroup backend's escape look, which rides the
// beat, finds a process a root moved out of an idle run's cgroup at the next wake,
// 5 s at most (the move changes no file the kernel notifies of: cgroup.events says
// only populated and frozen, which such a move need not change), or at the run's end.
func (s *Supervisor) nextBeat() time.Duration {
	s.beatMu.Lock()
	defer s.beatMu.Unlock()
	d := s.cfg.LeaseHeartbeat
	if s.reg == nil || s.leaseErr || s.leased.IsZero() {
		return d
	}
	half := s.cfg.LeaseExpiry/2 + time.Millisecond
	due := s.leased.Round(0).Sub(s.reg.now().Round(0)) - half + 2*time.Millisecond
	return min(max(d, due), max(d, half))
}

// heartbeat renews this instance's lease and persists its counters.
//
// The lease — every run's at once, instances/<id>.lease (registry_lease.go) — is
// renewed only once less than half of it is left (with the defaults, a 2 s tick and a
// 10 s lease: every third tick, at 3–5 s left), not on every tick; a steal needs the
// lease expired *and* this instance's lock free, so while Corral lives the margin only
// has to cover a stalled tick, and half a lease is 2.5 ticks of it. With it, the
// records of runs that printed since their record was last written get the time of
// their last output; a quiet run's record is not rewritten at all.
func (s *Supervisor) heartbeat() {
	if s.reg == nil {
		return
	}
	s.beatMu.Lock()
	defer s.beatMu.Unlock()
	live := s.liveRuns()
	for _, r := range live {
		r.outputHeartbeat()
	}
	// Wall clock (Round(0) drops the monotonic reading): the lease's expiry is
	// wall-clock time, and after a suspend the monotonic clock lags it.
	if s.leased.Round(0).Sub(s.reg.now().Round(0)) < s.cfg.LeaseExpiry/2 {
		s.renew(live)
	}
	s.reg.saveMetrics(s.counters.snapshot()) // best effort: counters are not records
	s.beats.fire()
}

// renew renews this instance's lease, shows the new expiry on its runs, and writes the
// last output time of those that printed since their record was written.
func (s *Supervisor) renew(runs []*run) {
	until, err := s.reg.renewInstance()
	if err != nil {
		// Once, not on every tick that retries it: a full disk would otherwise fill
		// the log with the same line (if it can be written at all). The lease file
		// says it too, for corral ls, as far as it can be written.
		if !s.leaseErr {
			s.leaseErr = true
			s.reg.emit("lease-not-renewed", "err", err.Error())
			s.reg.noteLeaseFailure(err)
		}
		noteNotRenewed(runs, err.Error()) // every try: a run started since has it too
		return
	}
	if s.leaseErr {
		s.leaseErr = false
		s.reg.emit("lease-renewed", "until", until)
		noteNotRenewed(runs, "")
	}
	s.leased = until
	printed := map[string]heartbeatRun{}
	for _, r := range runs {
		r.mu.Lock()
		if r.epoch > 0 {
			r.info.LeaseExpiresAt = until // shown live; not an event of its own
			if out := r.wd.State().LastOutput; out.After(r.outputSaved) {
				printed[r.id] = heartbeatRun{epoch: r.epoch, lastOutput: out}
			}
		}
		r.mu.Unlock()
	}
	if len(printed) == 0 {
		return
	}
	written, lost, err := s.reg.heartbeat(printed, until)
	for _, r := range runs {
		if slices.Contains(written, r.id) {
			r.mu.Lock()
			if out := printed[r.id].lastOutput; out.After(r.outputSaved) {
				r.outputSaved = out
			}
			r.mu.Unlock()
		}
	}
	if err != nil {
		s.reg.emit("registry-error", "err", err.Error())
	}
	for _, id := range lost {
		s.reg.emit("lease-lost", "run_id", id)
	}
}

// noteNotRenewed shows on each run why its lease was not renewed ("": it was again),
// for the details pane. Not an event of its own, as the lease's expiry is not: a
// viewer's snapshot carries the runs it looks at.
func noteNotRenewed(runs []*run, why string) {
	for _, r := range runs {
		r.mu.Lock()
		if r.epoch > 0 {
			r.info.LeaseNotRenewed = why
		}
		r.mu.Unlock()
	}
}

// outputSavedLocked is the run's last output time, as the record being built will
// say it.
func (r *run) outputSavedLocked() time.Time {
	if out := r.wd.State().LastOutput; out.After(r.outputSaved) {
		r.outputSaved = out
	}
	return r.outputSaved
}

// liveRuns returns the runs not yet exited.
func (s *Supervisor) liveRuns() []*run {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*run
	for _, r := range s.runs {
		select {
		case <-r.done:
		default:
			out = append(out, r)
		}
	}
	return out
}

// outputHeartbeat logs how much a run printed since the last heartbeat: one event per
// run per lease interval at most, so a chatty run cannot flood events.jsonl.
func (r *run) outputHeartbeat() {
	total := r.out.total()
	if prev := r.outLogged.Swap(total); total > prev {
		r.sup.reg.emit("output", "run_id", r.id, "bytes", total-prev, "total", total)
	}
}
