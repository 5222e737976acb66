package runs

import (
	"encoding/json"
	"time"

	"corral/reaper"
	"corral/runs/agentstate"
	"corral/runs/workspace"
	"corral/watchdog"
)

// Info is a run's observable state: what Snapshot, Wait and events carry. It is a copy;
// changing it changes nothing.
type Info struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Kind  Kind   `json:"kind"`
	Spec  Spec   `json:"spec"`
	State State  `json:"state"`
	Seq   uint64 `json:"seq"` // increases with every change; lets a consumer drop stale copies
	// Host is the host whose server runs it, set by a client of several hosts
	// (client.Fleet; ARCHITECTURE.md, "Hosts"); a supervisor leaves it empty.
	Host string `json:"host,omitempty"`

	Reason   Reason `json:"reason,omitempty"`
	ExitCode *int   `json:"exit_code"`        // set when the root exited with a code
	Signal   int    `json:"signal,omitempty"` // set when the root died of a signal
	SpawnErr string `json:"spawn_error,omitempty"`
	// SetupErr is, for a run ended with setup-error, which setup step of its new
	// worktree failed and how, and where the worktree was kept.
	SetupErr string `json:"setup_error,omitempty"`
	// RecordErr is why the run's record in the state dir could not be written (a full
	// disk: the errno and the path), set once Corral gave up on a write and cleared by
	// a later one that lands. corral run warns of it and exits non-zero.
	RecordErr string `json:"record_error,omitempty"`

	PID         int                `json:"pid,omitempty"` // == pgid == sid: every run is its own session
	Fingerprint reaper.Fingerprint `json:"fingerprint"`
	Paused      bool               `json:"paused,omitempty"`
	Adopted     bool               `json:"adopted,omitempty"` // taken over from a dead instance: signals only
	Escapees    int                `json:"escapees,omitempty"`
	Cols        uint16             `json:"cols,omitempty"`
	// Cgroup is the run's cgroup (ARCHITECTURE.md, "Ownership"); "" when its session
	// bounds it.
	Cgroup string `json:"cgroup,omitempty"`
	// Shared counts the processes other runs passed to this one because it is
	// connected to them (a daemon several runs use: shared.go).
	Shared int `json:"shared,omitempty"`
	// Usage is what its cgroup's members have used (live, filled by Snapshot).
	Usage Usage  `json:"-"`
	Rows  uint16 `json:"rows,omitempty"`

	CreatedAt    time.Time `json:"created_at"`
	StartedAt    time.Time `json:"started_at"`
	EndedAt      time.Time `json:"ended_at"`
	LastOutputAt time.Time `json:"last_output_at"`

	Watchdog watchdog.State `json:"-"` // live, filled by Snapshot

	AgentStatus
	// AgentMode is the mode its agent will not ask in ("auto", "bypass permissions",
	// "approvals off", "YOLO": the rules' [[mode]]), from its flags or its screen; "" when
	// it asks. A run in it never shows waiting for a permission.
	AgentMode string `json:"agent_mode,omitempty"`
	// AgentBy is how the agent was recognised: "forced …" (named by --agent or the
	// config entry), "from the command (env … → claude)", or "from the foreground
	// process PID (…): its argv" (the program the PTY belongs to, read from /proc).
	AgentBy string `json:"agent_by,omitempty"`

	LeaseOwner     string    `json:"lease_owner,omitempty"` // instance holding the record's lease
	LeaseEpoch     uint64    `json:"lease_epoch,omitempty"`
	LeaseExpiresAt time.Time `json:"lease_expires_at"`
	// LeaseNotRenewed is why its owner's last renewal of the lease failed (a full
	// disk refused the lease file: the error), "" once a renewal lands; corral ls says
	// it as "lease not renewed (why)".
	LeaseNotRenewed string  `json:"lease_not_renewed,omitempty"`
	Cleanup         Cleanup `json:"cleanup"`

	Transcript       string `json:"transcript,omitempty"`        // PTY output, or a pipe run's stdout
	StderrTranscript string `json:"stderr_transcript,omitempty"` // a pipe run's stderr
	Cast             string `json:"cast,omitempty"`              // a PTY run's asciicast v2 recording

	// The run's git worktree (package runs/workspace), nil when it has none, and its
	// changes against the base when last counted (refreshed when something happened,
	// never by polling git).
	Worktree *workspace.Worktree `json:"worktree,omitempty"`
	Diff     *workspace.Stat     `json:"diff,omitempty"`
	// SessionID is the agent CLI's conversation id, pinned at launch or learnt from
	// what the CLI reported; a restore resumes it. RestoredFrom is the run whose
	// record a restore started this one from.
	SessionID    string `json:"session_id,omitempty"`
	RestoredFrom string `json:"restored_from,omitempty"`
	// Conversed: its conversation (SessionID) has had a turn, so the CLI keeps it: a
	// start of the same command line again (a service's next attempt, a restart of
	// the ended run) resumes it, where pinning the same id again would be refused
	// (Claude Code: "Session ID … is already in use").
	Conversed bool `json:"conversed,omitempty"`
	// Finished is what finishing the run's worktree did (Supervisor.Finish): nil
	// until it was finished.
	Finished *workspace.Finished `json:"finished,omitempty"`
	// Service is a service's attempts, restart budget and probes (service.go); nil
	// for a run with neither a restart policy nor a probe.
	Service *ServiceInfo `json:"service,omitempty"`
	// RestoredBy is the run a restore started from this (lost) run's record.
	RestoredBy string `json:"restored_by,omitempty"`

	// WaitingFor are the dependencies whose condition does not hold yet, while the
	// run waits to start (state starting, no process); empty once it started or ended.
	WaitingFor []Dependency `json:"waiting_for,omitempty"`
	// DependencyErr is, for a run ended with dependency-failed, which dependency can
	// never meet its condition and why ("migrate exited 3"); for dependency-lost, which
	// one stopped meeting it.
	DependencyErr string `json:"dependency_error,omitempty"`
}

// AgentStatus is the agent a run's rules are for ("" when it is not an agent, or
// nothing detects it) and that agent's state as its screen shows it (runs/agentstate):
// since when, by which rule. A run's Info, its Record and its Report carry it.
type AgentStatus struct {
	Agent           string           `json:"agent,omitempty"`
	AgentState      agentstate.State `json:"agent_state"`
	AgentStateSince time.Time        `json:"agent_state_since,omitzero"`
	AgentRule       string           `json:"agent_rule,omitempty"`
}

// Waiting reports whether the run waits for its dependencies, without a process.
func (i Info) Waiting() bool { return len(i.WaitingFor) > 0 && i.State == Starting }

// Cleanup is what ending the run took.
type Cleanup struct {
	Steps         []reaper.Step `json:"steps"`
	Killed        int           `json:"killed"`
	Hard          int           `json:"hard"` // of Killed, how many needed SIGKILL
	VerifiedEmpty bool          `json:"verified_empty"`
	Remaining     int           `json:"remaining,omitempty"`
	OutputForced  bool          `json:"output_forced,omitempty"` // the drain hit its bound
	// Ended names what the cleanup ended (at most reaper.MaxNamed; Killed counts them
	// all) and the shared daemons it passed on instead, each with how.
	Ended []EndedProcess `json:"ended,omitempty"`
}

// EndedProcess is one process a run's cleanup ended or passed on, for its report: its
// pid and start time, its command line as first seen (display only), and how.
type EndedProcess struct {
	PID       int      `json:"pid"`
	StartTime uint64   `json:"start_time"`
	Argv      []string `json:"argv,omitempty"`
	How       EndedHow `json:"how"`
	To        string   `json:"to,omitempty"` // passed-on: the run it went to
}

// EndedHow is how a cleanup ended a process.
type EndedHow string

// The ways, as JSON and the UI write them.
const (
	EndedMember   EndedHow = "member"    // a member of the run (its session or its cgroup), ended at cleanup
	EndedEscapee  EndedHow = "escapee"   // it had left the run's session or cgroup; ended at cleanup
	EndedPassedOn EndedHow = "passed-on" // a shared daemon another run uses: passed to that run, not ended
)

// MarshalJSON writes no steps as [], never null: ls --json wrote null where
// run --json wrote [] for the same thing (review).
func (c Cleanup) MarshalJSON() ([]byte, error) {
	type plain Cleanup // without this method
	if c.Steps == nil {
		c.Steps = []reaper.Step{}
	}
	return json.Marshal(plain(c))
}

// Ended reports whether the run is over.
func (i Info) Ended() bool { return i.State == Exited }

// Duration is how long the run ran (zero until it started).
func (i Info) Duration() time.Duration {
	if i.StartedAt.IsZero() {
		return 0
	}
	if i.EndedAt.IsZero() {
		return time.Since(i.StartedAt)
	}
	return i.EndedAt.Sub(i.StartedAt)
}

// Usage is what a run's cgroup has used: CPU time, and memory where the cgroup has
// the memory controller (-1 otherwise). Zero for a run on its session. Known says it
// was read (a snapshot reads it only for the runs someone looks at): JSON writes
// what is not known as nothing rather than a zero or a -1.
type Usage struct {
	CPU    time.Duration
	Memory int64
	Known  bool
}
