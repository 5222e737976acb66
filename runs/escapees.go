package runs

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"corral/reaper"
)

// Escapee is a process attributed to a run outside its session (ARCHITECTURE.md,
// "Ownership"): its fingerprint, which is what every decision uses, and the command
// line it had when it was detected, which only shows people what escaped (codex's
// managed daemon) and is never matched against anything.
type Escapee struct {
	reaper.Fingerprint
	Argv []string `json:"argv,omitempty"`
}

// alive reports whether the escapee's process lives still (not a zombie): the same
// pid with the same start time. One whose /proc cannot be read for another reason
// than its end (no file descriptor left, as a thousand runs ending at once take them)
// is taken as alive: dropped, it would not be ended with its run.
func (e Escapee) alive() bool {
	p, err := reaper.ReadProc(e.PID)
	if err != nil {
		return !errors.Is(err, reaper.ErrGone)
	}
	return p.StartTime == e.StartTime && p.State != 'Z' && p.State != 'X'
}

// liveEscapees is those of es that live still, in a new slice: a record written
// behind (writeBehind marshals it outside r.mu) holds es, which must not change under
// it.
func liveEscapees(es []Escapee) []Escapee {
	var out []Escapee
	for _, e := range es {
		if e.alive() {
			out = append(out, e)
		}
	}
	return out
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

// nameEscapeesLocked reads again the command line of each live escapee: the run is
// about to end them, and its record and its cleanup's report name what is ended, not
// what was seen first (one noted as it exec'd has none: the kernel shows none until
// the new program's arguments are set up; one noted before an exec has its old
// program's). Under r.mu.
func (r *run) nameEscapeesLocked() {
	for i, e := range r.escapees {
		if fp, err := reaper.Identify(e.PID); err == nil && fp == e.Fingerprint {
			if argv, _ := reaper.ReadCmdline(e.PID); len(argv) > 0 {
				r.escapees[i].Argv = capArgv(argv)
			}
		}
	}
}

// noteEscapees records processes that left the run's session, each with its fingerprint
// and, for display, its command line read now. They are the run's (policy own, the
// default, and its alias warn: codex forks a managed daemon at start): persisted in its
// record, shown in its tree, ended with it, reaped by a reconcile if its owner dies.
// Under policy fail the run ends ownership-escape.
//
// Those that ended are dropped as new ones are noted: the record keeps the run's
// live escapees, not every process that ever left the session (a tool that starts
// each command in a session of its own would otherwise grow the record by one each,
// its whole command line too, for hours, past what a record may be).
func (r *run) noteEscapees(procs []reaper.Proc) {
	var fresh []Escapee
	named := false // a known escapee's argv read at last
	r.mu.Lock()
	if len(procs) > 0 {
		r.escapees = liveEscapees(r.escapees)
	}
	for _, p := range procs {
		fp, err := reaper.Identify(p.PID)
		if err != nil || fp.StartTime != p.StartTime {
			continue // gone, or already someone else
		}
		if i := slices.IndexFunc(r.escapees, func(e Escapee) bool { return e.Fingerprint == fp }); i >= 0 {
			// Its argv was read as it exec'd (the kernel shows none until the new
			// program's arguments are set up): read it again now it is seen again.
			if len(r.escapees[i].Argv) == 0 {
				if argv, _ := reaper.ReadCmdline(p.PID); len(argv) > 0 {
					r.escapees[i].Argv, named = capArgv(argv), true
				}
			}
			continue
		}
		argv, _ := reaper.ReadCmdline(p.PID)
		e := Escapee{Fingerprint: fp, Argv: capArgv(argv)}
		r.escapees = append(r.escapees, e)
		fresh = append(fresh, e)
	}
	if len(fresh) > 0 {
		// One count per escape event, as the UI's events pane lists them (its title
		// said "escape events 0" beside two: only a policy-fail end was counted, which
		// run_exit_total{ownership-escape} counts already); counted before the event,
		// so whoever saw the event reads a counter that has it.
		r.sup.counters.do(func(m *Metrics) { m.OwnershipEscapeTotal++ })
		r.changeLocked(EventEscape, escapeDetail(fresh), func(i *Info) { i.Escapees = len(r.escapees) })
	}
	if len(fresh) > 0 || named {
		r.persistLocked()
	}
	policy := r.spec.Escape
	r.mu.Unlock()
	for _, e := range fresh {
		r.sup.reg.emit("escape", "run_id", r.id, "pid", e.PID, "start_time", e.StartTime,
			"argv", e.Argv, "policy", string(policy))
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
		parts = append(parts, strings.TrimSpace(fmt.Sprintf("pid %d %s", e.PID, shortCommand(e.Argv))))
	}
	return strings.Join(parts, "; ")
}

// shortCommand is argv on one line for an event, cut after detailCommand runes (codex's
// shell snapshot is a 1.5 kB script in one argument; the record keeps it whole).
func shortCommand(argv []string) string {
	s := strings.Join(strings.Fields(strings.Join(argv, " ")), " ")
	if r := []rune(s); len(r) > detailCommand {
		return string(r[:detailCommand]) + "…"
	}
	return s
}

const detailCommand = 120

// Escapees returns the processes attributed to a run as escapees.
func (s *Supervisor) Escapees(id string) ([]Escapee, error) {
	r, err := s.get(id)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.escapees), nil
}
