package ui

import (
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/agentstate"
	"corral/watchdog"
)

// RunList is the run list pane: one row per run with its name, kind, state, pid, age,
// watchdog countdown, reason badge, escape/adopted markers and attention marker, then
// one row per configured run not started yet (pending.go).
type RunList struct {
	c          *Common
	runs       []runs.Info
	pending    []pendingRun
	sel        string // the selected row's key: a run's id or a pending run's key
	attention  map[string]bool
	slot       map[string]string // a restarted run's id → the row it takes (Replace)
	configured []runs.Spec       // the config's runs: a removed one is listed again (pending.go)
	pendSeq    int               // the next pending row's key number
	offset     int               // first visible row
	w, h       int
	now        time.Time
	focused    bool

	ver   uint64 // bumped by every change of what is shown
	cache *viewCache[listKey]
}

// listKey is what the list's rendering depends on.
type listKey struct {
	ver  uint64
	sec  int64
	w, h int
}

// ListKeyMap is the run list's keys.
type ListKeyMap struct {
	Up, Down key.Binding
}

// DefaultListKeyMap returns the run list's default keys.
func DefaultListKeyMap() ListKeyMap {
	return ListKeyMap{Up: bind("select up", "up", "k"), Down: bind("select down", "down", "j")}
}

// NewRunList returns a list of the given runs, the first one selected.
func NewRunList(c *Common, initial []runs.Info) RunList {
	l := RunList{c: c, attention: map[string]bool{}, slot: map[string]string{}, cache: &viewCache[listKey]{}}
	for _, i := range initial {
		l.Upsert(i)
	}
	return l
}

// SetSize sets the pane's outer size.
func (l *RunList) SetSize(w, h int) { l.w, l.h = w, h; l.follow(); l.ver++ }

// SetNow sets the clock countdowns and ages are shown against.
func (l *RunList) SetNow(t time.Time) { l.now = t }

// SetFocused marks the pane as the one keys go to.
func (l *RunList) SetFocused(f bool) {
	if f != l.focused {
		l.focused, l.ver = f, l.ver+1
	}
}

// Update moves the selection on the up and down keys.
func (l RunList) Update(msg tea.Msg) (RunList, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return l, nil
	}
	switch {
	case key.Matches(k, l.c.Keys.ListKeyMap.Up):
		l.move(-1)
	case key.Matches(k, l.c.Keys.ListKeyMap.Down):
		l.move(1)
	}
	return l, nil
}

func (l *RunList) move(d int) {
	if l.Len() == 0 {
		return
	}
	i := min(max(l.row(l.sel)+d, 0), l.Len()-1)
	l.Select(l.keyAt(i))
}

// Select selects a row by key (a run's id, a pending run's key) and clears its
// attention marker: it is being looked at.
func (l *RunList) Select(id string) {
	if l.row(id) < 0 {
		return
	}
	l.sel = id
	delete(l.attention, id)
	l.follow()
	l.ver++
}

// SelectedKey is the selected row's key ("" for none).
func (l RunList) SelectedKey() string { return l.sel }

// Selected returns the selected run; false also when the selection is a pending run.
func (l RunList) Selected() (runs.Info, bool) {
	if i := l.index(l.sel); i >= 0 {
		return l.runs[i], true
	}
	return runs.Info{}, false
}

// Run returns one run by id.
func (l RunList) Run(id string) (runs.Info, bool) {
	if i := l.index(id); i >= 0 {
		return l.runs[i], true
	}
	return runs.Info{}, false
}

// Runs returns the runs in list order, without the pending ones; the slice must not be
// changed.
func (l RunList) Runs() []runs.Info { return l.runs }

// Len is the number of rows: runs and pending runs.
func (l RunList) Len() int { return len(l.runs) + len(l.pending) }

// row is the row of a key, -1 if none.
func (l RunList) row(key string) int {
	if i := l.index(key); i >= 0 {
		return i
	}
	if i := l.pendingIndex(key); i >= 0 {
		return len(l.runs) + i
	}
	return -1
}

// keyAt is the key of row i.
func (l RunList) keyAt(i int) string {
	if i < len(l.runs) {
		return l.runs[i].ID
	}
	return l.pending[i-len(l.runs)].key
}

func (l RunList) index(id string) int {
	for i := range l.runs {
		if l.runs[i].ID == id {
			return i
		}
	}
	return -1
}

// Upsert adds a run or updates it. A copy older than the one held (by Seq) is dropped,
// except for its watchdog state, which only snapshots carry.
func (l *RunList) Upsert(info runs.Info) {
	i := l.index(info.ID)
	switch {
	case i < 0 && l.takeSlot(info):
	case i < 0:
		l.runs = append(l.runs, info)
		if l.sel == "" {
			l.sel = info.ID
		}
		l.replacePending(info.ID)
	case info.Seq < l.runs[i].Seq:
		if info.Watchdog != (watchdog.State{}) {
			l.runs[i].Watchdog = info.Watchdog
		}
	default:
		if info.Watchdog == (watchdog.State{}) {
			info.Watchdog = l.runs[i].Watchdog
		}
		l.runs[i] = info
	}
	l.ver++
}

// Replace makes run id take the row of the ended run old (R restarts in place,
// issue 14.8): now if id is listed already, else when it comes.
func (l *RunList) Replace(old, id string) {
	if i := l.index(id); i >= 0 {
		info := l.runs[i]
		l.runs = append(l.runs[:i:i], l.runs[i+1:]...)
		if l.sel == id {
			l.sel = old
		}
		l.slot[id] = old
		l.takeSlot(info)
		return
	}
	l.slot[id] = old
}

// Replacing reports whether a restarted run is still to take old's row.
func (l RunList) Replacing(old string) bool {
	for _, o := range l.slot {
		if o == old {
			return true
		}
	}
	return false
}

// takeSlot puts info in the row of the run it replaces, if it replaces one listed.
func (l *RunList) takeSlot(info runs.Info) bool {
	old, ok := l.slot[info.ID]
	delete(l.slot, info.ID)
	j := l.index(old)
	if !ok || j < 0 {
		return false
	}
	l.runs[j] = info
	delete(l.attention, old)
	if l.sel == old {
		l.sel = info.ID
	}
	l.ver++
	return true
}

// Remove drops a run; the selection moves to its neighbour, or to the not-started
// row a config run goes back to.
func (l *RunList) Remove(id string) {
	i := l.index(id)
	if i < 0 {
		return
	}
	info := l.runs[i]
	l.runs = append(l.runs[:i:i], l.runs[i+1:]...)
	delete(l.attention, id)
	if k, ok := l.unstart(info); ok && l.sel == id {
		l.sel = k
	}
	l.removed(id, i)
}

// removed moves the selection off a row that was at i and is gone.
func (l *RunList) removed(key string, i int) {
	if l.sel == key {
		l.sel = ""
		if n := l.Len(); n > 0 {
			l.sel = l.keyAt(min(i, n-1))
		}
	}
	l.follow()
	l.ver++
}

// SetAttention sets or clears a run's attention marker (never on the selected run).
func (l *RunList) SetAttention(id string, on bool) {
	if on && id == l.sel || l.attention[id] == on {
		return
	}
	if on {
		l.attention[id] = true
	} else {
		delete(l.attention, id)
	}
	l.ver++
}

// Attention reports whether a run has the attention marker.
func (l RunList) Attention(id string) bool { return l.attention[id] }

// Counts returns how many runs are live (not exited) and how many have the attention
// marker.
func (l RunList) Counts() (live, attention int) {
	for _, i := range l.runs {
		if !i.Ended() {
			live++
		}
	}
	return live, len(l.attention)
}

// follow scrolls so the selection is visible.
func (l *RunList) follow() {
	rows := max(l.h-2, 1)
	i := max(l.row(l.sel), 0)
	l.offset = min(max(l.offset, i-rows+1), i)
	l.offset = max(min(l.offset, l.Len()-rows), 0)
}

// rowAt is the key of the list row drawn y lines below the pane's top edge.
func (l RunList) rowAt(y int) (string, bool) {
	i := l.offset + y - 1 // the top edge is the frame
	if y < 1 || y > l.h-2 || i >= l.Len() {
		return "", false
	}
	return l.keyAt(i), true
}

// NextWaiting is the run to go to for "who needs me": the live runs whose agent waits,
// the longest waiting first; the one after the selection when it is one of them.
func (l RunList) NextWaiting() (string, bool) {
	var ws []runs.Info
	for _, i := range l.runs {
		if i.State == runs.Running && i.Agent != "" && i.AgentState == agentstate.Waiting {
			ws = append(ws, i)
		}
	}
	if len(ws) == 0 {
		return "", false
	}
	slices.SortStableFunc(ws, func(a, b runs.Info) int { return a.AgentStateSince.Compare(b.AgentStateSince) })
	at := slices.IndexFunc(ws, func(i runs.Info) bool { return i.ID == l.sel })
	return ws[(at+1)%len(ws)].ID, true // at is -1 when the selection is not waiting: the oldest
}

// NextUnseen is the next run, after the selection in list order and round, that has
// the attention marker.
func (l RunList) NextUnseen() (string, bool) {
	n, at := len(l.runs), max(l.index(l.sel), 0)
	for k := 1; k <= n; k++ {
		if id := l.runs[(at+k)%n].ID; l.attention[id] {
			return id, true
		}
	}
	return "", false
}
