package runs

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/runs/internal/statefile"
)

// Runs without a process outlive their server too. A run waiting for its
// dependencies, and a service between two attempts (restarting, its backoff armed),
// have no process for the keeper to keep: what they are is their record — state
// starting with the conditions it waits for (waiting_for), or restarting with its
// attempts, its restart budget and when the next attempt starts (service). The
// state dir's server takes such records of a dead owner over as it starts
// (TakeBack) and whenever a reconcile finds one later: the wait is entered again
// and the run starts when its conditions hold, or ends dependency-failed when one
// never can; the backoff goes on for what is left of it, at once if it is due. The
// record is stolen first (a new lease epoch, under the registry lock), so one server
// at most ever takes it, and the old one, handed over or dead, starts nothing.
// Other Corrals (corral run, corral reconcile, an in-process UI) leave such records
// alone: a one-shot process cannot wait for a dependency on the server's behalf.

// WithTakeBack makes the supervisor take over the runs a dead owner of this state dir
// left without a process (the state dir's server).
func WithTakeBack() Option { return func(s *Supervisor) { s.takeBack = true } }

// takeable says rec is a run with no process (processless) written during this
// boot: a server goes on with it.
func takeable(rec Record) bool {
	return processless(rec) && (rec.BootID == thisBoot() || rec.BootID == "" && thisBoot() == "")
}

// thisBoot is the system's boot id ("" where it has none).
var thisBoot = sync.OnceValue(func() string {
	id, _ := reaper.BootID()
	return id
})

// processless says rec is a live run with no process: waiting for its
// dependencies, or restarting between two attempts (the last verified empty: only
// such an end moves a run to restarting).
func processless(rec Record) bool {
	switch rec.State {
	case Restarting:
		return true
	case Starting:
		return len(rec.WaitingFor) > 0 && rec.PID == 0 && rec.Cgroup == ""
	}
	return false
}

// DetailTakenBack is EventSpawn's detail for a run without a process taken over from
// a server before this one: still waiting, or still between two attempts.
const DetailTakenBack = "taken back"

// TakeBack takes over the processless runs (processless) of this state dir's dead
// instances and returns how many. Call it after TakeEnded, so that the waits find
// the dependencies that ended, and before any client is served, so that nothing
// spawns a run of the same name beside one about to be taken.
func (s *Supervisor) TakeBack() int {
	if s.reg == nil || !s.takeBack {
		return 0
	}
	var stolen []Record
	err := s.reg.transact(func(t tx) error {
		recs, err := t.records()
		if err != nil {
			return err
		}
		view := newProcView(s.reg.identity)
		for _, rec := range recs {
			if !takeable(rec) || rec.OwnerInstanceID == s.reg.Instance() || s.reg.foreignRecord(rec) != "" ||
				view.instanceAlive(s.reg, rec.OwnerInstanceID) || s.keptByLiveKeeper(rec, view) != "" || s.has(rec.ID) {
				continue
			}
			if s.stealIdle(t, &rec) == nil {
				stolen = append(stolen, rec)
			}
		}
		return nil
	})
	if err != nil {
		s.reg.emit("registry-error", "err", err.Error())
	}
	for _, rec := range stolen {
		s.takeUp(rec)
	}
	return len(stolen)
}

// stealIdle takes a processless record from its dead owner under the registry lock:
// a new lease epoch, written before the run is taken up.
func (s *Supervisor) stealIdle(t tx, rec *Record) error {
	prev := rec.OwnerInstanceID
	rec.OwnerInstanceID, rec.LeaseEpoch = s.reg.Instance(), rec.LeaseEpoch+1
	rec.LeaseExpiresAt = s.reg.now().Add(s.cfg.LeaseExpiry)
	rec.Adopted, rec.Keeper = false, s.keptBy
	// Not fsynced (the directory is, once, as the lock is released): no signal follows
	// this steal, one server at a time holds the state dir, and after an OS crash the
	// record is of another boot, never taken (takeable). Twenty waiting runs took
	// 30–200 ms to steal with an fsync each, before the server served anyone.
	if err := t.r.store(*rec, false); err != nil {
		s.reg.emit("registry-error", "run_id", rec.ID, "err", err.Error())
		return err
	}
	t.r.dirty = true
	s.reg.emit("lease-steal", "run_id", rec.ID, "from", prev, "epoch", rec.LeaseEpoch, "pid", 0)
	s.counters.do(func(m *Metrics) { m.LeaseStealTotal++ })
	return nil
}

// takeUp makes a stolen processless record a run of this supervisor and goes on
// where its owner was: the wait, or the backoff. A supervisor shutting down takes
// nothing (the record, stolen, is taken by the next server).
func (s *Supervisor) takeUp(rec Record) Decision {
	d := Decision{ID: rec.ID, Name: rec.Name, Decision: VerdictAdopted}
	r := s.idleRun(rec)
	s.mu.Lock()
	if s.closed || s.runs[r.id] != nil {
		s.mu.Unlock()
		d.Decision, d.Detail = VerdictLeftAlone, "not taken back: this server is stopping"
		return d
	}
	s.runs[r.id] = r
	s.order = append(s.order, r.id)
	s.sortOrderLocked()
	s.mu.Unlock()
	r.change(EventSpawn, DetailTakenBack, nil)
	s.reg.emit("take-back", "run_id", r.id, "state", rec.State.String(), "epoch", rec.LeaseEpoch)
	r.mu.Lock()
	if r.info.State == Restarting {
		delay := time.Duration(0)
		if r.info.Service != nil {
			delay = r.info.Service.NextAt.Sub(s.clock.Now())
		}
		d.Detail = fmt.Sprintf("taken back restarting: attempt %d in %s", r.info.Service.attempt()+1,
			max(delay, 0).Round(time.Millisecond))
		if delay <= 0 { // due while no server ran: at once
			go r.relaunch()
		} else {
			r.backoff = s.clock.AfterFunc(delay, r.relaunch)
		}
		r.mu.Unlock()
		return d
	}
	shown := r.info.WaitingFor // as its record says: written again only when it changes
	r.mu.Unlock()
	d.Detail = "taken back waiting for " + waitingText(shown)
	if done, _ := r.depStep(r.stale, &shown); !done {
		go r.awaitDeps(r.stale, shown)
	}
	return d
}

// has reports whether the supervisor has run id.
func (s *Supervisor) has(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.runs[id] != nil
}

// idleRun is the run of a processless record, as newRun makes one, with what the
// record kept: its identity, spec, conditions, and a service's attempts and budget.
func (s *Supervisor) idleRun(rec Record) *run {
	ctx, cancel := context.WithCancelCause(context.Background())
	r := &run{id: rec.ID, secret: rec.Secret, spec: rec.Spec, sup: s, ctx: ctx, cancel: cancel,
		out: newOutputLog(s.cfg.OutputCap), done: make(chan struct{}), once: new(sync.Once), echo: make(chan struct{}, 1),
		again: make(chan struct{}, 1), epoch: rec.LeaseEpoch, escapees: rec.Escapees, shared: rec.Shared, stale: rec.StaleDeps}
	r.info = Info{ID: rec.ID, Name: rec.Name, Kind: rec.Backend, Spec: rec.Spec, State: rec.State,
		Cols: rec.Spec.Cols, Rows: rec.Spec.Rows, CreatedAt: rec.CreatedAt, LastOutputAt: rec.LastOutputAt,
		LeaseOwner: rec.OwnerInstanceID, LeaseEpoch: rec.LeaseEpoch, LeaseExpiresAt: rec.LeaseExpiresAt,
		SessionID: rec.SessionID, RestoredFrom: rec.RestoredFrom, WaitingFor: rec.WaitingFor, Conversed: rec.Conversed}
	r.info.Worktree, r.info.Diff, r.info.SetupErr = rec.Worktree, rec.Diff, rec.SetupErr
	if rec.State == Restarting { // the last attempt's end, as a run between two attempts shows it
		r.info.Reason, r.info.ExitCode, r.info.Signal, r.info.Cleanup = rec.Reason, rec.ExitCode, rec.Signal, rec.Cleanup
		r.info.Cgroup, r.info.EndedAt = rec.Cgroup, rec.UpdatedAt
	}
	if rec.Spec.isService() || rec.Service != nil {
		svc := ServiceInfo{}
		if rec.Service != nil {
			svc = *rec.Service
		} else {
			svc = *newServiceInfo(rec.Spec)
		}
		svc.ReadyProbe, svc.AliveProbe = nil, nil
		if svc.Ready != "" {
			svc.Ready, svc.ReadySince = ReadyStarting, time.Time{}
		}
		r.info.Service = &svc
	}
	if rec.Worktree != nil {
		wt := *rec.Worktree
		r.wt = &wt
		r.startDiffer(gitEnvOf(rec.Spec))
		// A waiting run never started: the setup steps of the worktree made for it
		// are still to run, before its program, as they would have under its server.
		ws := rec.Spec.Worktree
		r.runSetup = rec.State == Starting && ws != nil && ws.Use == nil && len(ws.Setup) > 0
	}
	s.logPaths(r)
	r.wd = s.newWatchdog(rec.Spec, r, 0, 0)
	if s.screens && rec.Spec.PTY {
		r.screen = screen.NewScreen(int(max(rec.Spec.Cols, 1)), int(max(rec.Spec.Rows, 1)))
		r.screen.SetHistoryLimit(s.cfg.ScrollbackLines)
		r.screen.SetFocus(false)
	}
	if rec.State == Restarting { // its earlier attempts' output, which the next continues
		r.replayTail(endedReplayBytes, endedScreenBytes)
	}
	if a, err := s.agentFor(rec.Spec); err == nil && a != nil {
		r.startAgent(a)
	}
	r.watchForeground()
	cp := r.info
	r.latest.Store(&cp)
	return r
}

// listClosed lists, as ended runs, those a reconcile just closed (lost, reaped) that
// this supervisor does not have: a run waiting for one of them then sees it ended —
// its condition may never hold now — instead of waiting for a run of that name
// forever.
func (s *Supervisor) listClosed(ds []Decision) {
	waited := s.waitedNames()
	var taken []*run
	for _, d := range ds {
		// Waited for by name (a config's, --depends-on NAME) or by id (--depends-on ID).
		if (d.Decision != VerdictLost && d.Decision != VerdictReaped) || !waited[d.Name] && !waited[d.ID] || s.has(d.ID) {
			continue
		}
		if rec, err := s.reg.record(d.ID); err == nil && rec.State == Exited && s.reg.foreignRecord(rec) == "" {
			taken = append(taken, s.endedRun(rec))
		}
	}
	if len(taken) == 0 {
		return
	}
	s.mu.Lock()
	for _, r := range taken {
		if s.runs[r.id] == nil && !s.closed {
			s.runs[r.id] = r
			s.order = append(s.order, r.id)
		}
	}
	s.sortOrderLocked()
	s.mu.Unlock()
	s.deps.poke()
}

// waitedNames are the names the runs waiting for their dependencies wait for (a
// run's id, for a dependency named by it).
func (s *Supervisor) waitedNames() map[string]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]bool{}
	for _, r := range s.runs {
		if i := r.latest.Load(); i != nil && i.Waiting() {
			for _, d := range i.WaitingFor {
				out[d.Name] = true
			}
		}
	}
	return out
}

// idleWhat is what a processless record is doing, in a few words.
func idleWhat(rec Record) string {
	if rec.State == Restarting {
		return "restarting"
	}
	return "waiting for " + waitingText(rec.WaitingFor)
}

// Pending reports whether state dir dir holds a run without a process (waiting for
// its dependencies, between two attempts) that the server of the keeper with pid
// keeper left: the keeper starts a next server for it, as for a run it keeps, so
// that its wait or its backoff goes on. Only the records are read.
func Pending(dir string, keeper int) bool {
	root, err := statefile.Open(dir)
	if err != nil {
		return false
	}
	defer root.Close()
	// Only looked at, never made: the keeper asks as its server ends, when a state dir
	// being removed must not have its runs dir made again.
	d, err := root.Subdir("runs")
	if err != nil {
		return false
	}
	defer d.Close()
	names, _ := d.Names()
	var batch map[string]batchEntry
	if slices.Contains(names, batchName) {
		batch = readBatch(d) // a shutdown's final records not yet in their files
	}
	for _, name := range names {
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		rec, err := readRecord(d, name)
		if e, ok := batch[name]; ok && err == nil && overlays(e, rec) {
			rec = e.rec
		}
		if err == nil && takeable(rec) && rec.Keeper != nil && rec.Keeper.PID == keeper {
			return true
		}
	}
	return false
}
