package ui

import (
	"slices"
	"strconv"
	"strings"

	"corral/runs"
)

// The run list's rows of configured runs not started yet (pending.go): listing,
// starting, giving way to the run a start made, listing a removed run again.

// SetNotStarted lists the configured runs not started yet, after the runs in the
// order given.
func (l *RunList) SetNotStarted(specs []runs.Spec) {
	l.pending = make([]pendingRun, len(specs))
	for i, s := range specs {
		l.pending[i] = pendingRun{key: l.pendingKey(), spec: s}
	}
	if l.sel == "" && len(l.pending) > 0 {
		l.sel = l.pending[0].key
	}
	l.follow()
	l.ver++
}

// pendingKey is a new pending row's key.
func (l *RunList) pendingKey() string {
	k := pendingPrefix + strconv.Itoa(l.pendSeq)
	l.pendSeq++
	return k
}

// SetConfigured sets the config's runs (autostart or not): a removed run started
// from one of them goes back to a not-started row.
func (l *RunList) SetConfigured(specs []runs.Spec) { l.configured = specs }

// Configured reports whether a run was started from an entry of the config.
func (l RunList) Configured(info runs.Info) bool {
	_, ok := l.configuredSpec(info)
	return ok
}

// configuredSpec is the config entry a run was started from: same name, command and
// kind (what corral --config compares to tell whether it runs already).
func (l RunList) configuredSpec(info runs.Info) (runs.Spec, bool) {
	for _, s := range l.configured {
		if info.Name == s.DisplayName() && info.Spec.Shell == s.Shell &&
			slices.Equal(info.Spec.Argv, s.Argv) && info.Spec.PTY == s.PTY {
			return s, true
		}
	}
	return runs.Spec{}, false
}

// unstart lists a removed run's config entry as not started again, unless a row
// shows that entry already (another run of it, or its pending row); it returns the
// new row's key.
func (l *RunList) unstart(info runs.Info) (string, bool) {
	s, ok := l.configuredSpec(info)
	if !ok {
		return "", false
	}
	for _, r := range l.runs {
		if _, same := l.configuredSpec(r); same && r.Name == info.Name {
			return "", false
		}
	}
	for _, p := range l.pending {
		if p.spec.DisplayName() == s.DisplayName() {
			return "", false
		}
	}
	p := pendingRun{key: l.pendingKey(), spec: s}
	l.pending = append(l.pending, p)
	return p.key, true
}

// Pending returns a pending run by key.
func (l RunList) Pending(key string) (pendingRun, bool) {
	if i := l.pendingIndex(key); i >= 0 {
		return l.pending[i], true
	}
	return pendingRun{}, false
}

func (l RunList) pendingIndex(key string) int {
	if !strings.HasPrefix(key, pendingPrefix) {
		return -1
	}
	for i := range l.pending {
		if l.pending[i].key == key {
			return i
		}
	}
	return -1
}

// SetStarting marks a pending run whose spawn is on its way (or no longer).
func (l *RunList) SetStarting(key string, on bool) {
	if i := l.pendingIndex(key); i >= 0 && l.pending[i].starting != on {
		l.pending[i].starting = on
		l.ver++
	}
}

// Started records the run a pending run's spawn made; the row gives way to the run
// now if it is listed, or when it is (Upsert).
func (l *RunList) Started(key, runID string) {
	if i := l.pendingIndex(key); i >= 0 {
		l.pending[i].runID = runID
	}
	if l.index(runID) >= 0 {
		l.replacePending(runID)
	}
}

// replacePending drops the pending row the run id was started from; if it was
// selected, the run is.
func (l *RunList) replacePending(runID string) {
	for i, p := range l.pending {
		if p.runID != runID {
			continue
		}
		at := l.shownAt(p.key)
		l.pending = append(l.pending[:i:i], l.pending[i+1:]...)
		if l.sel == p.key {
			l.sel = runID
		}
		l.removed(p.key, at)
		return
	}
}
