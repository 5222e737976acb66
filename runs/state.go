package runs

import (
	"fmt"
	"slices"
)

// State is where a run is in its lifecycle.
type State int

const (
	Starting State = iota // spec accepted, process not yet started or not yet committed
	Running               // process started and recorded
	Exiting               // reason decided; the session is being cleaned
	Exited                // verified empty (or never started); terminal
	// Restarting: an attempt ended (verified empty) and its restart policy starts
	// another after a backoff; the run has no process meanwhile.
	Restarting
)

var stateNames = [...]string{"starting", "running", "exiting", "exited", "restarting"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", int(s))
}

// MarshalText writes the state's name, so JSON carries "running", not 1.
func (s State) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a state's name.
func (s *State) UnmarshalText(b []byte) error {
	for i, n := range stateNames {
		if n == string(b) {
			*s = State(i)
			return nil
		}
	}
	return fmt.Errorf("unknown state %q", b)
}

// legal lists the moves of the state machine. Starting may skip to Exited when the
// process never started (spawn error, cancelled before start); it goes through Exiting
// when a process exists that must be cleaned.
var legal = map[State][]State{
	Starting:   {Running, Exiting, Exited, Restarting},
	Running:    {Exiting},
	Exiting:    {Exited, Restarting},
	Restarting: {Starting, Exited},
}

// to checks a move and returns the new state or a *TransitionError.
func (s State) to(next State) (State, error) {
	if !slices.Contains(legal[s], next) {
		return s, &TransitionError{From: s, To: next}
	}
	return next, nil
}

// Reason is why a run ended: a closed set, exactly one per run (the first cause that
// moves it from running to exiting).
type Reason int

const (
	ReasonNone         Reason = iota // not ended
	Exit                             // ended on its own
	Signal                           // killed by a signal Corral did not send
	ManualCancel                     // the operator cancelled it
	OverallTimeout                   // the overall deadline passed
	NoOutputTimeout                  // the no-output deadline passed
	SpawnError                       // the process could not be started
	OwnershipEscape                  // a descendant left the run's session
	SupervisorShutdown               // Corral quit or was told to stop
	OrphanReaped                     // terminated by reconciliation after its owner died
	Lost                             // owner died; the process was gone at reconciliation
	SetupError                       // a setup step of its new worktree failed; the program never ran
	AliveFailed                      // its liveness probe failed its failure threshold
	ManualRestart                    // the operator restarted it (corral restart, R): another attempt follows
	DependencyFailed                 // a dependency's condition can never hold; the program never ran
	DependencyLost                   // a dependency it started after lost its condition (on_dependency_lost = "restart")
)

var reasonNames = [...]string{
	"", "exit", "signal", "manual-cancel", "overall-timeout", "no-output-timeout",
	"spawn-error", "ownership-escape", "supervisor-shutdown", "orphan-reaped", "lost",
	"setup-error", "alive-failed", "manual-restart", "dependency-failed", "dependency-lost",
}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", int(r))
}

// MarshalText writes the reason's name.
func (r Reason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a reason's name; unknown names are an error, never a guess.
func (r *Reason) UnmarshalText(b []byte) error {
	for i, n := range reasonNames {
		if n == string(b) {
			*r = Reason(i)
			return nil
		}
	}
	return fmt.Errorf("unknown reason %q", b)
}

// cause is the typed value a run's context is cancelled with.
type cause struct{ reason Reason }

func (c cause) Error() string { return c.reason.String() }
