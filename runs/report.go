package runs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"

	"corral/reaper"
	"corral/runs/agentstate"
)

// Report is the machine-readable account of one ended run (corral run --json).
type Report struct {
	ID         string        `json:"id"`
	Name       string        `json:"name"`
	Kind       Kind          `json:"kind"`
	Reason     Reason        `json:"reason"`
	ExitCode   *int          `json:"exit_code"`
	Signal     *string       `json:"signal"`
	PID        int           `json:"pid"`
	PGID       int           `json:"pgid"`
	SID        int           `json:"sid"`
	StartedAt  time.Time     `json:"started_at"`
	EndedAt    time.Time     `json:"ended_at"`
	DurationMS int64         `json:"duration_ms"`
	Cleanup    ReportCleanup `json:"cleanup"`
	// CleanupMode is how the run was owned: "cgroup" (Cgroup its path: a process that
	// left the session stayed a member, contained, and is no escapee) or "session".
	CleanupMode string    `json:"cleanup_mode"`
	Cgroup      string    `json:"cgroup,omitempty"`
	Escapees    []Escapee `json:"escapees"` // fingerprint and argv of each
	OutputTail  string    `json:"output_tail"`
	SpawnErr    string    `json:"spawn_error,omitempty"`
	SetupErr    string    `json:"setup_error,omitempty"` // the failed setup step (Info.SetupErr)
	// RecordErr: the run's record could not be written (Info.RecordErr).
	RecordErr string `json:"record_error,omitempty"`
	// The agent and its last state, for runs an agent's rules followed (none for
	// others: the report's schema is corral run's, and MarshalJSON leaves an unknown
	// state out).
	AgentStatus
}

// MarshalJSON writes the report with its agent's state left out when it is unknown
// (as for a run no agent's rules followed), where a run's Info and Record write it.
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report // without this method
	b, err := json.Marshal(plain(r))
	if err != nil || r.AgentState != agentstate.Unknown {
		return b, err
	}
	// The key is at the top level, after others, once: a string value holding it
	// would have its quotes escaped.
	return bytes.Replace(b, []byte(`,"agent_state":"`+agentstate.Unknown.String()+`"`), nil, 1), nil
}

// ReportCleanup is the cleanup part of a Report.
type ReportCleanup struct {
	Steps         []reaper.Step `json:"steps"`
	Killed        int           `json:"killed"`
	VerifiedEmpty bool          `json:"verified_empty"`
	// Ended names what the cleanup ended and how (Cleanup.Ended): what "killed"
	// counts, each with its pid and command line, and the shared daemons passed on.
	Ended []EndedProcess `json:"ended"`
}

// NewReport builds the report of an ended run from its info, its escapees and its
// output tail.
func NewReport(i Info, escapees []Escapee, tail []byte) Report {
	rep := Report{
		ID: i.ID, Name: i.Name, Kind: i.Kind, Reason: i.Reason, ExitCode: i.ExitCode,
		PID: i.PID, PGID: i.PID, SID: i.PID, // every run is its own session
		StartedAt: i.StartedAt, EndedAt: i.EndedAt, DurationMS: i.Duration().Milliseconds(),
		Cleanup: ReportCleanup{Steps: i.Cleanup.Steps, Killed: i.Cleanup.Killed,
			VerifiedEmpty: i.Cleanup.VerifiedEmpty, Ended: append([]EndedProcess{}, i.Cleanup.Ended...)},
		CleanupMode: cleanupMode(i), Cgroup: i.Cgroup,
		Escapees:   append([]Escapee{}, escapees...),
		OutputTail: string(tail),
		SpawnErr:   i.SpawnErr, SetupErr: i.SetupErr, RecordErr: i.RecordErr,
		AgentStatus: i.AgentStatus,
	}
	if rep.Cleanup.Steps == nil {
		rep.Cleanup.Steps = []reaper.Step{}
	}
	if i.Signal != 0 {
		name := SignalName(i.Signal)
		rep.Signal = &name
	}
	return rep
}

// Printable is s for a terminal: control characters (an escape sequence in a name
// read from a forged record) are shown as \xNN, never sent.
func Printable(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Summary is the one line corral run prints when a run ends:
//
//	<name> ended: <reason> (exit <code>|signal <SIG>) after <duration>; cleanup: <steps>, killed <n>, verified empty
func Summary(i Info) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s ended: %s", Printable(i.Name), i.Reason)
	switch {
	case i.Reason == SpawnError && i.SpawnErr != "":
		// Before the signal a held child got for it: "spawn-error (signal SIGTERM)" hid
		// a full disk.
		fmt.Fprintf(&b, " (%s)", i.SpawnErr)
	case i.Reason == SetupError && i.SetupErr != "":
		fmt.Fprintf(&b, " (%s)", Printable(i.SetupErr))
	case (i.Reason == DependencyFailed || i.Reason == DependencyLost) && i.DependencyErr != "":
		fmt.Fprintf(&b, ": %s", Printable(i.DependencyErr))
	case i.ExitCode != nil:
		fmt.Fprintf(&b, " (exit %d)", *i.ExitCode)
	case i.Signal != 0:
		fmt.Fprintf(&b, " (signal %s)", SignalName(i.Signal))
	case i.SpawnErr != "":
		fmt.Fprintf(&b, " (%s)", i.SpawnErr)
	}
	fmt.Fprintf(&b, " after %s; cleanup: %s, killed %d, ", i.Duration().Round(time.Millisecond),
		StepsText(i.Cleanup.Steps), i.Cleanup.Killed)
	if i.Cleanup.VerifiedEmpty {
		b.WriteString("verified empty")
	} else {
		fmt.Fprintf(&b, "NOT verified empty (%d left)", i.Cleanup.Remaining)
	}
	if svc := i.Service; svc != nil && svc.Attempt > 1 { // a service: the last of its attempts
		fmt.Fprintf(&b, "; attempt %d", svc.Attempt)
		if svc.GaveUp != "" {
			fmt.Fprintf(&b, ", %s", Printable(svc.GaveUp))
		}
	}
	return b.String()
}

// RecordWarning is the line corral run and corral wait print after the summary when
// the run's record could not be written (a full disk), or "". A run that could not be
// started for it says so in its summary already.
func RecordWarning(i Info) string {
	if i.RecordErr == "" || i.Reason == SpawnError {
		return ""
	}
	return fmt.Sprintf("warning: the record of %s (%s) in the state dir could not be written: %s",
		Printable(i.Name), i.ID, i.RecordErr)
}

// StepsText is the cleanup steps as the summary line writes them: "hup+term", "none".
func StepsText(steps []reaper.Step) string {
	if len(steps) == 0 {
		return "none"
	}
	s := make([]string, len(steps))
	for i, st := range steps {
		s[i] = string(st)
	}
	return strings.Join(s, "+")
}
