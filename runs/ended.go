package runs

import (
	"context"
	"slices"
	"strings"
	"sync"

	"corral/ptyhost/screen"
)

// Ended runs outlive their server too: a server that died (kill -9, a crash) or
// handed its runs over (an upgrade) leaves the records of the runs that had ended
// under it, and the server after it lists them again, as they ended — state, reason,
// exit code, cleanup, the end of their output — so an attached UI keeps their rows
// and corral info and corral wait still answer for them. A server takes, as it
// starts, those corral ls lists: written less than the finished-run TTL (config
// finished_ttl, 30 minutes by default) ago. Nothing piles up: a reconcile removes
// the records older than that, the user's remove (x, corral remove) removes one at
// once, and a server that keeps running keeps its ended runs until removed, as it
// always did.

// How much of an ended run's transcript rebuilds its output log (which keeps its
// OutputCap of it), and of that its last screen: enough for a screen, without
// emulating a megabyte for each of many ended runs before the server answers (20
// ended runs of 200 KB each took 145 ms emulated whole).
const (
	endedReplayBytes = 256 << 10
	endedScreenBytes = 64 << 10
)

// TakeEnded lists again the ended runs of this state dir's instances that are gone,
// from their records (those past the finished-run TTL are left to a reconcile to
// remove), and puts every run the supervisor has in the order the runs were created:
// the runs taken back from the keeper come in its order, which is no order at all.
// It returns how many ended runs it took. Call it before any UI is served.
func (s *Supervisor) TakeEnded() int {
	if s.reg == nil {
		return 0
	}
	recs, err := s.reg.List()
	if err != nil {
		s.reg.emit("registry-error", "err", err.Error())
	}
	return s.takeEnded(recs)
}

// takeEnded is TakeEnded of the records recs, which it keeps (the runs it makes hold
// their slices): not the records cache's.
func (s *Supervisor) takeEnded(recs []Record) int {
	now := s.reg.now()
	alive := map[string]bool{}
	var taken []*run
	for _, rec := range recs {
		if rec.State != Exited || now.Sub(rec.UpdatedAt) > s.cfg.FinishedTTL {
			continue
		}
		owner := rec.OwnerInstanceID
		if owner == s.reg.Instance() {
			continue
		}
		live, ok := alive[owner]
		if !ok {
			live = s.reg.InstanceAlive(owner)
			alive[owner] = live
		}
		if live { // another Corral's (corral run, a local UI): it lists it itself
			continue
		}
		taken = append(taken, s.endedRun(rec))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range taken {
		if _, ok := s.runs[r.id]; ok {
			continue
		}
		s.runs[r.id] = r
		s.order = append(s.order, r.id)
		n++
	}
	s.sortOrderLocked()
	return n
}

// sortOrderLocked puts s.order in the order the runs were created (their records'
// created_at, which a run keeps across servers), ties by id.
func (s *Supervisor) sortOrderLocked() {
	// CreatedAt is set when a run is made, before it is listed, and never changed.
	slices.SortStableFunc(s.order, func(a, b string) int {
		if c := s.runs[a].info.CreatedAt.Compare(s.runs[b].info.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
}

// endedRun is the run of an exited record: ended, with nothing to end, write or
// persist; its output log and its screen rebuilt from the end of its transcript.
func (s *Supervisor) endedRun(rec Record) *run {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(nil)
	r := &run{id: rec.ID, secret: rec.Secret, spec: rec.Spec, sup: s, ctx: ctx, cancel: cancel,
		out: newOutputLog(s.cfg.OutputCap), done: make(chan struct{}), once: new(sync.Once), echo: make(chan struct{}, 1),
		epoch: rec.LeaseEpoch, escapees: rec.Escapees, shared: rec.Shared, committed: Exited}
	close(r.done)
	r.info = Info{ID: rec.ID, Name: rec.Name, Kind: rec.Backend, Spec: rec.Spec, State: Exited, Seq: 1,
		Reason: rec.Reason, ExitCode: rec.ExitCode, Signal: rec.Signal,
		PID: rec.PID, Fingerprint: rec.Fingerprint, Adopted: rec.Adopted, Escapees: len(rec.Escapees),
		Shared: len(rec.Shared), Cgroup: rec.Cgroup, Cols: rec.Spec.Cols, Rows: rec.Spec.Rows,
		CreatedAt: rec.CreatedAt, EndedAt: rec.UpdatedAt, LastOutputAt: rec.LastOutputAt,
		AgentStatus: rec.AgentStatus, LeaseOwner: rec.OwnerInstanceID, LeaseEpoch: rec.LeaseEpoch, LeaseExpiresAt: rec.LeaseExpiresAt,
		Cleanup: rec.Cleanup, SessionID: rec.SessionID, RestoredFrom: rec.RestoredFrom, RestoredBy: rec.RestoredBy, Service: rec.Service}
	r.info.Finished, r.info.DependencyErr, r.info.Conversed = rec.Finished, rec.DependencyErr, rec.Conversed
	if rec.PID != 0 { // it started (a spawn error never did); the record keeps no start time
		r.info.StartedAt = rec.CreatedAt
	}
	r.info.Worktree, r.info.Diff, r.info.SetupErr = rec.Worktree, rec.Diff, rec.SetupErr
	if rec.Reason == SpawnError {
		r.info.SpawnErr = rec.Detail
	}
	s.logPaths(r)
	r.wd = s.newWatchdog(rec.Spec, r, 0, 0)
	r.wd.Stop()
	if s.screens && rec.Spec.PTY {
		r.screen = screen.NewScreen(int(max(rec.Spec.Cols, 1)), int(max(rec.Spec.Rows, 1)))
		r.screen.SetHistoryLimit(s.cfg.ScrollbackLines)
		r.screen.SetFocus(false)
	}
	r.replayTail(endedReplayBytes, endedScreenBytes) // the screen from its last part only
	cp := r.info
	r.latest.Store(&cp)
	return r
}
