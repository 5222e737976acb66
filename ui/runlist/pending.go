package runlist

import (
	"slices"
	"strconv"
	"strings"

	"corral/runs"
)

// The run list's rows of configured runs not started yet (ui/pending.go says what
// they are): listing, starting, giving way to the run a start made, listing a removed
// run again.

// pendingPrefix starts a pending row's key. Run ids name files in the state dir, so
// none contains "/" and a key never collides with a run's id.
const pendingPrefix = "pending/"

// Pending is one configured run not started yet.
type Pending struct {
	Key      string // its row's key: pendingPrefix + a number never given twice
	Spec     runs.Spec
	Starting bool   // its spawn is on its way
	runID    string // the run the spawn made, until that run is listed
}

// SetNotStarted lists the configured runs not started yet, after the runs in the
// order given.
func (l *List) SetNotStarted(specs []runs.Spec) {
	l.pending = make([]Pending, len(specs))
	for i, s := range specs {
		l.pending[i] = Pending{Key: l.pendingKey(), Spec: s}
	}
	if l.sel == "" && len(l.pending) > 0 {
		l.sel = l.pending[0].Key
	}
	l.follow()
	l.ver++
}

// pendingKey is a new pending row's key.
func (l *List) pendingKey() string {
	k := pendingPrefix + strconv.Itoa(l.pendSeq)
	l.pendSeq++
	return k
}

// SetConfigured sets the config's runs (autostart or not): a removed run started
// from one of them goes back to a not-started row.
func (l *List) SetConfigured(specs []runs.Spec) { l.configured = specs }

// Configured reports whether a run was started from an entry of the config.
func (l List) Configured(info runs.Info) bool {
	_, ok := l.configuredSpec(info)
	return ok
}

// configuredSpec is the config entry a run was started from: same name, command and
// kind (what corral --config compares to tell whether it runs already).
func (l List) configuredSpec(info runs.Info) (runs.Spec, bool) {
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
func (l *List) unstart(info runs.Info) (string, bool) {
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
		if p.Spec.DisplayName() == s.DisplayName() {
			return "", false
		}
	}
	p := Pending{Key: l.pendingKey(), Spec: s}
	l.pending = append(l.pending, p)
	return p.Key, true
}

// Pending returns a pending run by key.
func (l List) Pending(key string) (Pending, bool) {
	if i := l.pendingIndex(key); i >= 0 {
		return l.pending[i], true
	}
	return Pending{}, false
}

func (l List) pendingIndex(key string) int {
	if !strings.HasPrefix(key, pendingPrefix) {
		return -1
	}
	for i := range l.pending {
		if l.pending[i].Key == key {
			return i
		}
	}
	return -1
}

// SetStarting marks a pending run whose spawn is on its way (or no longer).
func (l *List) SetStarting(key string, on bool) {
	if i := l.pendingIndex(key); i >= 0 && l.pending[i].Starting != on {
		l.pending[i].Starting = on
		l.ver++
	}
}

// Started records the run a pending run's spawn made; the row gives way to the run
// now if it is listed, or when it is (Upsert).
func (l *List) Started(key, runID string) {
	if i := l.pendingIndex(key); i >= 0 {
		l.pending[i].runID = runID
	}
	if l.index(runID) >= 0 {
		l.replacePending(runID)
	}
}

// replacePending drops the pending row the run id was started from; if it was
// selected, the run is.
func (l *List) replacePending(runID string) {
	for i, p := range l.pending {
		if p.runID != runID {
			continue
		}
		at := l.shownAt(p.Key)
		l.pending = append(l.pending[:i:i], l.pending[i+1:]...)
		if l.sel == p.Key {
			l.sel = runID
		}
		l.removed(p.Key, at)
		return
	}
}
