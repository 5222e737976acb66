package runs

// The readiness of a run, as its dependents' "ready" condition sees it. Replaced at
// merge by the readiness probes: depReady by the current attempt being ready, and
// depMayRestart by the restart policy still having an attempt to make.

// depReady reports whether the run's readiness probe passes now. Without probes no
// run is ever ready (a config refuses "ready" on a run with no probe).
func (r *run) depReady() bool { return r.sup.readyHook != nil && r.sup.readyHook(r.id) }

// depMayRestart reports whether the ended run will run again under its restart
// policy, so that a condition it did not meet may still hold. Without restart
// policies an ended run stays ended.
func (r *run) depMayRestart() bool { return false }
