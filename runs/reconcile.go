package runs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"corral/reaper"
	"corral/runs/agentstate"
	"corral/runs/keeper"
	"corral/watchdog"
)

// Policy is what reconciliation does with a live run whose owner died.
type Policy string

const (
	PolicyTerminate Policy = "terminate" // end it: reason orphan-reaped
	PolicyAdopt     Policy = "adopt"     // take it over: observe and allow cancel, no terminal I/O
)

// Decision is one reconciliation outcome, one per non-exited record.
type Decision struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Decision Verdict `json:"decision"`
	PID      int     `json:"pid"`
	Reason   Reason  `json:"reason"` // the reason the record was closed with, if it was
	Detail   string  `json:"detail"`
	// RetryAt is when the lease of a run left alone only because it had not expired
	// yet (its owner is dead) expires: the run will be reconciled again then.
	RetryAt time.Time `json:"retry_at,omitzero"`
	// Keeper is the pid of the live keeper a run was left to (reconcile_keeper.go):
	// its server is down, and its next one takes the run back.
	Keeper int `json:"keeper,omitempty"`
}

// Verdict is what a reconcile decided about one run.
type Verdict string

// The verdicts, as JSON and the UI write them.
const (
	VerdictLost      Verdict = "lost"          // its processes are gone: closed lost
	VerdictReaped    Verdict = "orphan-reaped" // its owner is dead: ended, closed orphan-reaped
	VerdictAdopted   Verdict = "adopted"       // its owner is dead: observed by this instance
	VerdictKept      Verdict = "kept"          // this instance's own live run
	VerdictLeftAlone Verdict = "left-alone"    // another live instance's, or a lease not yet expired
)

// Final reports whether the decision closed or took over its run (lost, orphan-reaped,
// adopted). Passes report in any order (one may still be ending orphans when a later
// one finishes): a final decision is never replaced by a pass that saw the run earlier.
func (d Decision) Final() bool {
	return d.Decision == VerdictLost || d.Decision == VerdictReaped || d.Decision == VerdictAdopted
}

// ErrNoRegistry: reconciliation needs a registry.
var ErrNoRegistry = errors.New("no registry")

// Reconcile judges every record that is not exited: a process that is gone
// or is no longer the recorded one is closed as lost and nothing is signalled; our own
// runs are kept; a live run whose owner is dead and whose lease expired is stolen — the
// steal is written before any signal — then terminated (orphan-reaped) or adopted; a
// run of a live owner, or whose lease has not expired yet, is left alone. Exited
// records past the finished-run TTL are removed.
func (s *Supervisor) Reconcile(ctx context.Context) ([]Decision, error) {
	if s.reg == nil {
		return nil, ErrNoRegistry
	}
	var decisions []Decision
	var stolen, all []Record
	err := s.reg.transact(func(t tx) error {
		recs, err := t.records()
		if err != nil {
			return err
		}
		all = recs
		view := newProcView(s.reg.identity)
		for _, rec := range recs {
			if rec.State == Exited {
				s.expire(t, rec)
				continue
			}
			d, steal := s.decide(t, &rec, view)
			if steal {
				stolen = append(stolen, rec)
				continue
			}
			decisions = append(decisions, d)
		}
		return nil
	})
	// Before the takeovers, which may take a grace: a lease that expires meanwhile is
	// judged by a pass of its own, not after them. (Our own stolen records read as
	// kept to that pass.)
	s.retryWhenLeasesExpire(decisions)
	// Records stolen before an error are this instance's now: act on them anyway, or no
	// later reconcile would (they read as kept). All at once: each may take its grace,
	// and six orphans that ignore SIGTERM took six graces one after another.
	taken := make([]Decision, len(stolen))
	var wg sync.WaitGroup
	for i, rec := range stolen {
		wg.Go(func() { taken[i] = s.takeOver(ctx, rec) })
	}
	wg.Wait()
	decisions = append(decisions, taken...)
	if s.takeBack { // a waiting run learns that a dependency it waits for was lost
		s.listClosed(decisions)
	}
	if err != nil {
		return decisions, fmt.Errorf("reconcile: %w", err)
	}
	for _, d := range decisions {
		s.reg.emit("reconcile", "run_id", d.ID, "name", d.Name, "decision", d.Decision,
			"pid", d.PID, "reason", d.Reason, "detail", d.Detail)
	}
	s.sweepLogs(all) // after the expired records went: their runs' logs age from now on
	return decisions, nil
}

// expire removes an exited record whose TTL has passed (expired).
func (s *Supervisor) expire(t tx, rec Record) {
	s.sweepCgroup(rec)
	if s.expired(rec, s.reg.now()) {
		t.drop(rec.ID)
	}
}

// expired reports whether an exited record's TTL has passed at now: the finished-run
// TTL, or RestorableTTL for a record a restore would still start.
func (s *Supervisor) expired(rec Record, now time.Time) bool {
	ttl := s.cfg.FinishedTTL
	if restorable(rec) {
		ttl = max(ttl, RestorableTTL)
	}
	return now.Sub(rec.UpdatedAt) > ttl
}

// sweepCgroup removes the cgroup of an ended run of this state dir once it is empty.
// A run closed lost while its killed processes were still waiting to be reaped (a
// zombie keeps its cgroup populated, and after a crash their parent is init, which
// reaps in its own time) kept its cgroup then; rmdir removes only an empty one.
func (s *Supervisor) sweepCgroup(rec Record) {
	if rec.State != Exited || rec.Cgroup == "" || s.reg.foreignRecord(rec) != "" {
		return
	}
	cg, err := recordCgroup(rec)
	if err != nil {
		return
	}
	if p, err := cg.Populated(); err == nil && !p {
		cg.Remove()
	}
}

// sweepOthers sweeps the cgroups of the ended records (sweepCgroup) that are none of
// rs's: those of runs a reconcile closed lost. rs's own are their finalizers' to
// remove; a thousand of them are not opened again.
func (s *Supervisor) sweepOthers(rs []*run) {
	if s.reg == nil {
		return
	}
	mine := make(map[string]bool, len(rs))
	for _, r := range rs {
		mine[r.id] = true
	}
	// As written, and the shutdown's own runs' records not read at all: a thousand
	// stats and reads of records that are not looked at.
	// Nor the batch of final records overlaid: it holds only this shutdown's (a batch
	// of another Corral's was folded by the first group of this one's).
	recs, _ := s.reg.listFiles(func(name string) (Record, error) {
		if mine[strings.TrimSuffix(name, ".json")] {
			return Record{}, os.ErrNotExist // not listed
		}
		return s.reg.readKept(name)
	}, func(string, error) {}, false)
	for _, rec := range recs {
		if !mine[rec.ID] {
			s.sweepCgroup(rec)
		}
	}
}

// decide judges one record under the registry lock; it may close or steal it (the
// write happens here, under the lock, so two racing instances cannot both steal).
func (s *Supervisor) decide(t tx, rec *Record, view *procView) (Decision, bool) {
	d := Decision{ID: rec.ID, Name: rec.Name, PID: rec.PID}
	reg := s.reg
	if why := reg.foreignRecord(*rec); why != "" {
		// Never stolen: the record is the other dir's, and so is the run. Closed (in
		// this dir only) once nothing of it is left, so a copy does not list a run
		// gone for good as running forever.
		if gone := view.foreignGone(*rec); gone != "" {
			d.Decision, d.Reason, d.Detail = VerdictLost, Lost, why+"; "+gone
			s.close(t, rec, Lost, d.Detail)
			return d, false
		}
		d.Decision, d.Detail = VerdictLeftAlone, why
		return d, false
	}
	if rec.OwnerInstanceID == reg.Instance() {
		d.Decision, d.Detail = VerdictKept, "owned by this instance"
		return d, false
	}
	lease := reg.LeaseExpiry(*rec)
	ownerAlive := view.instanceAlive(reg, rec.OwnerInstanceID)
	now := reg.now()
	kept := s.keptByLiveKeeper(*rec, view)
	alive, why := true, ""
	if kept == "" {
		alive, why = view.liveness(*rec)
	}
	switch {
	case ownerAlive:
		d.Decision = VerdictLeftAlone
		d.Detail = fmt.Sprintf("owned by live instance %s (lease until %s)", rec.OwnerInstanceID,
			lease.Format(time.TimeOnly))
		return d, false
	case kept != "":
		// Before its liveness: a kept root that exited is the keeper's to report, with
		// its status, to its next server.
		d.Decision, d.Detail, d.Keeper = VerdictLeftAlone, kept, rec.Keeper.PID
		return d, false
	case takeable(*rec):
		// Waiting for its dependencies, or between two attempts: nothing of it runs,
		// and its record is all it is. The state dir's server goes on with it
		// (takeback.go); anyone else leaves it to that server.
		if !s.takeBack {
			d.Decision, d.Detail = VerdictLeftAlone, fmt.Sprintf("%s with no process: the state dir's server takes it over", idleWhat(*rec))
			return d, false
		}
		if err := s.stealIdle(t, rec); err != nil {
			d.Decision, d.Detail = VerdictLeftAlone, "steal failed: "+err.Error()
			return d, false
		}
		return d, true
	case !alive:
		d.Decision, d.Reason, d.Detail = VerdictLost, Lost, why
		s.close(t, rec, Lost, why)
		return d, false
	case now.Before(lease):
		d.Decision, d.RetryAt = VerdictLeftAlone, lease
		d.Detail = fmt.Sprintf("owner %s is dead; its lease expires in %s", rec.OwnerInstanceID,
			lease.Sub(now).Round(time.Millisecond))
		return d, false
	}
	prev := rec.OwnerInstanceID
	rec.OwnerInstanceID, rec.LeaseEpoch = reg.Instance(), rec.LeaseEpoch+1
	rec.LeaseExpiresAt = now.Add(s.cfg.LeaseExpiry)
	rec.Adopted = s.policy == PolicyAdopt && rec.PID != 0 // no root to observe: reaped
	// No keeper keeps it now: it is ended or adopted here.
	rec.Keeper = nil
	if err := t.put(*rec); err != nil {
		d.Decision, d.Detail = VerdictLeftAlone, "steal failed: "+err.Error()
		return d, false
	}
	reg.emit("lease-steal", "run_id", rec.ID, "from", prev, "epoch", rec.LeaseEpoch, "pid", rec.PID)
	s.counters.do(func(m *Metrics) { m.LeaseStealTotal++ })
	return d, true
}

// procView is what one reconcile pass knows about processes and instances, read at
// most once per pass: a /proc scan costs milliseconds, and a thousand records whose
// processes are gone would otherwise scan it a thousand times.
type procView struct {
	identity string        // the state dir's: a record carrying it proves its escapees (claimOf)
	all      []reaper.Proc // nil until first needed
	owners   map[string]bool
	scanned  bool
	// The state dir's keeper (reconcile_keeper.go), once looked up.
	keeperRead   bool
	keeperAlive  bool
	keeperStatus keeper.Status
}

func newProcView(identity string) *procView {
	return &procView{identity: identity, owners: map[string]bool{}}
}

func (v *procView) instanceAlive(reg *Registry, id string) bool {
	alive, ok := v.owners[id]
	if !ok {
		alive = reg.InstanceAlive(id)
		v.owners[id] = alive
	}
	return alive
}

func (v *procView) snapshot() []reaper.Proc {
	if !v.scanned {
		v.scanned = true
		v.all, _ = reaper.ListAll()
	}
	return v.all
}

// liveness reports whether the recorded run still exists, and if not, why. It does
// while some process is provably its own (reaper.Claim: of our uid, carrying the
// run's marker, and the fingerprinted root, a recorded escapee, a descendant of one,
// or with the run's secret found by it). A live root that is not provably Corral's
// (another uid's, or without the marker: a forged record can name any pid) makes the run
// lost, with nothing signalled. Sharing the dead root's session number proves
// nothing: after pid reuse that session is a stranger's, and taking its members for
// the run's got an unrelated daemon killed.
func (v *procView) liveness(rec Record) (bool, string) {
	if rec.PID == 0 && rec.Cgroup != "" {
		// Recorded before its fork (cgroups need no hold): the owner died before it
		// recorded the pid; the cgroup holds whatever it started.
		alive, why, _ := v.cgroupLiveness(rec)
		return alive, why
	}
	if rec.PID == 0 {
		return false, "no process was recorded (the owner died while starting it)"
	}
	if why := badRecord(rec); why != "" {
		return false, why
	}
	if rec.Cgroup != "" {
		// The cgroup is the run: its members, whatever their session. One gone from
		// outside (emptied and removed) leaves what the record still knows: the root
		// and the escapees, found as on sessions.
		if alive, why, gone := v.cgroupLiveness(rec); !gone {
			return alive, why
		}
	}
	boot, err := reaper.BootID()
	if err == nil && rec.Fingerprint.BootID != "" && boot != rec.Fingerprint.BootID {
		return false, "recorded during another boot"
	}
	claim := claimOf(rec, v.identity)
	if left, _ := reaper.Claimed(v.snapshot(), claim, rec.escapeeFingerprints()); len(left) > 0 {
		return true, ""
	}
	if ok, _ := rec.Fingerprint.Alive(); ok {
		return false, fmt.Sprintf("pid %d is alive but not this run's (%v); nothing signalled",
			rec.PID, reaper.Owned(rec.PID, claim))
	}
	if p, err := reaper.ReadProc(rec.PID); err == nil && p.State != 'Z' {
		return false, fmt.Sprintf("pid %d now belongs to another process (start time %d, recorded %d)",
			rec.PID, p.StartTime, rec.Fingerprint.StartTime)
	}
	return false, "the process is gone"
}

// foreignGone says why nothing of another state dir's record can be alive, or "" when
// something may be. Unlike liveness it changes nothing (an empty cgroup is not
// removed: the other dir may be about to start the run in it) and signals nothing.
func (v *procView) foreignGone(rec Record) string {
	boot, err := reaper.BootID()
	switch {
	case err == nil && rec.Fingerprint.BootID != "" && boot != rec.Fingerprint.BootID:
		return "recorded during another boot"
	case rec.Cgroup != "":
		if _, err := os.Stat(rec.Cgroup); errors.Is(err, fs.ErrNotExist) {
			return "its cgroup is gone"
		}
		return ""
	case rec.PID == 0 || badRecord(rec) != "":
		return ""
	}
	if alive, _ := rec.Fingerprint.Alive(); alive {
		return ""
	}
	claim := claimOf(rec, "")
	claim.Recorded = rec.Secret != "" // only looked for: its escapees count too
	if left, err := reaper.Claimed(v.snapshot(), claim, rec.escapeeFingerprints()); err != nil || len(left) > 0 {
		return ""
	}
	return "its processes are gone"
}

// cgroupLiveness is liveness for a record naming a cgroup: alive while the cgroup has
// a live member and one of its members proves the cgroup the run's (cgroupProven). A
// forged record naming a cgroup under Corral's own base (corral/<id>) got root
// processes that carried no run secret killed: the cgroup's name and owner prove only
// that Corral's base holds it, not what was put in it.
//
// gone: the cgroup is gone or empty (cgroupLiveness); the caller falls back to what
// else the record knows.
func (v *procView) cgroupLiveness(rec Record) (alive bool, why string, gone bool) {
	alive, why, gone = cgroupLiveness(rec)
	if !alive {
		return alive, why, gone
	}
	alive, why = v.cgroupProven(rec)
	return alive, why, false
}

// cgroupProven reports whether some member of the record's cgroup is the run's by
// what only the run has: of our uid and carrying its secret (a record without one:
// its run id, and the member is its recorded root), or, when the record is this
// state dir's, the exact fingerprint of an escapee it recorded. Then the cgroup is the
// run's, and every member with it: a process is in a run's cgroup because it was
// forked there (an `env -i` daemon no scan saw included) or moved there by someone
// who could end it anyway. With no member proven, nothing is signalled.
func (v *procView) cgroupProven(rec Record) (bool, string) {
	cg, err := recordCgroup(rec)
	if err != nil {
		return false, "its cgroup is gone: " + err.Error()
	}
	pids, err := subtreeProcs(cg)
	if err != nil {
		return false, fmt.Sprintf("its cgroup %s cannot be read (%v); nothing signalled", cg.Path, err)
	}
	claim := claimOf(rec, v.identity)
	recorded := append(rec.escapeeFingerprints(), fingerprints(rec.Shared)...)
	for _, pid := range pids {
		if reaper.Owned(pid, claim) == nil {
			if claim.Find {
				return true, ""
			}
			if fp, err := reaper.Identify(pid); err == nil && sameProcess(fp, rec.Fingerprint) {
				return true, ""
			}
		}
		if !claim.Recorded || reaper.OwnUID(pid) != nil {
			continue
		}
		fp, err := reaper.Identify(pid)
		if err == nil && slices.ContainsFunc(recorded, func(r reaper.Fingerprint) bool { return sameProcess(fp, r) }) {
			return true, ""
		}
	}
	return false, fmt.Sprintf("its cgroup %s holds %d process(es), none carrying this run's secret or recorded "+
		"as its own: not proven this run's; nothing signalled", cg.Path, len(pids))
}

// subtreeProcs lists the members of cg and of every cgroup below it (Cgroup.Procs
// reads the whole subtree: a run that made sub-cgroups and moved into them leaves its
// own cgroup.procs empty).
func subtreeProcs(cg *reaper.Cgroup) ([]int, error) { return cg.Procs() }

// sameProcess: a and b name one process (same boot, pid and start time).
func sameProcess(a, b reaper.Fingerprint) bool {
	return a.PID == b.PID && a.StartTime == b.StartTime && a.BootID == b.BootID
}

// badRecord says why a record cannot name a run of ours, or "". Records come from
// disk and may be forged or corrupt: a pid, group or session <= 1 or out of range
// would reach init, every process, or the caller's own group; a run is always its own
// session (pid == pgid == sid), so any other shape was not written by Corral.
func badRecord(rec Record) string {
	switch {
	case !reaper.ValidPID(rec.PID) || !reaper.ValidPID(rec.SID) || !reaper.ValidPID(rec.PGID):
		return fmt.Sprintf("invalid record: pid %d, pgid %d, sid %d; nothing signalled", rec.PID, rec.PGID, rec.SID)
	case rec.SID != rec.PID || rec.PGID != rec.PID:
		return fmt.Sprintf("invalid record: pid %d is not its own session (pgid %d, sid %d); nothing signalled",
			rec.PID, rec.PGID, rec.SID)
	case rec.Fingerprint.PID != rec.PID:
		return fmt.Sprintf("invalid record: fingerprint names pid %d, record pid %d; nothing signalled",
			rec.Fingerprint.PID, rec.PID)
	}
	return ""
}

// claimOf is what a record lets a Corral that does not pin its root claim. The
// escapees a record names are the run's by that record only when it carries a secret
// and was written in this state dir (identity: registry_identity.go): then their exact
// fingerprints prove them, and an `env -i` daemon, which carries no marker, is found
// and ended after a crash as the cgroup backend ends it. A record older than state dir
// identities proves nothing by its escapee list: what it names must carry the secret.
func claimOf(rec Record, identity string) reaper.Claim {
	c := markerClaim(rec.Fingerprint, rec.ID, rec.Secret)
	c.Recorded = rec.Secret != "" && identity != "" && rec.StateDir == identity
	return c
}

// claim is what this supervisor may claim of an adopted run (its root never changes):
// its escapees were seen leaving it by this supervisor, or read from its record,
// stolen in this state dir.
func (r *run) claim() reaper.Claim {
	c := markerClaim(r.info.Fingerprint, r.id, r.secret)
	c.Recorded = r.secret != ""
	return c
}

// markerClaim is a run's claim (reaper.Claim): processes of our uid carrying the run's
// secret, found by it even when their parents are gone. A record written before runs
// had a secret (an older Corral's) offers only the public run id; then a process must
// carry it and be proven the run's by the fingerprints or by lineage, and the id alone,
// which corral ls prints and anyone can copy, claims nothing (a process the user
// started with a copied id would be reaped).
func markerClaim(root reaper.Fingerprint, id, secret string) reaper.Claim {
	if secret == "" {
		return reaper.Claim{Root: root, EnvKey: RunIDEnv, EnvValue: id}
	}
	return reaper.Claim{Root: root, EnvKey: RunSecretEnv, EnvValue: secret, Find: true}
}

// close finalizes a record under the registry lock, exactly once.
func (s *Supervisor) close(t tx, rec *Record, reason Reason, detail string) {
	rec.State, rec.Reason, rec.Detail = Exited, reason, detail
	if err := t.put(*rec); err != nil {
		s.reg.emit("registry-error", "run_id", rec.ID, "err", err.Error())
	}
}

// takeOver acts on a stolen record: adopt it, or terminate it and close the record.
func (s *Supervisor) takeOver(ctx context.Context, rec Record) Decision {
	d := Decision{ID: rec.ID, Name: rec.Name, PID: rec.PID}
	if takeable(rec) { // stolen by a server (decide): it goes on with it
		return s.takeUp(rec)
	}
	if rec.Adopted && s.adopt(rec) {
		d.Decision, d.Detail = VerdictAdopted, "owner dead, lease expired: now observed by this instance"
		return d
	}
	return s.reapStolen(ctx, rec)
}

// reapStolen terminates a stolen run and closes its record as orphan-reaped.
func (s *Supervisor) reapStolen(ctx context.Context, rec Record) Decision {
	d := Decision{ID: rec.ID, Name: rec.Name, PID: rec.PID}
	t := s.orphanTarget(rec)
	rep := reaper.Terminate(ctx, t)
	s.countCleanup(rep)
	s.counters.do(func(m *Metrics) { m.ReconcileOrphansTotal++; m.ExitTotal[OrphanReaped.String()]++ })
	if t.Cgroup != nil && rep.VerifiedEmpty {
		t.Cgroup.Remove()
	}
	d.Decision, d.Reason = VerdictReaped, OrphanReaped
	d.Detail = fmt.Sprintf("owner dead, lease expired; cleanup %s, killed %d", StepsText(rep.Steps), rep.Killed)
	if !rep.VerifiedEmpty {
		d.Detail += fmt.Sprintf(", NOT verified empty (%d left)", len(rep.Remaining))
	}
	err := s.reg.update(rec.ID, rec.LeaseEpoch, func(stored *Record) {
		stored.State, stored.Reason, stored.Detail = Exited, OrphanReaped, d.Detail
		stored.Cleanup = cleanupOf(rep)
	})
	if err != nil {
		d.Detail += "; record not closed: " + err.Error()
	}
	return d
}

// orphanTarget is the escalation for a run of a dead instance, from its record.
func (s *Supervisor) orphanTarget(rec Record) reaper.Target {
	// Paused: the dead owner may have left the run stopped; SIGCONT after the stop
	// signal costs nothing if it was not.
	// Claim: the root is not our child, so nothing pins its numbers; only processes
	// proven the run's are signalled, one by one through verified pidfds (its pid may
	// have been reused), each of our uid and carrying the run's marker (a forged record
	// names no process that carries it).
	claim := claimOf(rec, s.reg.identity)
	t := reaper.Target{SID: rec.SID, PTY: rec.Backend == KindPTY, Stop: rec.Spec.StopSignal,
		Paused: true, Grace: rec.Spec.Grace, Sweep: s.cfg.Sweep, Poll: s.cfg.Poll,
		Extra: rec.escapeeFingerprints(), Claim: &claim, OnStep: s.stepLogger(rec.ID)}
	if cg, err := recordCgroup(rec); err == nil {
		// The cgroup's whole subtree; beside it, the claim's processes that left it
		// (moved to another cgroup), each proven the run's as the claim says.
		t.Cgroup = cg
	}
	if t.Grace == 0 {
		t.Grace = s.cfg.Grace
	}
	return t
}

// adopt makes a stolen record a run of this supervisor: observed until it exits,
// cancellable, with no terminal I/O (its PTY or pipes died with the old owner).
// It refuses (false) once the supervisor is shutting down: nobody would stop the run.
func (s *Supervisor) adopt(rec Record) bool {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return false
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	r := &run{id: rec.ID, secret: rec.Secret, spec: rec.Spec, sup: s, ctx: ctx, cancel: cancel,
		out: newOutputLog(s.cfg.OutputCap), done: make(chan struct{}), once: new(sync.Once), again: make(chan struct{}, 1),
		epoch: rec.LeaseEpoch, escapees: rec.Escapees, shared: rec.Shared}
	if cg, err := recordCgroup(rec); rec.Cgroup != "" && err == nil {
		r.cgroup = cg
	}
	r.info = Info{ID: rec.ID, Name: rec.Name, Kind: rec.Backend, Spec: rec.Spec, State: Running,
		PID: rec.PID, Fingerprint: rec.Fingerprint, CreatedAt: rec.CreatedAt, Cgroup: rec.Cgroup,
		StartedAt: rec.CreatedAt, Adopted: true, Escapees: len(rec.Escapees), Shared: len(rec.Shared),
		LeaseOwner: rec.OwnerInstanceID, LeaseEpoch: rec.LeaseEpoch, LeaseExpiresAt: rec.LeaseExpiresAt}
	r.info.Worktree, r.info.Diff, r.info.SetupErr = rec.Worktree, rec.Diff, rec.SetupErr
	r.wd = watchdog.New(watchdog.Config{}, s.clock, nil) // its deadlines were the old owner's
	s.mu.Lock()
	s.runs[r.id] = r
	s.order = append(s.order, r.id)
	s.mu.Unlock()
	r.change(EventSpawn, DetailAdopted, nil)
	if rec.Agent != "" || rec.AgentState != agentstate.Unknown {
		// Without its terminal nobody judges its agent: the old owner's state is no
		// longer anyone's word, and corral ls says what info does.
		r.mu.Lock()
		r.persistLocked()
		r.mu.Unlock()
	}
	// Not our child: its exit is seen through a pidfd, and its status is unknown.
	go r.monitor(func() { reaper.WaitGone(context.Background(), r.info.Fingerprint) })
	return true
}
