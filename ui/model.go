package ui

import (
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/parity"
)

// mode is where keys go.
type mode int

const (
	modeBrowse   mode = iota // keys are UI commands
	modeFocus                // keys go to the selected run
	modeScroll               // keys scroll the transcript
	modeDialog               // a prompt, question or form is open
	modeHelp                 // the help page
	modeQuitting             // shutting the runs down
)

// dialogKind is which dialog is open in modeDialog.
type dialogKind int

const (
	dlgPrompt dialogKind = iota
	dlgConfirm
	dlgForm
)

// confirmOp is what a y/n question decides.
type confirmOp int

const (
	confirmCancel confirmOp = iota
	confirmQuit
	confirmDetach
	confirmInterrupt
	confirmRemove
)

// refreshEvery is the period of the countdown tick and of the snapshot, counters and
// process tree refresh.
const refreshEvery = time.Second

// Model is the root model. It only routes: global messages first, then by mode, then
// by owner; the panes do the work.
type Model struct {
	c    *Common
	core Core
	lay  layout
	now  time.Time
	mode mode

	list    RunList
	details Details
	term    Terminal
	events  Events

	dialog    dialogKind
	ret       mode // the mode a dialog returns to
	prompt    Prompt
	confirm   Confirm
	confirmOp confirmOp
	confirmID string
	form      Form

	flash  string // a one-line notice in the status line, until the next key
	zoom   bool
	mouse  bool     // clicks and the wheel are Corral's (mouse.go); off, the terminal's
	inTmux bool     // Corral's terminal is a tmux pane (copy mode says what it needs)
	pair   pairView // the selected run's parity partner, shown beside it (pair.go)

	lastKey     time.Time // when the last key outside focus came, while quarantined (guard.go)
	dropped     int       // keys dropped since
	quarantined bool      // a question saw keys not meant for it

	detachable bool // the core is a server's: quitting detaches (Options.Detachable)
	replay     bool // the runs are corral replay's players (Options.Replay, replay.go)
	detached   bool // the UI ended by detaching: the runs go on
	prefsPath  string
	helpAt     int // the help page shown (view.go)

	*state
}

// state is the model's bookkeeping that is not shown directly. It is shared by the
// copies Bubble Tea makes of the model (only the newest is ever used).
type state struct {
	screens     map[string]Screen
	attention   map[string]uint64 // last Attention counter seen per run
	inputs      map[string]*inputQueue
	sized       map[string][2]uint16 // PTY size last asked for per run
	logBusy     map[string]bool      // a Log read is on its way
	logDirty    map[string]bool      // output moved while it was
	selectNext  string               // select this run when it appears (spawned here)
	tickGen     int
	snapBusy    bool
	metricsBusy bool // a Metrics read is on its way
	treesBusy   bool
	treesDirty  bool // the selection moved while a tree read was on its way
	quitErr     error
	watching    string // the run Core.Watch last named
	view        *rootCache
	tick        func(gen int) tea.Cmd // tests replace it: a real tick sleeps a second
}

// ErrNoCore is what every command of a model built without a Core reports.
var ErrNoCore = errors.New("ui: no core (Options.Core is nil)")

// New returns the root model. Its only errors are bad key overrides (an unknown
// action, a key bound to two actions of one mode), so New(Options{Keys: k}) also
// checks a configuration's keys; a model without a Core reports ErrNoCore from every
// command.
func New(o Options) (Model, error) {
	return newModel(o, nil)
}

func newModel(o Options, now func() time.Time) (Model, error) {
	keys, err := DefaultKeyMap().withOverrides(o.Keys)
	if err != nil {
		return Model{}, err
	}
	if o.Core == nil {
		o.Core = noCore{}
	}
	c := newCommon(keys, now)
	m := Model{c: c, core: o.Core, now: c.Now(),
		list: NewRunList(c, o.Initial), details: NewDetails(c),
		term: NewTerminal(c, o.Empty), events: NewEvents(c),
		state: &state{screens: map[string]Screen{}, attention: map[string]uint64{},
			inputs: map[string]*inputQueue{}, sized: map[string][2]uint16{},
			logBusy: map[string]bool{}, logDirty: map[string]bool{}, view: &rootCache{},
			tick: func(gen int) tea.Cmd { return tickCmd(gen, refreshEvery) }},
	}
	m.pair = pairView{other: NewTerminal(c, ""), diffs: map[string]*parity.Result{}, asked: map[string]bool{}}
	m.detachable, m.replay, m.prefsPath = o.Detachable, o.Replay, o.PrefsPath
	m.mouse, m.inTmux = o.Mouse, o.InTmux
	m.lay.panes = parsePanes(o.Prefs.Panes)
	m.list.SetConfigured(o.Configured)
	if !o.Detachable {
		c.Keys.Detach.SetEnabled(false)
		c.Keys.Shutdown.SetEnabled(false)
	}
	if !o.Replay {
		c.Keys.disableReplay()
	}
	m.list.SetPending(o.Pending)
	m.list.SetFocused(true)
	m.syncSelection()
	return m, nil
}

// ShuttingDown reports whether the UI ended by ending every run (the quit of an
// in-process UI, the shutdown key of an attached one).
func (m Model) ShuttingDown() bool { return m.mode == modeQuitting }

// Detached reports whether the UI ended by detaching from its server, leaving every
// run running.
func (m Model) Detached() bool { return m.detached }

// ShutdownErr is what Core.Shutdown returned when the UI quit (nil if it succeeded).
func (m Model) ShutdownErr() error { return m.quitErr }

// Init starts the tick, reads the first snapshot and process tree, and fetches the
// screens of the initial PTY runs.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.tick(m.tickGen), m.refresh(), m.requestLog(m.term.ID()), m.requestLog(m.pair.other.ID()), m.watch()}
	for _, i := range m.list.Runs() {
		if i.Kind == runs.KindPTY {
			cmds = append(cmds, screenCmd(m.core, i.ID))
		}
	}
	return tea.Batch(cmds...)
}

// Update routes a message: global ones first, then by mode (keys), then by owner.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.setNow(m.c.Now())
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m.handleWindow(msg)
	case tickMsg:
		return m.handleTick(msg)
	case EventMsg:
		return m.handleEvent(msg)
	case OutputMsg:
		return m.handleOutput(msg)
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.PasteMsg:
		return m.handlePaste(msg)
	case tea.MouseMsg:
		return m.handleMouse(msg)
	case probeMsg:
		msg.reply <- m.probe()
		return m, nil
	}
	if next, cmd, ok := m.handleData(msg); ok {
		return next, cmd
	}
	return m.handleResult(msg)
}

func (m *Model) setNow(t time.Time) {
	m.now = t
	m.list.SetNow(t)
	m.details.SetNow(t)
	m.term.SetNow(t)
}

func (m Model) handleWindow(msg tea.WindowSizeMsg) (tea.Model, tea.Cmd) {
	m.lay.w, m.lay.h = msg.Width, msg.Height
	m.relayout()
	cmd := m.fitRuns()
	return m, cmd
}

// relayout sizes every pane from the screen size, the side panes shown, the zoom and
// the number of runs.
func (m *Model) relayout() {
	l := computeLayout(m.lay.w, m.lay.h, m.list.Len(), m.zoom, m.lay.panes)
	m.lay = l
	m.list.SetSize(l.list.w, l.list.h)
	m.details.SetSize(l.details.w, l.details.h)
	m.sizeTerms()
	m.term.SetZoomed(l.zoomed)
	m.events.SetSize(l.events.w, l.events.h)
	m.prompt.SetSize(l.w, 1)
	m.confirm.SetSize(l.w, 1)
	m.form.SetSize(l.w, l.h)
}

// handleTick refreshes the snapshot, the counters and the selected run's tree once a
// second; a tick of an older chain is dropped.
func (m Model) handleTick(msg tickMsg) (tea.Model, tea.Cmd) {
	if msg.gen != m.tickGen {
		return m, nil
	}
	return m, tea.Batch(m.tick(m.tickGen), m.refresh())
}

// refresh asks for a snapshot, the counters and the selected run's tree, each unless
// it is on its way.
func (m Model) refresh() tea.Cmd {
	var cmds []tea.Cmd
	if !m.snapBusy {
		m.snapBusy = true
		cmds = append(cmds, snapshotCmd(m.core))
	}
	if !m.metricsBusy {
		m.metricsBusy = true
		cmds = append(cmds, metricsCmd(m.core))
	}
	if !m.treesBusy {
		cmds = append(cmds, m.requestTree())
	}
	return tea.Batch(cmds...)
}

// requestTree reads the selected run's process tree, one read at a time: if one is on
// its way, another follows it for the selection of then.
func (m Model) requestTree() tea.Cmd {
	sel, ok := m.list.Selected()
	switch {
	case !ok || sel.Ended():
		return nil
	case m.treesBusy:
		m.treesDirty = true
		return nil
	}
	m.treesBusy = true
	return treesCmd(m.core, sel.ID)
}

// syncSelection shows the selected run in the details and terminal panes.
func (m *Model) syncSelection() {
	if p, ok := m.list.SelectedPending(); ok {
		m.details.SetPending(p)
		m.term.SetPending(p)
		m.syncPair(runs.Info{}, false)
		return
	}
	sel, ok := m.list.Selected()
	m.details.SetRun(sel, ok)
	if ok {
		m.term.SetRun(sel, m.screens[sel.ID])
	} else {
		m.term.SetRun(runs.Info{}, nil)
	}
	m.syncPair(sel, ok)
}

// selectionMoved updates the panes after the selection changed and fetches what the
// new selection shows.
func (m *Model) selectionMoved() tea.Cmd {
	m.syncSelection()
	m.tickGen++ // the new run's tree now; restart the chain so it is not also due soon
	return tea.Batch(m.tick(m.tickGen), m.requestLog(m.term.ID()), m.requestLog(m.pair.other.ID()),
		m.requestTree(), m.watch())
}

// watch tells the core which run's screen the terminal pane now shows, once per change.
func (m *Model) watch() tea.Cmd {
	id := m.watched()
	if id == m.watching {
		return nil
	}
	m.watching = id
	return watchCmd(m.core, id)
}

// requestLog reads a run's log for the terminal pane, one read at a time per run;
// output that moves during a read is fetched right after it, so the last is shown.
func (m *Model) requestLog(id string) tea.Cmd {
	shown := id == m.term.ID() && m.term.ShowsLog() ||
		m.pair.on && id == m.pair.other.ID() && m.pair.other.ShowsLog()
	if id == "" || !shown {
		return nil
	}
	if m.logBusy[id] {
		m.logDirty[id] = true
		return nil
	}
	m.logBusy[id] = true
	return logCmd(m.core, id)
}

// requestMissingLogs reads the log of a pane that shows a run as a log but has none
// yet. A pair's partner can be listed after its output came and went (a pipe run that
// printed and exited before its event arrived): no OutputMsg will ask for its log, so
// the pane that starts showing it asks (the CI saw the pipe half stay "…").
func (m *Model) requestMissingLogs() tea.Cmd {
	var cmds []tea.Cmd
	for _, t := range []*Terminal{&m.term, &m.pair.other} {
		if t.NeedsLog() && (t == &m.term || m.pair.on) {
			cmds = append(cmds, m.requestLog(t.ID()))
		}
	}
	return tea.Batch(cmds...)
}

// fitRuns resizes every live PTY run whose size is not the terminal pane's.
func (m *Model) fitRuns() tea.Cmd {
	if m.lay.w == 0 {
		return nil
	}
	var rs []resize
	for _, i := range m.list.Runs() {
		if i.Kind != runs.KindPTY || i.Adopted || i.State != runs.Running || i.Spec.FixedSize {
			continue
		}
		want := m.runSize(i)
		if [2]uint16{i.Cols, i.Rows} == want || m.sized[i.ID] == want {
			continue
		}
		m.sized[i.ID] = want
		rs = append(rs, resize{id: i.ID, cols: want[0], rows: want[1]})
	}
	if len(rs) == 0 {
		return nil
	}
	return resizeCmd(m.core, rs)
}
