// Package listing is what corral ls and corral reconcile print: the registry's runs,
// each with whether its owner lives, and reconciliation's decisions, as tables for
// people or JSON for scripts. Nothing of a record reaches the terminal raw (a record
// on disk may be forged).
package listing

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/workspace"
)

// Run is a record as corral ls prints it.
type Run struct {
	runs.Record
	OwnerAlive bool `json:"owner_alive"`
	// A live run's cgroup's CPU time and memory; nil (absent from the JSON) when not
	// known: a run on its session, ended, or a cgroup without the memory controller.
	// A known 0 is written as 0.
	CPUMS  *int64 `json:"cpu_ms,omitempty"`
	Memory *int64 `json:"memory_bytes,omitempty"`
	// LeaseNote is what the LEASE column says of a live run whose lease has expired,
	// in place of a negative time: "lease not renewed (why)" while its owner lives
	// (a full disk refused the renewal), "expired 5s ago" once the owner is dead.
	LeaseNote string `json:"lease_note,omitempty"`
}

// Waiting are the rows of a server's runs (live) that wait for dependencies and are
// not among listed: a run waiting has a record (its waiting_for), but a server
// older than that kept none.
func Waiting(live []runs.Info, listed []Run) []Run {
	var out []Run
	for _, i := range live {
		if i.Waiting() && !slices.ContainsFunc(listed, func(r Run) bool { return r.ID == i.ID }) {
			rec := runs.Record{ID: i.ID, Name: i.Name, Backend: i.Kind, Spec: i.Spec, State: i.State, CreatedAt: i.CreatedAt,
				WaitingFor: i.WaitingFor}
			out = append(out, Run{Record: rec.Public(), OwnerAlive: true})
		}
	}
	return out
}

// Doc is corral ls --json.
type Doc struct {
	Runs    []Run        `json:"runs"`
	Metrics runs.Metrics `json:"metrics"`
}

// List is the registry's runs, without those that ended longer than ttl ago unless all,
// read from its files (no server runs).
func List(reg *runs.Registry, all bool, ttl time.Duration) ([]Run, error) {
	return list(reg, reg.List, all, ttl)
}

// Held is List as the server holding reg answers it, from records (its supervisor's
// HeldRecords): its own runs' records as it wrote them or is writing them, others'
// as last read unless their files changed (Registry.ListCached). The same runs, the
// same fields: a script cannot tell which answered.
func Held(reg *runs.Registry, records func() ([]runs.Record, error), all bool, ttl time.Duration) ([]Run, error) {
	return HeldUsing(reg, records, runs.RecordUsage, all, ttl)
}

// HeldUsing is Held with the live runs' cgroup usage read by usage (the supervisor's
// RecordUsage: its own runs through the cgroups it holds).
func HeldUsing(reg *runs.Registry, records func() ([]runs.Record, error), usage func(runs.Record) (runs.Usage, bool),
	all bool, ttl time.Duration) ([]Run, error) {
	return listWith(reg, records, usage, all, ttl)
}

func list(reg *runs.Registry, records func() ([]runs.Record, error), all bool, ttl time.Duration) ([]Run, error) {
	return listWith(reg, records, runs.RecordUsage, all, ttl)
}

func listWith(reg *runs.Registry, records func() ([]runs.Record, error), usage func(runs.Record) (runs.Usage, bool),
	all bool, ttl time.Duration) ([]Run, error) {
	recs, err := records()
	if err != nil {
		return nil, err
	}
	out := make([]Run, 0, len(recs)) // grown by appends, a thousand runs were 2.5 MB to collect
	owners := ownerMemo{reg: reg}
	now := time.Now()
	for _, r := range recs {
		if !all && r.State == runs.Exited && now.Sub(r.UpdatedAt) > ttl {
			continue
		}
		rec := r.Public()
		o := owners.of(r.OwnerInstanceID)
		if o.lease.After(rec.LeaseExpiresAt) { // the owner's instance lease extends the record's
			rec.LeaseExpiresAt = o.lease
		}
		run := Run{Record: rec, OwnerAlive: r.State != runs.Exited && o.alive}
		if r.State != runs.Exited && run.OwnerAlive {
			run.LeaseNote = leaseNote(rec.LeaseExpiresAt, true, o.problem, now)
		} else if r.State != runs.Exited {
			run.LeaseNote = leaseNote(rec.LeaseExpiresAt, false, "", now)
		}
		if u, ok := usage(r); ok {
			run.CPUMS = new(runs.Millis(u.CPU))
			if u.Memory >= 0 {
				run.Memory = new(u.Memory)
			}
		}
		out = append(out, run)
	}
	return out, nil
}

// ownerMemo is what a listing learns of each owner instance once, not once per
// record: a thousand runs of one server took a thousand flocks and two thousand
// reads of its lease file.
type ownerMemo struct {
	reg *runs.Registry
	by  map[string]owner
}

type owner struct {
	alive   bool
	lease   time.Time // its instance lease (zero: none)
	problem string    // why its lease was last not renewed
}

func (m *ownerMemo) of(id string) owner {
	if o, ok := m.by[id]; ok {
		return o
	}
	o := owner{lease: m.reg.OwnerLease(id), alive: m.reg.InstanceAlive(id)}
	if o.alive {
		o.problem = m.reg.LeaseProblem(id)
	}
	if m.by == nil {
		m.by = map[string]owner{}
	}
	m.by[id] = o
	return o
}

// leaseNote is Run.LeaseNote for a live run's lease expiring at until: "" while it
// holds.
func leaseNote(until time.Time, ownerAlive bool, problem string, now time.Time) string {
	if now.Before(until) {
		return ""
	}
	ago := now.Sub(until).Round(time.Second)
	switch {
	case !ownerAlive:
		return fmt.Sprintf("expired %s ago", ago)
	case problem != "":
		return fmt.Sprintf("lease not renewed (%s)", problem)
	}
	return fmt.Sprintf("lease not renewed (its owner lives, but has not renewed it for %s)", ago)
}

// WriteJSON writes rs and the registry's counters as one indented document.
func WriteJSON(w io.Writer, rs []Run, totals runs.Metrics) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(Doc{rs, totals})
}

// WriteTable writes rs as an aligned table with a header line.
func WriteTable(w io.Writer, rs []Run) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	wts := slices.ContainsFunc(rs, func(r Run) bool { return r.Worktree != nil })
	fmt.Fprintln(tw, header+map[bool]string{true: "\tBRANCH"}[wts])
	for _, r := range rs {
		if wts {
			fmt.Fprintln(tw, row(r)+"\t"+runs.Printable(BranchCell(r.Record)))
			continue
		}
		fmt.Fprintln(tw, row(r))
	}
	return tw.Flush()
}

// BranchCell is the BRANCH column, there when a run has a worktree: its branch and
// its changes against its base when last counted ("corral/fix +12 −3"); "-" for a
// run without one.
func BranchCell(r runs.Record) string {
	if r.Worktree == nil {
		return "-"
	}
	s := r.Worktree.Branch
	if d := r.Diff; d != nil {
		s += fmt.Sprintf(" +%d −%d", d.Added, d.Removed)
	}
	return s + finishedNote(r.Finished)
}

// finishedNote says what finishing the run's worktree did: " (merged into main,
// removed)", " (removed, work discarded, branch deleted)"; "" before it was finished.
func finishedNote(f *workspace.Finished) string {
	if f == nil {
		return ""
	}
	var what []string
	if f.Into != "" {
		what = append(what, "merged into "+f.Into)
	}
	if f.Removed {
		what = append(what, "removed")
	}
	if f.Discarded != "" { // --force threw work away: the figures are not on any branch
		what = append(what, "work discarded")
	}
	if f.BranchDeleted {
		what = append(what, "branch deleted")
	}
	if len(what) == 0 {
		return ""
	}
	return " (" + strings.Join(what, ", ") + ")"
}

// header is the table's columns, row one run's cells, tab-separated.
const header = "ID\tNAME\tKIND\tSTATE\tAGENT\tREASON\tPID\tOWNER\tLEASE\tAGE"

func row(r Run) string {
	owner, lease := "-", "-"
	if r.State != runs.Exited {
		owner = r.OwnerInstanceID + map[bool]string{true: " (alive)", false: " (dead)"}[r.OwnerAlive]
		lease = time.Until(r.LeaseExpiresAt).Round(time.Second).String()
		if r.LeaseNote != "" {
			lease = runs.Printable(r.LeaseNote)
		}
	}
	reason := r.Reason.String()
	if reason == "" {
		reason = "-"
	}
	p := runs.Printable
	state := stateCell(r.Record)
	if len(r.WaitingFor) > 0 {
		if r.OwnerInstanceID == "" { // listed from its server, without a record
			owner, lease = "-", "-"
		}
		state = "waiting for " + waitingNames(r.WaitingFor)
	}
	return fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s", p(r.ID), p(r.Name), p(string(r.Backend)), p(state),
		p(agentCell(r.Record)), reason, r.PID, p(owner), lease, time.Since(r.CreatedAt).Round(time.Second))
}

// stateCell is the STATE column: the run's state, or a service's (ServiceState).
func stateCell(r runs.Record) string {
	if s := ServiceState(r.State, r.Service, time.Now()); s != "" {
		return s
	}
	return r.State.String()
}

// ServiceState is a live service's state as ls and graph say it at now: its
// readiness while it runs ("ready", "starting", "unready") and, between two attempts,
// its restarts in its budget and when the next attempt starts ("restarting 2/5 in
// 4s"); "" for anything else.
func ServiceState(st runs.State, svc *runs.ServiceInfo, now time.Time) string {
	switch {
	case svc == nil:
		return ""
	case st == runs.Running && svc.Ready != "":
		return string(svc.Ready)
	case st != runs.Restarting:
		return ""
	}
	s := "restarting"
	if svc.MaxRestarts > 0 {
		s += fmt.Sprintf(" %d/%d", svc.Restarts, svc.MaxRestarts)
	}
	if !svc.NextAt.IsZero() {
		left := max(svc.NextAt.Sub(now), 0)
		s += fmt.Sprintf(" in %ds", (left+time.Second-1)/time.Second) // up, as a countdown: 0s only once due
	}
	return s
}

// agentCell is the AGENT column: the agent and, while the run lives, its state with
// the glyph the UI's run list draws ("claude ! waiting", "codex unknown"); the agent
// alone once the run ended (its last state says nothing any more); "-" for a run
// that is no agent, as every empty cell of the table. A mode in which the agent will
// not ask follows its state ("claude ✓ idle (auto)").
func agentCell(r runs.Record) string {
	switch {
	case r.Agent == "":
		return "-"
	case r.State != runs.Running:
		return r.Agent
	case r.AgentState.Glyph() == "":
		return r.Agent + " " + r.AgentState.String() + agentstate.ModeMark(r.AgentMode)
	}
	return r.Agent + " " + r.AgentState.Glyph() + " " + r.AgentState.String() + agentstate.ModeMark(r.AgentMode)
}

// WriteDecisions writes corral reconcile's decisions: one JSON object a line with
// asJSON, else a tab-separated line each ("nothing to reconcile" for none).
func WriteDecisions(w io.Writer, ds []runs.Decision, asJSON bool) {
	enc := json.NewEncoder(w)
	for _, d := range ds {
		if asJSON {
			enc.Encode(d)
			continue
		}
		fmt.Fprintf(w, "%s\t%s\t%s\tpid %d\t%s\n", runs.Printable(d.ID), runs.Printable(d.Name), d.Decision, d.PID,
			runs.Printable(d.Detail))
	}
	if !asJSON && len(ds) == 0 {
		fmt.Fprintln(w, "nothing to reconcile")
	}
}

// waitingNames is "db, migrate".
func waitingNames(ds []runs.Dependency) string {
	names := make([]string, len(ds))
	for k, d := range ds {
		names[k] = d.Name
	}
	return strings.Join(names, ", ")
}
