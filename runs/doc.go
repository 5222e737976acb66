// Package runs is Corral's supervisor core: the run Spec, the one lifecycle shared by
// PTY and pipe runs (starting → running → exiting → exited), the closed set of
// termination reasons, the single finalizer, and output capture.
//
// Every way a run can be stopped (manual cancel, the overall and no-output deadlines,
// shutdown) cancels the run's context with a typed cause through one method, stop; the
// first cause that moves a run from running to exiting is its reason. One goroutine per
// run (monitor) observes the root's exit without reaping it, so its pid stays pinned
// while the session is cleaned, and then runs the finalizer exactly once: terminate the
// session (reaper.Terminate), reap the root, drain the output (bounded), record the
// result, publish the end.
//
// The core never calls into a UI: observers Subscribe and receive events through a
// queue that never blocks the supervisor (lifecycle events are kept, output
// notifications are coalesced per run).
package runs
