package ui

import (
	"context"

	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/runs"
	"corral/runs/api"
	"corral/ui/terminal"
)

// Engine is what the UI drives (the supervisor's side is api.Core): the operations of
// package api (called only from tea.Cmds, never from Update or View), and the runs'
// screens. Its implementations are one seam: Local, the supervisor in this process,
// package client's Remote, a server's supervisor over its socket (corral attach),
// and client's Fleet, the servers of several hosts.
type Engine interface {
	api.Caller
	// Screen is the run's screen, nil for a run that has none (a pipe run).
	Screen(id string) (screen.View, error)
	// Watch names the run whose screen the terminal pane shows ("" for none): a
	// server's engine streams frames of it (others only their attention count); the
	// in-process engine has nothing to do.
	Watch(id string) error
	// Viewer names this UI to the engine when it says which run its user looks at
	// (api.Focus): a server forgets what a viewer looked at when it goes away.
	Viewer() string
}

var _ Engine = Local{}

// Local is the in-process engine: a supervisor of this process.
type Local struct{ *runs.Supervisor }

// Invoke applies op to the supervisor, as a server would.
func (l Local) Invoke(ctx context.Context, op api.Operation, args any) (any, error) {
	return op.Apply(ctx, l.Supervisor, args)
}

// Watch does nothing: every screen of this process is at hand.
func (Local) Watch(string) error { return nil }

// Viewer is the in-process UI, the one viewer of its supervisor.
func (Local) Viewer() string { return "local" }

// Screen is the run's *screen.Screen as a screen.View (nil stays nil, not a typed nil).
func (l Local) Screen(id string) (screen.View, error) {
	s, err := l.Supervisor.Screen(id)
	if s == nil {
		return nil, err
	}
	return s, err
}

// Options configure New.
type Options struct {
	Engine  Engine
	Initial []runs.Info         // the snapshot from Supervisor.Subscribe
	Empty   string              // what the empty screen says (how to start a run)
	Keys    map[string][]string // key overrides by action name (nil: defaults)
	// Pending are configured runs not started (autostart = false): listed after the
	// runs, in this order, until the start key (the restart action) spawns one.
	Pending []runs.Spec
	// Detachable: the core is a server's (corral attach). Quitting then detaches and
	// leaves the runs running; ending them all is its own key (the shutdown action).
	Detachable bool
	// Configured are the config's runs, autostart or not, in file order: a removed
	// run with one of these specs goes back to its not-started row.
	Configured []runs.Spec
	// Prefs are the choices the UI opens with (LoadPrefs); PrefsPath is where a new
	// choice is saved ("" for nowhere: it lasts as long as the UI).
	Prefs     Prefs
	PrefsPath string
	// Mouse starts the UI with the mouse on ([ui] mouse): clicks select a run and focus
	// the terminal pane, the wheel scrolls. Off, the terminal keeps its own selection.
	Mouse bool
	// InTmux says Corral's terminal is a tmux pane: copy mode's OSC 52 reaches the
	// clipboard there only with tmux's set-clipboard on, which the status line says.
	InTmux bool
	// Replay: the runs are corral replay's players (castplay): the replay keys act on
	// the selected one outside focus, and the status line says what they do.
	Replay bool
	// Notify is how Corral's terminal tells a user who is elsewhere that an agent
	// needs them ([notify] terminal: config.NotifyOSC9, NotifyOSC777 or NotifyOff;
	// "" is off).
	Notify string
	// Select is the run to select when it is listed (the one corral -- CMD started).
	Select string
	// Unlisted counts the runs Initial leaves out (client.Remote.Rest): they come as
	// one ListedMsg (Bridge), and meanwhile the titles count them. Zero: Initial is
	// every run.
	Unlisted api.RunSummary
	// Widest is a few of the runs Unlisted counts, those with the widest cells
	// (client.Remote.Widest): the list's columns are sized with them too until every
	// run is listed, so the rest arriving does not widen them.
	Widest []runs.Info
	// Metrics and Trees, when set, are the counters and the first selected run's
	// process tree as the engine read them with Initial (client.Remote.FirstReads):
	// the first frame shows them, and they are not read again at once.
	Metrics *runs.Metrics
	Trees   map[string][]reaper.TreeProc
	// Screen, when set, is the first run's screen (Initial[0]'s, selected at start
	// unless Select names another), which the engine holds already (it came with
	// Initial): the first frame draws it, where it drew a placeholder until Init's
	// read of it came back.
	Screen screen.View
	// WhenListed, when set, is called in a command once every run is listed, with
	// them: what depends on every run (starting the config's runs the server does not
	// run yet) waits for it. It returns a run to select when it is listed, as Select
	// ("" for none).
	WhenListed func(all []runs.Info) (selectID string)
	// History is the events of the state dir's log from before the UI attached
	// (api.SubscribeReply.History), oldest first: shown in the events pane as history.
	History []runs.Event
}

// Messages from Bridge.
type (
	// EventMsg is one lifecycle event of a run (spawn, state, cancel, pause, cleanup,
	// exit, escape, watchdog warning).
	EventMsg struct{ Event runs.Event }
	// OutputMsg names the runs whose output moved since the previous OutputMsg.
	// Echo: what moved answers input (runs.DetailEcho), the frame after it is drawn
	// at once (FrameAtOnce).
	OutputMsg struct {
		IDs  []string
		Echo bool
	}
	// ListedMsg is runs an attached UI's first reply left out (api.EventListed), in
	// the list's order, added at once; Whole: every run is listed now.
	ListedMsg struct {
		Runs  []runs.Info
		Whole bool
	}
)

// Messages that commands return.
type (
	// SnapshotMsg is a fresh snapshot (watchdog state of every run); with Err the
	// list keeps what it had.
	SnapshotMsg struct {
		Runs []runs.Info
		Err  error
	}
	// MetricsMsg is fresh metrics (the supervisor's counters); with Err the events
	// pane keeps the last ones.
	MetricsMsg struct {
		Metrics runs.Metrics
		Err     error
	}
	// TreesMsg is the process trees of the runs asked for.
	TreesMsg struct {
		Trees map[string][]reaper.TreeProc
		Err   error
	}
	// ScreenMsg hands the terminal pane a run's screen (nil: the run has none).
	ScreenMsg struct {
		ID     string
		Screen screen.View
	}
	// ScreensMsg is the screens of many runs at once (the UI's start).
	ScreensMsg []ScreenMsg
	// LogMsg is a run's in-memory output, for runs shown as a log (the terminal
	// pane's).
	LogMsg = terminal.LogMsg
	// HistoryMsg is a run's history as text lines, for scrolling and search
	// (historyCmd; the terminal pane's).
	HistoryMsg = terminal.HistoryMsg
	// DoneMsg reports a finished core command; Err is shown in the events pane.
	DoneMsg struct {
		Op  string // what was done ("cancel", "pause", …)
		ID  string // the run, "" if none
		Err error
	}
	// WrittenMsg reports that queued input reached the run (api.Input; api.Write for
	// the replay player's keys).
	WrittenMsg struct {
		ID   string
		Err  error // the first write's error, of those reported together
		Size int   // the input's bytes, about, answered for (inputQueues)
	}
	// SpawnedMsg reports a Spawn.
	SpawnedMsg struct {
		ID      string
		Err     error
		Pending string // the key of the pending run it started ("" for none)
		// Replaces is the ended run a restart started this one in place of ("" for none).
		Replaces string
		// FromForm: the new-run form asked for it (a refusal opens the form again).
		FromForm bool
	}
	// FinishedMsg reports a finish (the finish dialog): what it did, or why it
	// refused.
	FinishedMsg struct {
		ID     string
		Result runs.FinishResult
		Err    error
	}
	// RemovedMsg reports a Remove; on success the run leaves the UI.
	RemovedMsg struct {
		ID  string
		Err error
	}
	// ReconciledMsg carries the decisions of a Reconcile.
	ReconciledMsg struct {
		Decisions []runs.Decision
		Err       error
	}
	// ShutdownMsg reports that Engine.Shutdown returned.
	ShutdownMsg struct{ Err error }
)

// tickMsg drives countdowns and the once-a-second refresh; gen drops stale chains.
type tickMsg struct{ gen int }

// FrameAtOnce tells ui/frame to draw the frame after this message at once, whatever
// its budget, when it carries an echo: what was typed is not held for an interval
// (unless echoes come past their own budget, frame.EchoRate: input in a loop).
func (m OutputMsg) FrameAtOnce() bool { return m.Echo }
