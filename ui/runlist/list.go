// Package runlist is the run list pane: one row per run, then one per configured run
// not started yet, grouped by host over several; its selection (the row the details
// and terminal panes show), moved by its keys, the mouse wheel and the filter typed in
// its title. It follows the bubbles contract: New, Update returning List, View,
// SetSize, and its KeyMap, which the root's KeyMap embeds.
package runlist

import (
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/api"
	"corral/ui/common"
	"corral/ui/lineinput"
	"corral/watchdog"
)

// List is the run list pane: one row per run with its name, kind, state, pid, age,
// watchdog countdown, reason badge, escape/adopted markers and attention marker, then
// one row per configured run not started yet (pending.go). It is a List, not a Model:
// the root's Model is the program's, and this is one pane of it (as details.Details
// and terminal.Terminal are).
type List struct {
	c          *common.Common
	keys       *KeyMap    // the root's: an override after New reaches it
	fk         FilterKeys // accept and dismiss while the filter is typed
	runs       []runs.Info
	pending    []Pending
	sel        string // the selected row's key: a run's id or a pending run's key
	attention  map[string]bool
	slot       map[string]string // a restarted run's id → the row it takes (Replace)
	configured []runs.Spec       // the config's runs: a removed one is listed again (pending.go)
	pendSeq    int               // the next pending row's key number
	offset     int               // first visible row
	filter     lineinput.Model   // the filter by name, id, kind, agent or state (filter.go)
	filtering  bool              // the filter is being typed: keys go to it
	w, h       int
	now        time.Time
	focused    bool
	link       string          // the server lost: said in the title (SetLink)
	hosts      []api.HostState // several hosts: the runs grouped by host (hosts.go)
	unlisted   api.RunSummary  // runs not listed yet, counted in the titles (listed.go)
	widest     []runs.Info     // the widest of those, measured for the columns while any is unlisted

	ver   uint64 // bumped by every change of what is shown
	cache *common.ViewCache[listKey]
}

// listKey is what the list's rendering depends on.
type listKey struct {
	ver  uint64
	sec  int64
	w, h int
}

// KeyMap is the run list's keys: the selection moved a row, a page or to either
// end, and the filter (filter.go). The page keys are not pgup/pgdown: pgup is
// the scrollback key while browsing, and a pgdown that paged the list beside a pgup
// that scrolls the terminal pane would read as one pair; ctrl+f/ctrl+b page as in
// less and vi (and as in scroll mode), ctrl+d/ctrl+u too.
type KeyMap struct {
	Up, Down, First, Last, PrevPage, NextPage key.Binding
	Filter, ClearFilter                       key.Binding
}

// DefaultKeyMap returns the run list's default keys.
func DefaultKeyMap() KeyMap {
	bind := common.Bind
	return KeyMap{Up: bind("select up", "up", "k"), Down: bind("select down", "down", "j"),
		First: bind("first run", "g", "home"), Last: bind("last run", "G", "end"),
		PrevPage: bind("a page up", "ctrl+b", "ctrl+u"), NextPage: bind("a page down", "ctrl+f", "ctrl+d"),
		Filter:      bind("filter", "/"),
		ClearFilter: bind("clear the filter", "esc")}
}

// FilterKeys are the dialogs' keys the filter is typed with (accept keeps it, dismiss
// drops it): pointers into the root's KeyMap, so overrides reach them.
type FilterKeys struct{ Accept, Dismiss *key.Binding }

// New returns a list of the given runs, the first one selected. keys and fk point into
// the root's KeyMap.
func New(c *common.Common, keys *KeyMap, fk FilterKeys, initial []runs.Info) List {
	l := List{c: c, keys: keys, fk: fk, attention: map[string]bool{}, slot: map[string]string{}, cache: &common.ViewCache[listKey]{}}
	for _, i := range initial {
		l.Upsert(i)
	}
	return l
}

// SetSize sets the pane's outer size.
func (l *List) SetSize(w, h int) { l.w, l.h = w, h; l.follow(); l.ver++ }

// SetNow sets the clock countdowns and ages are shown against.
func (l *List) SetNow(t time.Time) { l.now = t }

// NextChange is when an age or countdown the pane shows next changes (zero if none
// does): the clock need not wake before.
func (l List) NextChange() time.Time { return l.cache.Changes.Next(l.now) }

// SetFocused marks the pane as the one keys go to.
func (l *List) SetFocused(f bool) {
	if f != l.focused {
		l.focused, l.ver = f, l.ver+1
	}
}

// Update moves the selection (a row, a page, to either end; a row a wheel notch)
// among the rows shown, opens or clears the filter, and while the filter is typed
// gives it the keys (filterUpdate).
func (l List) Update(msg tea.Msg) (List, tea.Cmd) {
	if l.filtering {
		return l.filterUpdate(msg), nil
	}
	if w, ok := msg.(tea.MouseWheelMsg); ok {
		switch w.Mouse().Button {
		case tea.MouseWheelUp:
			l.move(-1)
		case tea.MouseWheelDown:
			l.move(1)
		}
		return l, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || l.moveKey(k) {
		return l, nil
	}
	switch km := l.keys; {
	case key.Matches(k, km.Filter):
		l.StartFilter()
	case key.Matches(k, km.ClearFilter):
		l.ClearFilter()
	}
	return l, nil
}

// Select selects a row by key (a run's id, a pending run's key) and clears its
// attention marker: it is being looked at. A row the filter hides is selected with
// the filter cleared: a selection is always shown.
func (l *List) Select(id string) {
	if l.row(id) < 0 {
		return
	}
	if !l.Matches(id) {
		l.dropFilter()
	}
	l.choose(id)
}

// choose selects a listed row.
func (l *List) choose(id string) {
	l.sel = id
	delete(l.attention, id)
	l.follow()
	l.ver++
}

// SelectedKey is the selected row's key ("" for none).
func (l List) SelectedKey() string { return l.sel }

// Selected returns the selected run; false also when the selection is a pending run.
func (l List) Selected() (runs.Info, bool) {
	if i := l.index(l.sel); i >= 0 {
		return l.runs[i], true
	}
	return runs.Info{}, false
}

// Run returns one run by id.
func (l List) Run(id string) (runs.Info, bool) {
	if i := l.index(id); i >= 0 {
		return l.runs[i], true
	}
	return runs.Info{}, false
}

// Runs returns the runs in list order, without the pending ones; the slice must not be
// changed.
func (l List) Runs() []runs.Info { return l.runs }

// Len is the number of rows: runs and pending runs.
func (l List) Len() int { return len(l.runs) + len(l.pending) }

// row is the row of a key, -1 if none.
func (l List) row(key string) int {
	if i := l.index(key); i >= 0 {
		return i
	}
	if i := l.pendingIndex(key); i >= 0 {
		return len(l.runs) + i
	}
	return -1
}

// keyAt is the key of row i.
func (l List) keyAt(i int) string {
	if i < len(l.runs) {
		return l.runs[i].ID
	}
	return l.pending[i-len(l.runs)].Key
}

func (l List) index(id string) int {
	for i := range l.runs {
		if l.runs[i].ID == id {
			return i
		}
	}
	return -1
}

// Upsert adds a run or updates it. A copy older than the one held (by Seq) is dropped,
// except for its watchdog state, which only snapshots carry.
func (l *List) Upsert(info runs.Info) {
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

// Overwrite puts info in its row whatever its sequence number (a new run is listed as
// Upsert lists it): after a reconnect the new server's word on a run replaces the lost
// one's, whose numbers it does not continue.
func (l *List) Overwrite(info runs.Info) {
	i := l.index(info.ID)
	if i < 0 {
		l.Upsert(info)
		return
	}
	if info.Watchdog == (watchdog.State{}) {
		info.Watchdog = l.runs[i].Watchdog
	}
	l.runs[i] = info
	l.ver++
}

// SetLink says in the title that the server is lost ("" when it is not).
func (l *List) SetLink(s string) {
	if s != l.link {
		l.link = s
		l.ver++
	}
}

// Replace makes run id take the row of the ended run old (R restarts in place, not
// as a second row of the same name): now if id is listed already, else when it comes.
func (l *List) Replace(old, id string) {
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
func (l List) Replacing(old string) bool {
	for _, o := range l.slot {
		if o == old {
			return true
		}
	}
	return false
}

// takeSlot puts info in the row of the run it replaces, if it replaces one listed.
func (l *List) takeSlot(info runs.Info) bool {
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

// Remove drops a run; the selection moves to its neighbour among the rows shown, or
// to the not-started row a config run goes back to.
func (l *List) Remove(id string) {
	i := l.index(id)
	if i < 0 {
		return
	}
	at := l.shownAt(id)
	info := l.runs[i]
	l.runs = append(l.runs[:i:i], l.runs[i+1:]...)
	delete(l.attention, id)
	if k, ok := l.unstart(info); ok && l.sel == id {
		l.sel = k
	}
	l.removed(id, at)
}

// shownAt is where row key is among the rows shown (0 when it is not shown).
func (l List) shownAt(key string) int { return max(slices.Index(l.shown(), l.row(key)), 0) }

// removed moves the selection off a row that was the at-th shown and is gone: to the
// row shown in its place, or the last; to any row when none is shown.
func (l *List) removed(key string, at int) {
	if l.sel == key {
		l.sel = ""
		if shown := l.shown(); len(shown) > 0 {
			l.sel = l.keyAt(shown[min(at, len(shown)-1)])
		} else if l.Len() > 0 {
			l.sel = l.keyAt(0)
		}
	}
	l.follow()
	l.ver++
}

// SetAttention sets or clears a run's attention marker (never on the selected run).
func (l *List) SetAttention(id string, on bool) {
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
func (l List) Attention(id string) bool { return l.attention[id] }

// Counts returns how many runs are live (not exited), those not listed yet among
// them, and how many have the attention marker.
func (l List) Counts() (live, attention int) {
	for _, i := range l.runs {
		if !i.Ended() {
			live++
		}
	}
	return live + l.unlisted.Live, len(l.attention)
}

// Visible are the runs on the rows the pane shows, then the selected run when it is
// not among them: what a UI sizes (at a thousand runs, sizing every run as a UI
// attached was a thousand resizes, each a change sent to every UI).
func (l List) Visible() []runs.Info {
	lines := l.display()
	var out []runs.Info
	sel := false
	for _, ln := range lines[min(l.offset, len(lines)):min(l.offset+l.rows(), len(lines))] {
		if ln.header == 0 && ln.row < len(l.runs) {
			out = append(out, l.runs[ln.row])
			sel = sel || l.runs[ln.row].ID == l.sel
		}
	}
	if i := l.index(l.sel); i >= 0 && !sel {
		out = append(out, l.runs[i])
	}
	return out
}
