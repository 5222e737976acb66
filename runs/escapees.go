package runs

import (
	"fmt"
	"slices"
	"strings"

	"corral/reaper"
)

// Escapee is a process attributed to a run outside its session (DESIGN §3): its
// fingerprint, which is what every decision uses, and the command line it had when it
// was detected, which only shows people what escaped (codex's managed daemon, issue
// 14.1) and is never matched against anything.
type Escapee struct {
	reaper.Fingerprint
	Argv []string `json:"argv,omitempty"`
}

// fingerprints returns the identities of escapees, for reaper.Target.Extra.
func fingerprints(es []Escapee) []reaper.Fingerprint {
	out := make([]reaper.Fingerprint, 0, len(es))
	for _, e := range es {
		out = append(out, e.Fingerprint)
	}
	return out
}

// escapeeFingerprints are the record's escapees, for a reconcile's claim.
func (rec Record) escapeeFingerprints() []reaper.Fingerprint { return fingerprints(rec.Escapees) }

// owner attributes a reparented child of Corral to one of its live runs: the run whose
// tree a scan saw it in; otherwise the one live run that can have started it (issue
// 15.7: `setsid -f` reparents its child to Corral, the subreaper, before any scan
// sees it in the tree). Every child of Corral that is not a run root descends from a
// run (spawnMu), and a process cannot be older than the run it descends from, so the
// candidates are the live runs whose root started no later than p; exactly one means
// it is that run's. With several, p is reported, never signalled.
//
// The run id p inherited in its environment is not evidence here: any run can set
// another run's id on a child it detaches, and taking it at its word made the other
// run end ownership-escape (issue 15.6). Only what the scans saw come from a run counts.
func (s *Supervisor) owner(p reaper.Proc, byID map[string]*run) *run {
	if r := byID[s.seen[keyOf(p)]]; r != nil {
		return r
	}
	fp, err := reaper.Identify(p.PID)
	if err != nil || fp.StartTime != p.StartTime {
		return nil // gone, or no longer the process the scan saw
	}
	var only *run
	for _, r := range byID {
		r.mu.Lock()
		root := r.info.Fingerprint
		r.mu.Unlock()
		// A root not fingerprinted yet (started, not yet identified) cannot be ruled
		// out: it stays a candidate.
		if root.StartTime != 0 && !notBefore(fp, root) {
			continue
		}
		if only != nil {
			return nil
		}
		only = r
	}
	return only
}

// notBefore reports whether p may have been created after root. pidfs numbers its
// inodes in the order pids are allocated (Linux ≥ 6.9), which orders two processes
// exactly; start times count clock ticks, where a tie cannot be ordered and is allowed.
func notBefore(p, root reaper.Fingerprint) bool {
	if p.PidfsIno != 0 && root.PidfsIno != 0 {
		return p.PidfsIno > root.PidfsIno
	}
	return p.StartTime >= root.StartTime
}

// keepReported forgets reported processes that are gone and marks the descendants of
// those alive as reported too. An unattributed process stays unattributed, and so does
// what it forks: once the runs that could have started it have ended, a later run
// would otherwise be the only candidate left and inherit another run's leftovers.
func (s *Supervisor) keepReported(index map[int]reaper.Proc, fam reaper.Family) {
	for k := range s.reported {
		p, ok := index[k.pid]
		if !ok || keyOf(p) != k {
			delete(s.reported, k)
			continue
		}
		for _, d := range fam.Descendants(k.pid) {
			s.reported[keyOf(d)] = true
		}
	}
}

func (s *Supervisor) reportUnattributed(p reaper.Proc) {
	if s.reported[keyOf(p)] {
		return
	}
	s.reported[keyOf(p)] = true
	if s.reg != nil {
		argv, _ := reaper.ReadCmdline(p.PID) // display only
		s.reg.events.emit("escape-unattributed", "pid", p.PID, "sid", p.SID, "comm", p.Comm, "argv", argv,
			"detail", "reparented to Corral but not attributable to a run: reported, not signalled")
	}
}

// noteEscapees records processes that left the run's session, each with its
// fingerprint and, for display, its command line read now. They are the run's
// (policy own, the default, and its alias warn: issue 14.1, codex forks a managed
// daemon at start): persisted in its record, shown in its tree, ended with it, reaped
// by a reconcile if its owner dies. Under policy fail the run ends ownership-escape.
func (r *run) noteEscapees(procs []reaper.Proc) {
	var fresh []Escapee
	r.mu.Lock()
	for _, p := range procs {
		fp, err := reaper.Identify(p.PID)
		if err != nil || fp.StartTime != p.StartTime {
			continue // gone, or already someone else
		}
		if slices.ContainsFunc(r.escapees, func(e Escapee) bool { return e.Fingerprint == fp }) {
			continue
		}
		argv, _ := reaper.ReadCmdline(p.PID)
		e := Escapee{Fingerprint: fp, Argv: argv}
		r.escapees = append(r.escapees, e)
		fresh = append(fresh, e)
	}
	if len(fresh) > 0 {
		r.changeLocked(EventEscape, escapeDetail(fresh), func(i *Info) { i.Escapees = len(r.escapees) })
		r.persistLocked()
	}
	policy := r.spec.Escape
	r.mu.Unlock()
	for _, e := range fresh {
		if reg := r.sup.reg; reg != nil {
			reg.events.emit("escape", "run", r.id, "pid", e.PID, "start_time", e.StartTime,
				"argv", e.Argv, "policy", string(policy))
		}
	}
	if len(fresh) > 0 && policy == EscapeFail {
		r.stop(OwnershipEscape)
	}
}

// escapeDetail names new escapees for the escape event: "pid 123 codex app-server
// --managed-daemon; pid 124 …" (display only; the UI neutralises control characters).
func escapeDetail(es []Escapee) string {
	parts := make([]string, 0, len(es))
	for _, e := range es {
		parts = append(parts, strings.TrimSpace(fmt.Sprintf("pid %d %s", e.PID, strings.Join(e.Argv, " "))))
	}
	return strings.Join(parts, "; ")
}
