// Package runs is Corral's supervisor core. It holds:
//
//   - the run: its Spec (spec.go, spec_json.go, fromconfig.go), its name (name.go), its
//     environment (env.go), stop signals by name (signal_*.go), and the one lifecycle
//     shared by PTY and pipe runs, starting → running → exiting → exited (state.go,
//     run.go, start.go: the first record committed before the program runs), with the
//     closed set of termination reasons; Info (info.go) is what observers see of it;
//   - the Supervisor (supervisor.go) that starts, stops and reports on runs, and what
//     a front end does with them (frontend.go: input, keys, paste, pause, resize, log
//     reads);
//   - output capture (run_output.go, output.go) into the run's transcript and
//     asciicast v2 recording (written by internal/statefile);
//   - the end of a run (run_end.go): the single finalizer and the escalation it asks
//     reaper for;
//   - events (events.go, eventlog.go, eventlog_tail.go): subscriptions and
//     events.jsonl; the counters (metrics.go); the heartbeat that renews the leases
//     (beat.go); the viewers: what each attached UI was sent, looks at and its window
//     size (viewers.go);
//   - the Registry (registry*.go): durable records in the state dir (record_json.go reads
//     older ones), the state dir's identity, leases and instance locks, every state
//     file opened safely through its directory held open (internal/statefile);
//     persist.go writes each run's record through it, behind the run when the lock
//     is busy;
//   - reconciliation (reconcile.go, reconcile_later.go): what a Corral does with the
//     records of dead instances;
//   - escape detection (escape.go, escape_attribute.go, escapees.go): processes that
//     leave a run's session, attributed to it; process trees for the UI (trees.go);
//   - the report of an ended run (report.go).
//
// Every way a run can be stopped (manual cancel, the overall and no-output deadlines,
// shutdown) cancels the run's context with a typed cause through one method, stop; the
// first cause that moves a run from running to exiting is its reason. One goroutine per
// run (monitor) observes the root's exit without reaping it, so its pid stays pinned
// while the session is cleaned, and then runs the finalizer exactly once: terminate the
// session (reaper.Terminate), reap the root, drain the output (bounded), record the
// result, publish the end.
//
// The Supervisor uses the Registry only through a narrow API (emit, Instance, now,
// transact and the fenced create, update, remove and heartbeat), and owns escape
// detection as one value (escapeDetector, nil when off).
//
// The core never calls into a UI: observers Subscribe and receive events through a
// queue that never blocks the supervisor (lifecycle events are kept, output
// notifications are coalesced per run).
package runs
