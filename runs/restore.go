package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"corral/reaper"
	"corral/runs/agentstate"
)

// Restore after a reboot. An agent run's record holds its CLI's conversation id
// (Info.SessionID): pinned at launch where the CLI takes one (Spawn), else learnt from
// what the CLI reports — its hook payloads (Hook) or, for codex, the session file that
// proves to be the run's (learnSessionFile). After a reboot the runs are gone and the
// next server closes their records as lost; Restore starts each of those again as a
// new run: the same name, directory (its worktree, which is not made again) and
// environment additions, the command in its CLI's resume form with the recorded id
// (the agent's [session] rules say how). The guard against resuming another run's
// conversation: an id is resumed only from the record that holds it, never while a
// live run holds it, and a record is restored once (Record.RestoredBy).

// RestoreOptions says which lost runs to start again.
type RestoreOptions struct {
	IDs    []string // the lost runs' ids; none: every restorable one
	DryRun bool     // say what would be done, start nothing
	// Fresh starts a lost agent run that has no conversation id as a new conversation
	// (its command as it was, less the options that pick a conversation); without it
	// such a run is listed, not started.
	Fresh bool
	// BaseEnv is the caller's environment, which the record's environment additions
	// go over (as a spawn's).
	BaseEnv []string `json:"-"`
	// NoWait makes a dry run answer at once, without waiting out a dead server's
	// leases (the UI's question at start, which must not hold the UI's calls for
	// them): the runs such a lease still holds are not in its answer, and Waiting is
	// told how many and how long until they can be known lost.
	NoWait  bool                            `json:"-"`
	Waiting func(n int, wait time.Duration) `json:"-"`
}

// Restored is what a restore did, or would do, with one lost run.
type Restored struct {
	From      string   `json:"from"`                 // the lost run
	Name      string   `json:"name"`                 // its name, the new run's too
	ID        string   `json:"id,omitempty"`         // the new run ("" when none was started)
	Agent     string   `json:"agent,omitempty"`      // its agent
	SessionID string   `json:"session_id,omitempty"` // the conversation it resumes ("" for a fresh start)
	Dir       string   `json:"cwd,omitempty"`        // where it starts
	Argv      []string `json:"argv,omitempty"`       // the command it starts (Shell for a command line)
	Shell     string   `json:"shell,omitempty"`
	Fresh     bool     `json:"fresh,omitempty"` // started (or offered) as a new conversation: it had no id
	// Skipped says why it was not started (restored already, the id held by a live
	// run, no id without --fresh, a dry run); "" when it was.
	Skipped string `json:"skipped,omitempty"`
	Error   string `json:"error,omitempty"` // its start failed
}

// SkippedDryRun is Restored.Skipped of a run a dry run would start.
const SkippedDryRun = "dry run"

// ErrRestore is a restore a named run refused (held id, restored already, not lost).
var ErrRestore = errors.New("cannot restore")

// restoreMu makes one restore at a time: two at once must not both find a record
// unrestored and start its conversation twice.
var restoreMu sync.Mutex

// lostRun reports whether rec ended because its server went (a crash, a reboot), not
// because the user, a deadline or its own exit ended it: lost (its processes were gone
// when the next server looked) or orphan-reaped (some were left, with nobody to own
// them, and the next server ended them).
func lostRun(rec Record) bool {
	return rec.State == Exited && (rec.Reason == Lost || rec.Reason == OrphanReaped)
}

// RestorableTTL is how long the record of a lost run that a restore would start is
// kept (the finished-run TTL when that is longer): a reboot's runs wait for their
// user however long the machine stayed off, or they stayed away after it — a
// weekend, a holiday — not the half hour an ended run stays listed.
const RestorableTTL = 14 * 24 * time.Hour

// restorable reports whether a restore without ids would start rec (or offer it, an
// agent without an id): a lost agent run, or a plain command whose config says
// restore = true, not restored yet.
func restorable(rec Record) bool {
	return lostRun(rec) && rec.RestoredBy == "" && (rec.Agent != "" || rec.Spec.Restore)
}

// Restore starts the lost runs again (RestoreOptions), in the order they were
// created, and says what it did with each. A run named in o.IDs that cannot be
// restored is an error (ErrRestore) naming the reason; without ids, such runs are
// listed with the reason and the others restored.
func (s *Supervisor) Restore(ctx context.Context, o RestoreOptions) ([]Restored, error) {
	if s.reg == nil {
		return nil, fmt.Errorf("%w: no registry (restore needs the records of a state dir)", ErrRestore)
	}
	restoreMu.Lock()
	defer restoreMu.Unlock()
	// The records of the runs the reboot took are closed lost by a reconcile: one now,
	// waiting out the dead server's leases (a lease's length at most), so a restore
	// right after the reboot finds them; then they are listed as the ended runs they
	// are.
	waiting := o.Waiting
	if waiting == nil {
		waiting = func(int, time.Duration) {}
	}
	recs, settled := s.settledRecords(o)
	if !settled {
		if _, err := s.reconcileAndWait(waiting, o.DryRun && o.NoWait); err != nil {
			return nil, err
		}
		s.TakeEnded()
		var err error
		if recs, err = s.reg.List(); err != nil {
			return nil, err
		}
	}
	s.listLost(recs)
	slices.SortStableFunc(recs, func(a, b Record) int { return a.CreatedAt.Compare(b.CreatedAt) })
	byID := map[string]Record{}
	for _, rec := range recs {
		byID[rec.ID] = rec
	}
	var picked []Record
	var errs []error
	if len(o.IDs) == 0 {
		for _, rec := range recs {
			if lostRun(rec) && (rec.Agent != "" || rec.Spec.Restore) { // restored ones say so
				picked = append(picked, rec)
			}
		}
	}
	for _, ref := range o.IDs {
		id, err := restoreRef(recs, ref)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rec, ok := byID[id]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("%w %s: no record of it (restore starts runs whose records the last server left; corral ls --all lists them)", ErrRestore, id))
		case !lostRun(rec):
			errs = append(errs, fmt.Errorf("%w %s: it is %s, not lost (restore starts runs a crash or a reboot ended; spawn starts others)",
				ErrRestore, id, stateText(rec)))
		case rec.Agent == "" && !rec.Spec.Restore:
			errs = append(errs, fmt.Errorf("%w %s: a plain command, restored only when its config entry says restore = true", ErrRestore, id))
		default:
			picked = append(picked, rec)
		}
	}
	held := s.heldSessions(recs)
	var out []Restored
	for _, rec := range picked {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		r, err := s.restoreOne(rec, o, held)
		if err != nil && len(o.IDs) > 0 {
			errs = append(errs, err)
		}
		out = append(out, r)
	}
	return out, errors.Join(errs...)
}

// settledRecords answers the UI's question at attach (a dry run that does not wait)
// without a reconcile and the two full reads of the registry around it — at a
// thousand runs a fifth of a second of the server's CPU, beside the attach's first
// frame — when no pass could change its answer: every record not ended is this
// instance's, and a pass closes as lost only another instance's. The records are
// then read as they are now from the records cache (a directory read and a stat
// each; a record changed since it was read, by this process or another, is read
// again), so a run a pass closed lost is offered, and one restored since (RestoredBy
// written) is not offered again. What it returns is the ended records, each a copy
// of its own (the cache's are shared, and the runs made of them keep theirs), and of
// the others only what a restore reads of them: id, state and conversation id. Those
// past the TTL a pass removes are left out, as the pass would. ok is false when a
// reconcile is needed (or the cache could not be read): Restore does as before.
func (s *Supervisor) settledRecords(o RestoreOptions) (recs []Record, ok bool) {
	if !o.DryRun || !o.NoWait || len(o.IDs) > 0 {
		return nil, false
	}
	cached, err := s.reg.ListCached()
	if err != nil {
		return nil, false
	}
	me, now := s.reg.Instance(), s.reg.now()
	for _, rec := range cached {
		if rec.State != Exited {
			if rec.OwnerInstanceID != me {
				return nil, false
			}
			recs = append(recs, Record{ID: rec.ID, State: rec.State, SessionID: rec.SessionID, CreatedAt: rec.CreatedAt,
				OwnerInstanceID: rec.OwnerInstanceID})
			continue
		}
		if s.expired(rec, now) {
			continue // a pass removes it
		}
		own, err := copyRecord(rec)
		if err != nil {
			return nil, false
		}
		recs = append(recs, own)
	}
	s.takeEnded(recs) // as TakeEnded would: the ended runs of instances that are gone
	return recs, true
}

// copyRecord is rec with nothing shared with it: a record of the cache made a
// caller's own.
func copyRecord(rec Record) (Record, error) {
	b, err := json.Marshal(rec)
	if err != nil {
		return Record{}, err
	}
	var own Record
	return own, json.Unmarshal(b, &own)
}

// restoreRef is the run a restore's ref names: a record's id, the start of one, or
// the name of a lost run — the one not restored yet when a restore has started a run
// of that name already (both have it).
func restoreRef(recs []Record, ref string) (string, error) {
	var prefixed, named, waiting []string
	for _, rec := range recs {
		switch {
		case rec.ID == ref:
			return ref, nil
		case strings.HasPrefix(rec.ID, ref):
			prefixed = append(prefixed, rec.ID)
		case rec.Name == ref && lostRun(rec):
			named = append(named, rec.ID)
			if rec.RestoredBy == "" {
				waiting = append(waiting, rec.ID)
			}
		}
	}
	for _, ids := range [][]string{prefixed, waiting, named} {
		if len(ids) == 1 && (len(prefixed) == 0 || len(named) == 0) {
			return ids[0], nil
		}
	}
	if all := append(prefixed, named...); len(all) > 1 {
		return "", fmt.Errorf("%w %s: %q names %d lost runs (%s): give the run id", ErrRestore, ref, ref, len(all), strings.Join(all, ", "))
	}
	return ref, nil // no record: said so by the caller
}

// listLost lists the lost runs of recs this server does not list yet (those a
// reconcile here reaped: their records are this instance's, which TakeEnded leaves),
// so info and the UI show them and what restore made of them.
func (s *Supervisor) listLost(recs []Record) {
	var taken []*run
	for _, rec := range recs {
		if !lostRun(rec) {
			continue
		}
		s.mu.Lock()
		_, ok := s.runs[rec.ID]
		s.mu.Unlock()
		if !ok {
			taken = append(taken, s.endedRun(rec))
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range taken {
		if _, ok := s.runs[r.id]; !ok {
			s.runs[r.id] = r
			s.order = append(s.order, r.id)
		}
	}
	s.sortOrderLocked()
}

// stateText is a record's state and reason, for messages.
func stateText(rec Record) string {
	if rec.State == Exited {
		return "ended (" + rec.Reason.String() + ")"
	}
	return rec.State.String()
}

// heldSessions are the conversation ids live runs hold, each with its run: this
// server's, and those of records another live Corral owns.
func (s *Supervisor) heldSessions(recs []Record) map[string]string {
	held := map[string]string{}
	for _, i := range s.Snapshot() {
		if !i.Ended() && i.SessionID != "" {
			held[i.SessionID] = i.ID
		}
	}
	for _, rec := range recs {
		if rec.State != Exited && rec.SessionID != "" && held[rec.SessionID] == "" {
			held[rec.SessionID] = rec.ID
		}
	}
	return held
}

// restoreOne starts rec again (or says why not); held gains the id it resumes.
func (s *Supervisor) restoreOne(rec Record, o RestoreOptions, held map[string]string) (Restored, error) {
	res := Restored{From: rec.ID, Name: rec.Name, Agent: rec.Agent, SessionID: rec.SessionID, Dir: rec.Spec.Dir}
	refuse := func(format string, a ...any) (Restored, error) {
		res.Skipped = fmt.Sprintf(format, a...)
		return res, fmt.Errorf("%w %s: %s", ErrRestore, rec.ID, res.Skipped)
	}
	if rec.RestoredBy != "" {
		return refuse("restored already, as run %s: a record is restored once", rec.RestoredBy)
	}
	if rec.PID == 0 {
		return refuse("it never started (%s)", rec.Reason)
	}
	spec := rec.Spec
	spec.Worktree = nil
	if wt := rec.Worktree; wt != nil {
		// Its worktree is there: the run starts in it again, nothing made, no setup
		// step run again.
		if _, err := os.Stat(wt.Dir); err != nil {
			return refuse("its worktree %s is gone (finished or removed): nothing to start it in", wt.Path)
		}
		w := *wt
		spec.Worktree = &WorktreeSpec{Use: &w}
		res.Dir = wt.Dir
	}
	spec.BaseEnv = o.BaseEnv
	if spec.BaseEnv == nil {
		spec.BaseEnv = os.Environ()
	}
	var agent *agentstate.Agent
	if rec.Agent != "" && s.agents != nil {
		agent = s.agents.Named(rec.Agent)
	}
	var sess *agentstate.Session
	if agent != nil {
		sess = agent.Session
	}
	switch {
	case rec.SessionID != "":
		if by := held[rec.SessionID]; by != "" {
			return refuse("its conversation %s is held by live run %s: end that run first, or leave this one", rec.SessionID, by)
		}
		if spec.Shell != "" {
			return refuse("its command is a shell line (%q): the resume form is put into a command's words only", spec.Shell)
		}
		argv, ok := sess.ResumeArgv(agent, spec.Argv, rec.SessionID)
		if !ok {
			return refuse("no resume form for agent %q and the command %q (its rules' [session] table says how)", rec.Agent, spec.Argv)
		}
		spec.Argv = argv
	case rec.Agent != "" && !rec.Spec.Restore:
		res.Fresh = true
		if !o.Fresh {
			res.Skipped = "no conversation id was recorded: it can start fresh, as a new conversation: corral restore --fresh " + rec.ID
			return res, nil
		}
		fallthrough
	default: // a command restored as it was (restore = true), or an agent started fresh
		if sess != nil && spec.Shell == "" {
			spec.Argv = sess.FreshArgv(agent, spec.Argv)
		}
	}
	res.Argv, res.Shell = spec.Argv, spec.Shell
	if o.DryRun {
		res.Skipped = SkippedDryRun
		return res, nil
	}
	// The lost record is claimed for the new run before it starts, under the registry's
	// lock: another Corral on this state dir (a --local UI, a second server after an
	// upgrade) restoring at the same moment finds it claimed, or the id held.
	newID := newID()
	if by, err := s.claimRestore(rec, newID); err != nil {
		return res, fmt.Errorf("%w %s: %w", ErrRestore, rec.ID, err)
	} else if by != "" {
		return refuse("%s", by)
	}
	id, err := s.spawn(spec, restoring{from: rec.ID, session: rec.SessionID, id: newID})
	res.ID = id
	if err != nil {
		// Not started (no run, or one ended spawn-error): the claim is taken back, so
		// the record can be restored once what stopped it is fixed.
		res.Error = err.Error()
		s.unclaimRestore(rec.ID, newID)
		if id == "" {
			return res, fmt.Errorf("%w %s: %w", ErrRestore, rec.ID, err)
		}
		return res, nil
	}
	if rec.SessionID != "" {
		held[rec.SessionID] = id
	}
	s.markRestored(rec.ID, id)
	return res, nil
}

// claimRestore writes by on the lost record as the run that restores it, reading the
// records again under the registry's lock: refused (why, "" when claimed) when the
// record was restored meanwhile, or its conversation is held by a run of any Corral on
// this state dir — a live record, or a restore's claim whose run is not ended.
func (s *Supervisor) claimRestore(rec Record, by string) (refused string, err error) {
	err = s.reg.withLock(func() error {
		cur, err := s.reg.record(rec.ID)
		if err != nil {
			return err
		}
		if cur.RestoredBy != "" {
			refused = fmt.Sprintf("restored already, as run %s: a record is restored once", cur.RestoredBy)
			return nil
		}
		if sid := cur.SessionID; sid != "" {
			recs, err := s.reg.list()
			if err != nil {
				return err
			}
			if holder, live := heldInRecords(recs, cur, sid); live {
				refused = fmt.Sprintf("its conversation %s is held by live run %s: end that run first, or leave this one", sid, holder)
				return nil
			} else if holder != "" {
				refused = fmt.Sprintf("its conversation %s went on in run %s, which a restore started from another record of it: that run holds it now (restore it, if it is lost)", sid, holder)
				return nil
			}
		}
		cur.RestoredBy = by
		return s.reg.write(cur)
	})
	return refused, err
}

// heldInRecords is the run of recs (other than from's) that holds conversation sid:
// live, a record not ended with it, or the run a restore of another record with it
// claimed that has no ended record yet (starting, in another Corral); else, not live,
// the run such a restore started that has ended since (the conversation went on
// there: from's copy of the id is stale, and that run's own record is the one to
// restore). "" if none.
func heldInRecords(recs []Record, from Record, sid string) (holder string, live bool) {
	byID := map[string]Record{}
	for _, r := range recs {
		byID[r.ID] = r
	}
	stale := ""
	for _, r := range recs {
		if r.ID == from.ID || r.SessionID != sid {
			continue
		}
		if r.State != Exited {
			return r.ID, true
		}
		if by := r.RestoredBy; by != "" && by != from.ID { // from itself: a chain of restores
			if b, ok := byID[by]; !ok || b.State != Exited {
				return by, true
			}
			stale = by
		}
	}
	return stale, false
}

// unclaimRestore takes back a claim (by) whose run was never made.
func (s *Supervisor) unclaimRestore(from, by string) {
	s.reg.withLock(func() error {
		rec, err := s.reg.record(from)
		if err != nil || rec.RestoredBy != by {
			return err
		}
		rec.RestoredBy = ""
		return s.reg.write(rec)
	})
}

// markRestored shows on the lost run's ended run here that restore started by (its
// record says so already: claimRestore).
func (s *Supervisor) markRestored(from, by string) {
	s.mu.Lock()
	r := s.runs[from]
	s.mu.Unlock()
	if r != nil {
		r.change(EventState, "restored as "+by, func(i *Info) { i.RestoredBy = by })
	}
}

// learnSession takes the conversation id the agent reported (how: from where) as the
// run's: its latest word, as a CLI that starts a new conversation in the same run
// (/clear) says.
func (r *run) learnSession(id, how string, kept bool) {
	if id == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.info.SessionID == id || r.info.State != Running {
		return
	}
	r.changeLocked(EventSession, id+" ("+how+")", func(i *Info) { i.SessionID, i.Conversed = id, kept })
	r.persistLocked()
}

// learnSessionFile learns a run's conversation id from its agent's session files when
// the rules say it keeps them and the run has none yet: on an agent-state change,
// never by polling. Only a file that proves to be this run's is taken
// (Session.FileID).
func (r *run) learnSessionFile(a *agentRun) {
	sess := a.det.Agent().Session
	if sess == nil || sess.Files == "" {
		return
	}
	r.mu.Lock()
	known, since, spec := r.info.SessionID != "", r.info.StartedAt, r.spec
	r.mu.Unlock()
	if known || since.IsZero() {
		return
	}
	env := spec.BaseEnv
	if env == nil {
		env = os.Environ()
	}
	env = append(slices.Clone(env), spec.Env...)
	held := map[string]bool{}
	for _, i := range r.sup.Snapshot() {
		if i.ID != r.id && i.SessionID != "" {
			held[i.SessionID] = true
		}
	}
	if r.sup.reg != nil {
		recs, _ := r.sup.reg.List()
		for _, rec := range recs {
			if rec.ID != r.id && rec.SessionID != "" {
				held[rec.SessionID] = true
			}
		}
	}
	id := sess.FileID(env, spec.dir(env), since, func(id string) bool { return held[id] }, r.sessionFileOwner)
	r.learnSession(id, "its session file", true) // the file is the conversation, kept
}

// sessionFileOwner says whose a session file is by the processes holding it open
// (the CLI keeps its conversation's file open): this run's when one of them carries
// its id (RunIDEnv), another's when only processes of another run or of none do. Two
// codex runs started in one directory at the same moment are so told apart.
func (r *run) sessionFileOwner(path string) agentstate.FileOwner {
	pids := openHolders(path)
	if len(pids) == 0 {
		return agentstate.OwnerUnknown
	}
	for _, pid := range pids {
		if v, err := reaper.EnvVar(pid, RunIDEnv); err == nil && v == r.id {
			return agentstate.OwnerThisRun
		}
	}
	return agentstate.OwnerOther
}
