package ui

import (
	"reflect"
	"time"

	"corral/reaper"
	"corral/runs"

	tea "charm.land/bubbletea/v2"
)

// requests is the model's reads in flight. Bubble Tea runs commands concurrently, so
// each read the UI repeats (the snapshot, the counters, the selected run's process
// tree, a run's log) has at most one on its way; one asked for meanwhile follows it,
// so the last state is always read. It also keeps the tick's generation (a tick of an
// older chain is dropped), the run a spawn made here (selected when it is listed) and
// the run Engine.Watch last named. It lives in the model's shared state: every copy of
// the model sees one.
type requests struct {
	snap, metrics        bool          // a Snapshot, a Metrics read is on its way
	snapAll              bool          // the next Snapshot reads every run (the last one failed)
	metricsDue           bool          // a lifecycle event came since the last Metrics read
	metricsAt            time.Time     // when the last Metrics read went out
	trees, treesDirty    bool          // a tree read is on its way; the selection moved meanwhile
	snapEvery, treeEvery time.Duration // their periods now (settle)
	snapAt, treeAt       time.Time     // when the last of each went out
	lastTrees            map[string][]reaper.TreeProc
	lastTreesErr         bool            // the last tree read failed
	logBusy, logDirty    map[string]bool // a log read per run is on its way; the output moved meanwhile
	tickGen              int
	selectNext           string // select this run when it appears (spawned here)
	watching             string
	looking              string // the run the core was last told the user looks at (focus)
	blurred              bool   // Corral's own terminal lost focus: the user looks at none
	// pushing is the hosts whose server pushes what moves with no event (an
	// api.EventRefresh came: "" for a lone server, else the host's name); pushes, that
	// every host's does; pushTree, the looked-at run whose usage comes with them (a
	// cgroup's: any fork is CPU of the run's, so a tree that moved moves it too).
	pushing  map[string]bool
	pushes   bool
	pushTree string
	// listing: the runs after the first rows are on their way (listed.go); held is
	// what a snapshot read meanwhile said of runs not listed yet, for when they are.
	listing bool
	held    []runs.Info
	// starting: Options.WhenListed is starting its runs; leaving: a detach waits for
	// the list and those runs (detach in listed.go).
	starting, leaving bool
	resyncTries       int // failed resyncs in a row while listing (link.go)
}

func newRequests() requests {
	return requests{logBusy: map[string]bool{}, logDirty: map[string]bool{}}
}

// metricsEvery is how long the counters may go unread when no lifecycle event came:
// what they count (spawns, exits, timeouts, kills, escapes) comes with events, which
// make them read; a reconcile's steal of another instance's orphan moves them with no
// event to this UI, so they ride a snapshot read once this long has passed. They never
// wake the UI by themselves: an idle attach read them every 10 s for nothing.
const metricsEvery = time.Minute

// refreshIdleMax is the longest the snapshot and the process tree are left unread
// while nothing happens: each read that brings nothing new doubles its period from
// refreshEvery up to this, and an event, output or a key brings it back to
// refreshEvery. An attached UI over fifty idle runs otherwise asked the server twice
// a second for nothing, most of its cost over Bubble Tea's floor.
const refreshIdleMax = 8 * time.Second

// refresh asks for a snapshot and run id's tree ("" for none) when their periods are
// up and, after a lifecycle event, or with a snapshot read after metricsEvery, the
// counters, each unless one is on its way.
func (r *requests) refresh(engine Engine, id string, now time.Time) tea.Cmd {
	var cmds []tea.Cmd
	if !r.snap && now.Sub(r.snapAt) >= r.snapEvery && !r.snapPushed() {
		r.snap, r.snapAt = true, now
		cmds = append(cmds, snapshotCmd(engine, r.snapAll))
		r.snapAll = false
	}
	if !r.metrics && (r.metricsDue || r.metricsAt.IsZero() || len(cmds) > 0 && now.Sub(r.metricsAt) >= metricsEvery) {
		r.metrics, r.metricsDue, r.metricsAt = true, false, now
		cmds = append(cmds, metricsCmd(engine))
	}
	if !r.trees && now.Sub(r.treeAt) >= r.treeEvery && !r.treePushed(id) {
		r.treeAt = now
		cmds = append(cmds, r.tree(engine, id))
	}
	return tea.Batch(cmds...)
}

// due is when the next of the periodic reads refresh makes is due (zero if none
// waits: each on its way is followed by the next when it comes back), given the
// selected live run id ("" for none) and the time now. A read due already is left a
// moment (activityGrace), so the key or output that made it due goes first.
func (r *requests) due(id string, now time.Time) time.Time {
	var at time.Time
	note := func(t time.Time) {
		if at.IsZero() || t.Before(at) {
			at = t
		}
	}
	if !r.snap && !r.snapPushed() {
		note(r.snapAt.Add(max(r.snapEvery, refreshEvery)))
	}
	if !r.metrics && r.metricsDue {
		note(r.metricsAt.Add(refreshEvery))
	}
	if !r.trees && id != "" && !r.treePushed(id) {
		note(r.treeAt.Add(max(r.treeEvery, refreshEvery)))
	}
	if !at.IsZero() && at.Before(now.Add(activityGrace)) {
		at = now.Add(activityGrace)
	}
	return at
}

// snapPushed reports whether the snapshot is left unread while nothing happens: the
// servers push what it would bring that moves with no event, and the reads after the
// last activity have backed off to refreshIdleMax (each brought nothing new).
func (r *requests) snapPushed() bool { return r.pushes && r.snapEvery >= refreshIdleMax }

// treePushed is snapPushed for run id's tree: it is left unread while its usage comes
// with the pushes (a move of it reads the tree: Model.usageMoved), while the user
// looks at it (the server pushes the usage of the runs looked at only).
func (r *requests) treePushed(id string) bool {
	return r.pushes && id != "" && id == r.pushTree && id == r.looking && r.treeEvery >= refreshIdleMax
}

// pushFrom notes that host's server pushes ("" for a lone server); hosts are the
// hosts of a core of several (none for one server).
func (r *requests) pushFrom(host string, hosts []string) {
	if r.pushing == nil {
		r.pushing = map[string]bool{}
	}
	r.pushing[host] = true
	r.pushes = len(hosts) == 0 && r.pushing[""]
	if len(hosts) > 0 {
		r.pushes = true
		for _, h := range hosts {
			r.pushes = r.pushes && r.pushing[h]
		}
	}
}

// unpushed forgets which servers push (a server lost, back or a host's link
// changed): the reads go on until a push comes again.
func (r *requests) unpushed() { r.pushing, r.pushes, r.pushTree = nil, false, "" }

// activityGrace is the least time from an Update to the periodic reads it finds due.
const activityGrace = refreshEvery / 4

// active says something happened (an event, output, a key): the snapshot and the
// tree are read at the next tick and every refreshEvery from then on.
func (r *requests) active() { r.snapEvery, r.treeEvery = 0, 0 }

// settle is a read's period after it brought something new (changed) or nothing.
func settle(every time.Duration, changed bool) time.Duration {
	if changed {
		return refreshEvery
	}
	return min(max(2*every, refreshEvery), refreshIdleMax)
}

// snapshotDone ends a Snapshot read; after a failed one the next reads every run (what
// the core counted as sent did not arrive).
func (r *requests) snapshotDone(failed, changed bool) {
	r.snap, r.snapAll = false, r.snapAll || failed
	r.snapEvery = settle(r.snapEvery, changed || failed)
}
func (r *requests) metricsDone() { r.metrics = false }

// tree reads run id's process tree ("" for none), one read at a time: if one is on its
// way, another follows it (treeDone says so) for the selection of then.
func (r *requests) tree(engine Engine, id string) tea.Cmd {
	switch {
	case id == "":
		return nil
	case r.trees:
		r.treesDirty = true
		return nil
	}
	r.trees = true
	return treesCmd(engine, id)
}

// sameTrees reports whether a tree read brought what the one before it did: the
// details pane shows what it showed.
func (r *requests) sameTrees(msg TreesMsg) bool {
	return msg.Err == nil && !r.lastTreesErr && r.lastTrees != nil && reflect.DeepEqual(msg.Trees, r.lastTrees)
}

// treeDone ends a tree read; true if the selection moved meanwhile and another is due.
func (r *requests) treeDone(msg TreesMsg) (again bool) {
	r.trees = false
	changed := msg.Err != nil || !reflect.DeepEqual(msg.Trees, r.lastTrees)
	r.lastTrees, r.treeEvery, r.lastTreesErr = msg.Trees, settle(r.treeEvery, changed), msg.Err != nil
	again, r.treesDirty = r.treesDirty, false
	return again
}

// log reads run id's log, one read at a time per run: output that moves during a read
// is fetched right after it (logDone says so), so the last is shown.
func (r *requests) log(engine Engine, id string) tea.Cmd {
	if r.logBusy[id] {
		r.logDirty[id] = true
		return nil
	}
	r.logBusy[id] = true
	return logCmd(engine, id)
}

// logs reads the logs of runs ids (log).
func (r *requests) logs(engine Engine, ids []string) tea.Cmd {
	var cmds []tea.Cmd
	for _, id := range ids {
		cmds = append(cmds, r.log(engine, id))
	}
	return tea.Batch(cmds...)
}

// logDone ends a log read; true if the output moved meanwhile and another is due.
func (r *requests) logDone(id string) (again bool) {
	r.logBusy[id] = false
	again = r.logDirty[id]
	r.logDirty[id] = false
	return again
}

// forget drops a removed run's reads.
func (r *requests) forget(id string) {
	delete(r.logBusy, id)
	delete(r.logDirty, id)
}

// restartTick starts a new tick chain: ticks of the older one are dropped.
func (r *requests) restartTick() int {
	r.tickGen++
	return r.tickGen
}

// watch tells the core which run's screen the terminal pane now shows, once per change.
func (r *requests) watch(engine Engine, id string) tea.Cmd {
	if id == r.watching {
		return nil
	}
	r.watching = id
	return watchCmd(engine, id)
}

// look tells the core which run the user looks at — the shown one, while Corral's
// terminal has focus — once per change: the app hears of it (DEC 1004) and a run
// looked at is not notified.
func (r *requests) look(engine Engine, id string) tea.Cmd {
	if r.blurred {
		id = ""
	}
	if id == r.looking {
		return nil
	}
	old := r.looking
	r.looking = id
	return focusCmd(engine, old, id)
}

// arrived reports whether run id is the one a spawn here made (it is selected when
// listed), and forgets it if so.
func (r *requests) arrived(id string) bool {
	if id == "" || id != r.selectNext {
		return false
	}
	r.selectNext = ""
	return true
}
