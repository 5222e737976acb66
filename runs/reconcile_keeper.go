package runs

import "corral/runs/keeper"

// Runs kept by a live keeper. A keeper holds its runs' descriptors while no server of
// its state dir runs (its server died, or cannot start: see keeper.status), and its
// next server takes them back through it — same process, same terminal. Their leases
// expire meanwhile, as no server renews them; but they are not a dead server's:
// whoever reconciles in the state dir (corral reconcile, corral run, an in-process
// UI) leaves them to that keeper. Once it is gone, they are orphans like any other.

// keptByLiveKeeper says why rec is left to the live keeper of this state dir that keeps
// it, or "" when it is not: the record names no keeper, that keeper is gone (or
// another process holds the state dir's keeper lock), or this supervisor is that
// keeper's own server (Readopt took back what it keeps; what is left is this server's
// to reconcile).
func (s *Supervisor) keptByLiveKeeper(rec Record, v *procView) string {
	k := rec.Keeper
	if k == nil || (s.keptBy != nil && sameProcess(*s.keptBy, *k)) {
		return ""
	}
	st, ok := v.keeper(s.reg.Dir())
	if !ok || st.PID != k.PID {
		return ""
	}
	if alive, _ := k.Alive(); !alive { // the lock's holder reuses the pid of the one that kept it
		return ""
	}
	return st.KeptRun()
}

// keeper is the state dir's live keeper (keeper.Find), looked up once per pass.
func (v *procView) keeper(dir string) (keeper.Status, bool) {
	if !v.keeperRead {
		v.keeperRead = true
		v.keeperStatus, v.keeperAlive = keeper.Find(dir)
	}
	return v.keeperStatus, v.keeperAlive
}
