package runs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"corral/runs/internal/statefile"
)

// persistLocked writes the run's record after a state move. The first write creates
// it (lease epoch 1); later ones are fenced by the epoch. Without a registry it does
// nothing. Called with r.mu held, so records are handed over in state order.
//
// It never waits for registry.lock: a cancel moves the run to exiting through here,
// and a lock held elsewhere (another Corral's `ls`, a stuck reader) must not hold the
// cancel back. A write that finds the lock busy, or fails (a full disk), is handed to the run's write-behind, which retries in the
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
		// shutdownHold passes): one write per run, not two (writeBehind holds it).
		r.wb.busy, r.wb.pending, r.wb.light = true, &rec, false
		r.sup.writers.Add(1)
		go r.writeBehind()
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
	if errors.Is(err, statefile.ErrLocked) {
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
	held := false // a shutdown's exiting record was held back once
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
		if !held && epoch != 0 && rec.State != Exited && r.sup.shuttingDown.Load() {
			// Held whether this writer started for it or was already busy with an
			// earlier record when the shutdown's came: either way its exited record is
			// near, and replaces it.
			held = true
			final, renew := make(chan struct{}), make(chan struct{}, 1)
			r.wb.final, r.wb.renew = final, renew
			r.mu.Unlock()
			holdBack(final, renew)
			r.mu.Lock()
			if r.wb.final == final {
				r.wb.final = nil
			}
			r.mu.Unlock()
			continue // the newest record now: the exited one, or this one
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
// reconcile. A run not verified empty keeps its old record, so a
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

// holdBack waits until the record held back is superseded (final closed), or
// shutdownHold has passed since the hold began or was last renewed.
func holdBack(final, renew <-chan struct{}) {
	t := time.NewTimer(shutdownHold)
	defer t.Stop()
	for {
		select {
		case <-final:
			return
		case <-t.C:
			return
		case <-renew:
			// Its grace began, or its cleanup is done: held from then on, however long
			// a thousand other runs took to get there.
			t.Reset(shutdownHold)
		}
	}
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
// there (a run is running only once the registry holds it: a Corral killed after
// the spawn leaves a record a reconcile finds, never a process no record names); a
// run in its cgroup has one already (commitCgroup), and commitBehindLocked adds its
// pid. Called without r.mu: it waits for registry.lock, and a cancel must not wait behind it.
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
