package ui

import (
	"errors"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/runs"
	"corral/ui/details"
	"corral/ui/dialog"
	"corral/ui/diffview"
	"corral/ui/events"
	"corral/ui/help"
	"corral/ui/runlist"
	"corral/ui/terminal"
)

// mode is where keys go.
type mode int

const (
	modeBrowse   mode = iota // keys are UI commands
	modeFocus                // keys go to the selected run
	modeScroll               // keys scroll the transcript
	modeDialog               // a prompt, question or form is open (dialogs.go)
	modeHelp                 // the help page
	modeFilter               // the run list's filter is typed (runlist/filter.go)
	modeQuitting             // shutting the runs down
	modeDiff                 // the diff view is open, full screen (diffmode.go)
)

// refreshEvery is the shortest period of the snapshot, counters and process tree
// refresh (each backs off while it brings nothing new: requests.go).
const refreshEvery = time.Second

// Model is the root model. It only routes — global messages first, then keys by mode,
// then results by owner — and composes the panes' views; the panes, the dialog host
// (dialogs.go), the reads in flight (requests.go) and the input queues
// (inputqueue.go) do the work.
type Model struct {
	c      *Common
	engine Engine
	lay    layout
	now    time.Time
	mode   mode

	list    runlist.List
	details details.Details
	term    terminal.Terminal
	events  events.Events
	pair    pairView // the selected run's parity partner, shown beside it (pair.go)
	dlg     dialogs
	help    help.Model
	// finishing is the finish dialog's answer while the question that ends its live
	// run is asked (finish.go).
	finishing dialog.FinishAnswer
	diff      diffview.Model // the diff view (diffmode.go)
	diffID    string         // the run it shows
	guard     strayGuard     // keys close behind keys that went astray are dropped (guard.go)

	flash  string // a one-line notice in the status line, until the next key
	zoom   bool
	mouse  bool // clicks and the wheel are Corral's (mouse.go); off, the terminal's
	inTmux bool // Corral's terminal is a tmux pane (copy mode says what it needs)

	detachable bool // the core is a server's: quitting detaches (Options.Detachable)
	replay     bool // the runs are corral replay's players (Options.Replay, replay.go)
	detached   bool // the UI ended by detaching: the runs go on
	prefsPath  string
	notify     string // how Corral's terminal tells a user elsewhere (Options.Notify)

	// still: the last Update changed nothing on screen (a periodic read that brought
	// nothing new, or a tick for reads only): the view is not composed again (Still).
	still bool

	// restoreAsked are the lost runs the restore question was asked about (Prefs).
	restoreAsked []string

	// whenListed is Options.WhenListed until it is called (listed.go).
	whenListed func(all []runs.Info) string

	*state
}

// state is the model's bookkeeping that is not shown directly. It is shared by the
// copies Bubble Tea makes of the model (only the newest is ever used).
type state struct {
	screens   map[string]screen.View
	attention map[string]uint64 // last Attention counter seen per run
	inputs    inputQueues
	sized     runSizes
	req       requests
	quitErr   error
	view      *rootCache
	tick      func(gen int) tea.Cmd // tests replace it: a real tick waits for the clock
	clock     *wakeClock            // wakes the tick when something is due (clock.go)
	follow    follower              // when a run spawned elsewhere is selected (follow.go)
	link      string                // while the server is lost: what the status line says (link.go)
	lastEvent time.Time             // the newest event shown: the history after a reconnect starts past it
	exporting map[string]bool       // the files the export key is writing (export.go)
	// offered: the restore's dry run was asked for, once the first snapshot came back
	// (it reconciles every record: at a thousand runs half a second, which held the
	// first frame's reads on the connection they share).
	offered bool
}

// ErrNoEngine is what every command of a model built without an Engine reports.
var ErrNoEngine = errors.New("ui: no engine (Options.Engine is nil)")

// New returns the root model. Its only errors are bad key overrides (an unknown
// action, a key bound to two actions of one mode), so New(Options{Keys: k}) also
// checks a configuration's keys; a model without an Engine reports ErrNoEngine from every
// command.
func New(o Options) (Model, error) {
	return newModel(o, nil)
}

func newModel(o Options, now func() time.Time) (Model, error) {
	keys, err := DefaultKeyMap().withOverrides(o.Keys)
	if err != nil {
		return Model{}, err
	}
	if o.Engine == nil {
		o.Engine = noEngine{}
	}
	c := newCommon(keys, now)
	m := Model{c: c, engine: o.Engine, now: c.Now(),
		list: runlist.New(c.Common, &c.Keys.ListKeyMap, runlist.FilterKeys{Accept: &c.Keys.Accept, Dismiss: &c.Keys.Dismiss}, o.Initial), details: details.New(c.Common, &c.Keys.Restart),
		term: newTerminal(c, o.Empty), events: events.New(c.Common, &c.Keys.EventsKeyMap), pair: newPairView(c), dlg: newDialogs(c),
		help: help.New(c.Common, help.Keys{Down: &c.Keys.ScrollDown, PageDown: &c.Keys.PageDown, Up: &c.Keys.ScrollUp,
			PageUp: &c.Keys.PageUp, Leave: &c.Keys.Leave}),
		diff: diffview.New(c.Common, &c.Keys.DiffKeyMap, diffview.PromptKeys{Accept: &c.Keys.Accept, Dismiss: &c.Keys.Dismiss}),
		state: &state{screens: map[string]screen.View{}, attention: map[string]uint64{},
			inputs: inputQueues{}, sized: runSizes{}, req: newRequests(), view: &rootCache{},
			clock: newWakeClock()},
	}
	m.tick = m.clock.wait
	m.detachable, m.replay, m.prefsPath, m.notify = o.Detachable, o.Replay, o.PrefsPath, o.Notify
	m.mouse, m.inTmux = o.Mouse, o.InTmux
	m.lay.panes = parsePanes(o.Prefs.Panes)
	m.restoreAsked = o.Prefs.RestoreAsked
	m.list.SetConfigured(o.Configured)
	if h, ok := o.Engine.(fleetEngine); ok {
		m.hostsAtStart(h.Hosts())
	}
	if !o.Detachable {
		c.Keys.Detach.SetEnabled(false)
		c.Keys.Shutdown.SetEnabled(false)
	}
	if !o.Replay {
		c.Keys.disableReplay()
	}
	m.list.SetNotStarted(o.Pending)
	if o.Unlisted.Runs > 0 { // the rest of the runs come as a ListedMsg (listed.go)
		m.list.SetUnlisted(o.Unlisted)
		m.list.SetWidest(o.Widest)
		m.req.listing = true
	}
	m.whenListed = o.WhenListed
	m.req.starting = o.WhenListed != nil && !m.req.listing // Init calls it
	m.addHistory(o.History)
	m.req.selectNext = o.Select // the run corral -- CMD started: selected when listed
	if _, listed := m.list.Run(o.Select); listed && m.req.arrived(o.Select) {
		m.list.Select(o.Select)
	}
	m.list.SetFocused(true)
	m.syncSelection()
	m.firstReads(o.Metrics, o.Trees)
	m.events.SetEscaped(m.list.Runs(), m.list.Unlisted().Escaped) // the first frame's heading counts them
	if o.Screen != nil && len(o.Initial) > 0 && o.Initial[0].Kind == runs.KindPTY {
		m.takeScreen(ScreenMsg{ID: o.Initial[0].ID, Screen: o.Screen})
	}
	return m, nil
}

// firstReads takes the counters and the selected run's process tree the engine read
// with its first runs (Options.Metrics, Options.Trees): the first frame shows them,
// and the reads Init makes leave them out (the counters until an event moves them,
// the tree until its period is up), instead of a round trip and a redraw each just
// after that frame.
func (m *Model) firstReads(metrics *runs.Metrics, trees map[string][]reaper.TreeProc) {
	if metrics != nil {
		m.events.SetMetrics(*metrics)
		m.req.metricsAt = m.now
	}
	if id := m.list.SelectedLive(); id != "" && trees[id] != nil {
		m.details.SetTrees(trees, nil)
		m.req.lastTrees, m.req.treeAt, m.req.treeEvery = trees, m.now, refreshEvery
	}
}

// ShuttingDown reports whether the UI ended by ending every run (the quit of an
// in-process UI, the shutdown key of an attached one).
func (m Model) ShuttingDown() bool { return m.mode == modeQuitting }

// Detached reports whether the UI ended by detaching from its server, leaving every
// run running.
func (m Model) Detached() bool { return m.detached }

// ShutdownErr is what Engine.Shutdown returned when the UI quit (nil if it succeeded).
func (m Model) ShutdownErr() error { return m.quitErr }

// Init starts the tick, reads the first snapshot and process tree, and fetches the
// screens of the initial PTY runs.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.tick(m.req.tickGen), m.req.refresh(m.engine, m.list.SelectedLive(), m.now),
		m.req.logs(m.engine, m.pair.shownLogs(m.term, m.term.ID(), m.pair.other.ID())), m.req.watch(m.engine, m.pair.watched(m.term)),
		m.req.look(m.engine, m.list.SelectedLive())}
	if sel, ok := m.list.Selected(); ok && sel.Kind == runs.KindPTY && m.screens[sel.ID] == nil {
		cmds = append(cmds, screenCmd(m.engine, sel.ID)) // the first frame's
	}
	cmds = append(cmds, screensCmd(m.engine, slices.DeleteFunc(slices.Clone(m.list.Runs()), func(i runs.Info) bool {
		return m.screens[i.ID] != nil // the first one's, when it came with the first runs (Options.Screen)
	})))
	if !m.req.listing && m.whenListed != nil { // every run is listed already
		f, all := m.whenListed, slices.Clone(m.list.Runs())
		cmds = append(cmds, func() tea.Msg { return listedMsg{selectID: f(all)} })
	}
	return tea.Batch(cmds...)
}

// Update routes a message: global ones first, then by mode (keys), then by owner.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.still = false
	next, cmd := m.update(msg)
	if n, ok := next.(Model); ok && n.state != nil && n.clock != nil {
		n.clock.wakeAt(n.req.due(n.list.SelectedLive(), n.now))
	}
	return next, cmd
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.now = m.c.Now()
	m.list.SetNow(m.now)
	m.details.SetNow(m.now)
	m.term.SetNow(m.now)
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.lay.w, m.lay.h = msg.Width, msg.Height
		m.relayout()
		return m, m.fitShown()
	case tickMsg:
		if msg.gen != m.req.tickGen { // a tick of an older chain
			m.still = true
			return m, nil
		}
		m.still = m.clock != nil && m.clock.readsOnly(m.now) // no figure on screen turned
		return m, tea.Batch(m.tick(m.req.tickGen), m.req.refresh(m.engine, m.list.SelectedLive(), m.now))
	case EventMsg:
		return m.handleEvent(msg)
	case ListedMsg:
		return m.listed(msg)
	case listedMsg:
		return m.selectListed(msg)
	case resyncAgainMsg:
		return m.resyncAgain()
	case OutputMsg:
		return m.handleOutput(msg)
	case tea.KeyPressMsg:
		m.follow.touched(m.now)
		m.req.active()
		return m.routeKey(msg)
	case tea.FocusMsg, tea.BlurMsg: // Corral's own terminal: is its user looking?
		m.req.blurred = msg == tea.Msg(tea.BlurMsg{})
		return m, m.req.look(m.engine, m.list.SelectedLive())
	case tea.PasteMsg:
		m.follow.touched(m.now)
		return m.handlePaste(msg)
	case tea.MouseMsg:
		m.follow.touched(m.now)
		return m.handleMouse(msg)
	case dialog.ConfirmAnswer, dialog.PromptAnswer, dialog.FormAnswer, dialog.FinishAnswer:
		return m.answered(msg)
	case DiffMsg:
		return m.diffRead(msg)
	case diffview.IndexedMsg:
		m.diff, _ = m.diff.Update(msg)
		return m, nil
	case restoreOfferMsg:
		return m.offerRestore(msg)
	case restoreAgainMsg:
		return m, restoreOfferCmd(m.engine)
	case RestoredMsg:
		return m.restored(msg)
	case ProbeMsg: // what a driver outside the UI may read of the model (probe.go)
		sel, _ := m.list.Selected()
		msg.Reply <- Probe{Selected: sel.Name, Asking: m.mode == modeDialog && m.dlg.Asking()}
		return m, nil
	}
	if next, cmd, ok := m.handleData(msg); ok {
		return next, cmd
	}
	return m.handleResult(msg)
}

// relayout sizes every pane from the screen size, the side panes shown, the zoom and
// the number of runs.
func (m *Model) relayout() {
	l := computeLayout(m.lay.w, m.lay.h, m.list.Len()+len(m.list.Hosts()), m.zoom, m.lay.panes)
	m.lay = l
	m.list.SetSize(l.list.w, l.list.h)
	m.details.SetSize(l.details.w, l.details.h)
	m.pair.size(&m.term, l)
	m.term.SetZoomed(l.zoomed)
	m.events.SetSize(l.events.w, l.events.h)
	m.dlg.SetSize(l.w, l.h)
	m.help.SetSize(l.w, l.h)
	m.diff.SetSize(l.w, l.h)
}
