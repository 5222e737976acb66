package api

import (
	"encoding/json"

	"corral/ptyhost/keys"
	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/runs"
	"corral/runs/agentstate"
)

// The verbs' arguments and results.
type (
	// Hello opens a conversation: the client's version; the reply is the server's.
	HelloArgs struct {
		Version int    `json:"version"`
		Binary  string `json:"binary,omitempty"` // the client's corral version (Binary)
	}
	HelloReply struct {
		Version  int    `json:"version"`
		Binary   string `json:"binary,omitempty"` // the server's corral version
		PID      int    `json:"pid"`
		Instance string `json:"instance_id"`
		StateDir string `json:"state_dir"`
		// Ownership is how the server owns its runs (cgroups or sessions), and why
		// (ARCHITECTURE.md, "Ownership").
		Ownership string `json:"ownership,omitempty"`
		// Keeper is the pid of the keeper that holds the runs so they outlive the
		// server; 0: none, the runs end with it.
		Keeper int `json:"keeper,omitempty"`
	}
	// RunRef names a run: its id, a unique prefix of it, or its unique name.
	RunRef struct {
		ID string `json:"id"`
	}
	// RestoreArgs are restore's: the lost runs to start again (none: every one a
	// restore would), and the caller's environment, which their recorded additions go
	// over.
	RestoreArgs struct {
		IDs     []string `json:"ids,omitempty"`
		DryRun  bool     `json:"dry_run,omitempty"`
		Fresh   bool     `json:"fresh,omitempty"`
		BaseEnv []string `json:"base_env,omitempty"`
		// NoWait: a dry run that answers at once (runs.RestoreOptions.NoWait).
		NoWait bool `json:"no_wait,omitempty"`
	}
	// RestoreReply is what restore did with each lost run, and what it refused of
	// those named (Refused: one line each, naming the run and why).
	RestoreReply struct {
		Runs    []runs.Restored `json:"runs"`
		Refused []string        `json:"refused,omitempty"`
		// WaitMS (a NoWait dry run): runs a dead server's lease still holds are known
		// lost in this many milliseconds, and not in Runs yet; ask again then.
		WaitMS int64 `json:"wait_ms,omitempty"`
	}
	// SpawnArgs: BaseEnv travels beside the spec (runs.Spec never puts it in JSON).
	SpawnArgs struct {
		Spec    runs.Spec `json:"spec"`
		BaseEnv []string  `json:"base_env,omitempty"`
		// NamedDeps: the spec's dependencies were named on the command line
		// (--depends-on) and must name runs of the server now, by name or id
		// (runs.ResolveDeps); a config's may name runs started after them.
		NamedDeps bool `json:"named_deps,omitempty"`
	}
	// SpawnReply carries the new run's id; SpawnErr is set when it started and ended
	// at once with spawn-error (the run still exists, with its report).
	SpawnReply struct {
		ID       string `json:"id"`
		SpawnErr string `json:"spawn_error,omitempty"`
	}
	PollArgs struct {
		ID     string `json:"id"`
		WaitMS int64  `json:"wait_ms,omitempty"` // block up to this long for output or the end
	}
	PollReply struct {
		Output  []byte    `json:"output"`
		Dropped int64     `json:"dropped"` // unread bytes lost to the cap since the last poll
		Ended   bool      `json:"ended"`
		Run     runs.Info `json:"run"`
	}
	LogArgs struct {
		ID     string `json:"id"`
		Offset int    `json:"offset"` // first line; < 0 counts from the end
		Limit  int    `json:"limit"`  // lines; 0 takes DefaultLogLines
		Tail   bool   `json:"tail"`   // the last Limit lines
	}
	LogReply struct {
		Lines      []string `json:"lines"`
		Offset     int      `json:"offset"`      // of the first line returned
		TotalLines int      `json:"total_lines"` // in the kept log
		Truncated  bool     `json:"truncated"`   // older output was dropped by the cap
	}
	// WriteArgs: Viewer, when set, is the attached UI that typed (the latest
	// window-size policy follows it).
	WriteArgs struct {
		ID     string `json:"id"`
		Data   []byte `json:"data"`
		Viewer string `json:"viewer,omitempty"`
	}
	KeysArgs struct {
		ID   string   `json:"id"`
		Keys []string `json:"keys"` // tmux-style names or literal text, one word each
	}
	TextArgs struct {
		ID   string `json:"id"`
		Text string `json:"text"`
		// ReadyTimeoutMS (submit): wait up to this long for the run to be ready (its
		// agent idle, or its output quiet), then check the submit took; not ready by then
		// is a timeout. ReadyDefault instead waits up to SubmitReadyDefault, and not
		// ready by then is a failure. Neither: submit at once, unchecked (a person who
		// sees the screen chose the moment).
		ReadyTimeoutMS int64 `json:"ready_timeout_ms,omitempty"`
		ReadyDefault   bool  `json:"ready_default,omitempty"`
	}
	WaitArgs struct {
		ID        string `json:"id"`
		TimeoutMS int64  `json:"timeout_ms,omitempty"` // 0 waits for as long as it takes
		// Until: wait until the run's agent is in one of these states instead (or the
		// run ends first).
		Until []agentstate.State `json:"until,omitempty"`
		// Condition: wait until the run meets it (started, ready, succeeded, ended),
		// as a dependent of it would; Reached false when it never can.
		Condition runs.Condition `json:"condition,omitempty"`
	}
	// WaitReply is the ended run: its report (corral run --json's) and its Info. With
	// Until, Reached says the agent reached a state; the report is the run's only if
	// it ended.
	WaitReply struct {
		Report  runs.Report `json:"report"`
		Run     runs.Info   `json:"run"`
		Reached bool        `json:"reached,omitempty"`
	}
	ListReply struct {
		Runs []runs.Info `json:"runs"`
	}
)

// DefaultLogLines is how many lines log returns when no limit is given.
const DefaultLogLines = 200

// The arguments and replies an attached UI needs besides.
type (
	StopArgs struct {
		ID     string      `json:"id"`
		Reason runs.Reason `json:"reason"`
	}
	// ResizeArgs: Viewer, when set, is the attached UI whose pane has that size; the
	// run then takes the size its window-size policy gives over its viewers
	// (runs.Supervisor.ResizeFor). Without, the run takes the size.
	ResizeArgs struct {
		ID     string `json:"id"`
		Cols   uint16 `json:"cols"`
		Rows   uint16 `json:"rows"`
		Viewer string `json:"viewer,omitempty"`
	}
	// ShowArgs: Viewer's pane shows run ID now ("" for none).
	ShowArgs struct {
		Viewer string `json:"viewer"`
		ID     string `json:"id"`
	}
	TreesArgs struct {
		IDs []string `json:"ids"`
	}
	// ItemsArgs are keys already parsed (the UI's send-keys prompt parses them itself).
	ItemsArgs struct {
		ID    string      `json:"id"`
		Items []keys.Item `json:"items"`
	}
	// InputArgs are what a UI's focused pane types, pastes and reports, as items
	// encoded at the run with its app's modes when they arrive; Viewer, when set, is
	// the attached UI that typed (the latest window-size policy follows it).
	InputArgs struct {
		ID     string      `json:"id"`
		Items  []keys.Item `json:"items"`
		Viewer string      `json:"viewer,omitempty"`
	}
	// SnapshotArgs: a Viewer (an attached UI, by its token) gets the runs that
	// changed since its last snapshot and those it looks at (runs.SnapshotFor); All,
	// or no viewer, every run.
	SnapshotArgs struct {
		Viewer string `json:"viewer,omitempty"`
		All    bool   `json:"all,omitempty"`
	}
	SnapshotReply struct {
		Runs RunList `json:"runs"`
	}
	InfoReply struct {
		Run RunInfo `json:"run"`
	}
	OutputReply struct {
		Output runs.Output `json:"output"`
	}
	ShutdownReply struct {
		Ended int `json:"ended"` // live runs it ended
	}
	// UpgradeArgs name the binary the server's keeper starts in its place
	// (corral server --upgrade): an absolute path.
	UpgradeArgs struct {
		Exe string `json:"exe"`
	}
	UpgradeReply struct {
		PID  int `json:"pid"`  // the server that hands over
		Runs int `json:"runs"` // live runs it hands over
	}
)

// ref is the run reference every per-run argument type carries (RunOf).
func (a RunRef) ref() string     { return a.ID }
func (a WriteArgs) ref() string  { return a.ID }
func (a KeysArgs) ref() string   { return a.ID }
func (a TextArgs) ref() string   { return a.ID }
func (a StopArgs) ref() string   { return a.ID }
func (a ResizeArgs) ref() string { return a.ID }
func (a ItemsArgs) ref() string  { return a.ID }
func (a InputArgs) ref() string  { return a.ID }

// The stream of an attached UI (subscribe): a snapshot, then events and frames.
type (
	// SubscribeArgs: Push asks the server to push, at its heartbeat, what moved with
	// no event (a Refresh), so the UI need not ask for it while nothing happens. A
	// client that does not ask (an older one) gets no Refresh it would not know.
	//
	// First asks for a reply that carries only what a UI's first frame needs: the
	// first First runs of the list (the snapshot's order, the order a UI lists them
	// in; its selection at start is the first), the first run's screen, and the
	// counts of the others; those follow as the stream's first messages (Listing).
	// 0, as an older client sends, is every run in the reply, as before.
	SubscribeArgs struct {
		Push  bool `json:"push,omitempty"`
		First int  `json:"first,omitempty"`
	}
	SubscribeReply struct {
		Token string  `json:"token"`
		Runs  RunList `json:"runs"`
		// Rest counts the runs the reply leaves out (SubscribeArgs.First): they follow
		// on the stream (StreamMsg.Listing). Nil, as an older server never says: Runs
		// is every run.
		Rest *RunSummary `json:"rest,omitempty"`
		// Widest (with Rest) is a few of the runs left out, those whose cells are the
		// widest (Widest): the subscriber sizes its list's columns with them, so they
		// do not widen when the rest arrives. They come again in the listing.
		Widest RunList `json:"widest,omitempty"`
		// Metrics and Trees (with First) are the counters and the first run's process
		// tree (a live one's), which the UI's first frame shows: read here, they are
		// not asked for, one round trip each, after it.
		Metrics *runs.Metrics `json:"metrics,omitempty"`
		Trees   TreeMap       `json:"trees,omitempty"`
		// Frame (with First) is the whole screen of the first run, which the
		// subscriber is sent whole frames of from then on, as of a watched one: the UI
		// selects that run as it starts, and its first frame shows its screen without
		// a watch's round trip behind the rest of the runs.
		Frame *Frame `json:"frame,omitempty"`
		// History is the events the state dir's events.jsonl holds from before the
		// subscription (runs.RecentEvents: bounded), oldest first: what happened while
		// no UI was attached. A live event the stream also delivers may be among its
		// last (logged as it was published): client.Remote drops that copy.
		History []runs.Event `json:"history,omitempty"`
	}
	WatchArgs struct {
		Token string   `json:"token"`
		IDs   []string `json:"ids"`
	}
	// StreamMsg is one message of a subscription: an event or a frame.
	StreamMsg struct {
		Event   *runs.Event `json:"event,omitempty"`
		Frame   *Frame      `json:"frame,omitempty"`
		Refresh *Refresh    `json:"refresh,omitempty"`
		Listing *Listing    `json:"listing,omitempty"`
	}
	// Listing is part of the runs a subscription's reply left out (SubscribeReply.Rest),
	// in the list's order: the stream's first messages, before any event, so what
	// comes after them is newer than them. Last is the last of them.
	Listing struct {
		Runs RunList `json:"runs"`
		Last bool    `json:"last,omitempty"`
	}
	// Refresh is what a server pushes at its heartbeat to a subscriber that asked
	// (SubscribeArgs.Push): the runs its snapshot would bring that moved without an
	// event, or whose lease the subscriber holds would lapse before the next beat
	// (runs.SnapshotFor: the changed runs and those it looks at, with their usage),
	// and whether the counters moved. The first one, maybe empty, says the server
	// pushes. The client hands each on as an EventRefresh.
	Refresh struct {
		Runs     RunList `json:"runs,omitempty"`
		Counters bool    `json:"counters,omitempty"`
	}
	// Frame is a run's screen as the UI draws it. A light frame carries only the
	// attention count of a screen nobody watches.
	Frame struct {
		ID        string              `json:"id"`
		Light     bool                `json:"light,omitempty"`
		Attention uint64              `json:"attention"`
		Version   uint64              `json:"version,omitempty"`
		Cols      int                 `json:"cols,omitempty"`
		Rows      int                 `json:"rows,omitempty"`
		Render    string              `json:"render,omitempty"`
		State     *screen.ScreenState `json:"state,omitempty"`
		// Echo: what changed answers input (runs.DetailEcho): the UI draws it at
		// once, whatever its frame budget (within its echoes' own). An older client
		// ignores it and paces the frame as any.
		Echo bool `json:"echo,omitempty"`
	}
)

// RunInfo is a run's Info with its live watchdog state, which Info leaves out of its
// own JSON (records do not keep it) and a UI shows: on the wire it is a WireInfo.
type RunInfo struct{ runs.Info }

func (r RunInfo) MarshalJSON() ([]byte, error) { return json.Marshal(wireInfo(r.Info)) }

func (r *RunInfo) UnmarshalJSON(b []byte) error {
	var w WireInfo
	err := json.Unmarshal(b, &w)
	r.Info = w.info()
	return err
}

// RunList is runs' Infos with their watchdog state, on the wire WireInfos.
type RunList []runs.Info

func (l RunList) MarshalJSON() ([]byte, error) {
	w := make([]listInfo, len(l))
	for i, x := range l {
		w[i].WireInfo = wireInfo(x)
		w[i].Watchdog = w[i].WireInfo.Watchdog
	}
	return json.Marshal(w)
}

// listInfo is a WireInfo in a RunList (a snapshot, a subscription's, a push) with its
// watchdog left out when it is the zero one (no deadline, no output yet, nothing
// fired): a quarter of an idle run's bytes, which at a thousand runs the attaching
// client decoded before its first frame. Absent, it decodes as the zero one it was.
type listInfo struct {
	WireInfo
	Watchdog WireWatchdog `json:"watchdog,omitzero"`
}

func (l *RunList) UnmarshalJSON(b []byte) error {
	var w []WireInfo
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*l = make(RunList, len(w))
	for i, x := range w {
		(*l)[i] = x.info()
	}
	return nil
}

// TreeMap is the process trees of runs by id; on the wire WireProcs.
type TreeMap map[string][]reaper.TreeProc

func (t TreeMap) MarshalJSON() ([]byte, error) { return json.Marshal(wireTrees(t)) }

func (t *TreeMap) UnmarshalJSON(b []byte) error {
	var w map[string][]WireProc
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*t = treesOf(w)
	return nil
}
