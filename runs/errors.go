package runs

import (
	"errors"
	"fmt"

	"corral/runs/internal/statefile"
)

var (
	// ErrUnknownRun: no run with that id.
	ErrUnknownRun = errors.New("no such run")
	// ErrBadSpec: the spec cannot be run (no command, both argv and shell, …).
	ErrBadSpec = errors.New("invalid run spec")
	// ErrNotRunning: the operation needs a live run.
	ErrNotRunning = errors.New("run is not running")
	// ErrNoReadyProbe: waiting for readiness of a run with no readiness probe.
	ErrNoReadyProbe = errors.New("run has no readiness probe (ready = { … } in its [[run]])")
	// ErrNotEnded: the operation needs an ended run.
	ErrNotEnded = errors.New("run has not ended")
	// ErrShutdown: the supervisor is shutting down and accepts no new runs.
	ErrShutdown = errors.New("supervisor is shutting down")
	// ErrRegistry: a run's first record could not be written, so the run was not
	// started (its program never ran): Corral's failure, not the program's.
	ErrRegistry = errors.New("registry")
	// ErrCorruptRecord: a registry record that does not parse; it is set aside.
	ErrCorruptRecord = errors.New("corrupt run record")
	// ErrNotRegular: a state-dir file that is a FIFO, device, directory, …; never read.
	ErrNotRegular = statefile.ErrNotRegular
	// ErrSymlinkDir: a directory of the state dir (runs/, logs/, …) is a symbolic
	// link; Corral follows none inside its state dir (one would have it read or write
	// files elsewhere).
	ErrSymlinkDir = statefile.ErrSymlinkDir
	// ErrTooLarge: a state-dir file over its size cap; never read whole.
	ErrTooLarge = statefile.ErrTooLarge
	// ErrBadID: a run or instance id read from disk that is not one Corral makes; no
	// path is ever built from it.
	ErrBadID = errors.New("invalid id")
	// ErrLeaseLost: another instance holds the run's lease now.
	ErrLeaseLost = errors.New("lease lost")
	// ErrAdopted: an adopted run has no terminal; only signals reach it.
	ErrAdopted = errors.New("run is adopted: no terminal I/O")
	// ErrNoScreen: a pipe run, or a supervisor that keeps no screens.
	ErrNoScreen = errors.New("run has no screen (a pipe run's output is in corral log)")
	// ErrNoAgent: the run is no agent whose state Corral follows.
	ErrNoAgent = errors.New("run is not an agent Corral knows (corral agents lists them)")
	// ErrPaused / ErrNotPaused: pause and resume are not idempotent toggles.
	ErrPaused    = errors.New("run is already paused")
	ErrNotPaused = errors.New("run is not paused")
	// ErrNoWorktree: diff and finish need a run started with a worktree.
	ErrNoWorktree = errors.New("diff/finish need a run started with --worktree")
	// ErrFinished: the run's worktree was finished (removed) already.
	ErrFinished = errors.New("finished already")
	// ErrFinishing: a finish of the run is under way.
	ErrFinishing = errors.New("a finish of this run is under way")
	// ErrWorktreeInUse: another live run works in the worktree; it is not touched.
	ErrWorktreeInUse = errors.New("worktree in use by another run")
	// ErrConversationHeld: a restart would resume a conversation a live run holds.
	ErrConversationHeld = errors.New("its conversation is held by a live run")
)

// TransitionError is returned for an illegal move of the state machine.
type TransitionError struct {
	From, To State
}

func (e *TransitionError) Error() string {
	return fmt.Sprintf("illegal run state transition %s → %s", e.From, e.To)
}
