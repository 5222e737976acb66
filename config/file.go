package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// File is a parsed corral.toml: what a team checks into its repository to describe
// its runs.
//
//	[defaults]            # overrides of Default(), for every run
//	grace = "10s"
//	[keys]                # key bindings by action name
//	cancel = ["x", "ctrl+k"]
//	[ui]                  # the terminal UI
//	mouse = true          # clicks and the wheel (off: the terminal keeps its selection)
//	window_size = "latest" # a run several attached UIs show: "latest", "smallest", "largest"
//	[[run]]               # one per run
//	name = "build"
//	cmd = "make -j8"
//	timeout = "30m"
//	[run.env]             # env additions of the run above
//	CGO_ENABLED = "0"
//	[[host]]              # one per other machine, reached over ssh (HostEntry)
//	name = "gpu"
//	ssh = "me@gpu.lan"
type File struct {
	Path     string
	Defaults FileDefaults
	Runs     []RunEntry
	Hosts    []HostEntry
	Keys     map[string][]string // action name → key names; the UI checks them against its actions
	KeyLines map[string]int      // action name → its line in [keys], for the UI's complaints
	UI       FileUI
	Notify   Notify
	Worktree Worktree
	Web      Web
}

// Worktree is the [worktree] table: where runs' git worktrees are made and what runs
// in a new one before its program. In a repository's own corral.toml (at its top) it
// is that repository's; in the server's config it is every repository's that has none.
type Worktree struct {
	Root  string   // relative paths are resolved against the file's directory; "": the state dir's worktrees/
	Setup []string // shell command lines, run in order in the new worktree
	Line  int      // of the [worktree] table, for messages
}

// Notify is the [notify] table: how a user who is elsewhere is told that an agent
// waits for them or finished its turn.
type Notify struct {
	// Terminal is how Corral's own terminal is told: NotifyOSC9 (iTerm2, WezTerm,
	// Ghostty, kitty, Windows Terminal), NotifyOSC777 (urxvt, foot, Ghostty) or
	// NotifyOff.
	Terminal string
	// Command, when set, is run (by $SHELL -c) with a JSON object on its stdin for
	// each notification.
	Command string
	// MinInterval is the least time between two notifications of one run: what
	// comes within it is said in one when it ends.
	MinInterval time.Duration
	Line        int // of the [notify] table, for messages
}

// How the terminal is told.
const (
	NotifyOSC9   = "osc9"
	NotifyOSC777 = "osc777"
	NotifyOff    = "off"
)

// DefaultNotify is [notify] when the file says nothing.
func DefaultNotify() Notify {
	return Notify{Terminal: NotifyOSC9, MinInterval: 10 * time.Second}
}

// FileUI is the [ui] table: preferences of the terminal UI.
type FileUI struct {
	// Mouse: clicks select and focus, the wheel scrolls. Off by default
	// so the terminal's own selection keeps working.
	Mouse bool
	// WindowSize is the size a run shown by several attached UIs takes, as tmux's
	// window-size: WindowLatest ("" too), WindowSmallest or WindowLargest. The server
	// reads it from the config file found without a flag (User).
	WindowSize string
}

// Window-size policies, spelled as in the config file.
const (
	WindowLatest   = "latest"   // the UI that resized, showed, focused or typed into the run last
	WindowSmallest = "smallest" // the smallest columns and rows of the UIs showing it
	WindowLargest  = "largest"  // the largest columns and rows of the UIs showing it
)

// FileDefaults is the [defaults] table. Set holds the keys the file gave (as spelled
// in the file, "no_output_timeout"), so Apply overrides only those.
type FileDefaults struct {
	Grace           time.Duration
	Timeout         time.Duration // 0 is none
	NoOutputTimeout time.Duration // 0 is off
	OutputCap       int
	TranscriptCap   int64
	ScrollbackLines int
	FinishedTTL     time.Duration
	LogTTL          time.Duration // 0 keeps logs for ever
	ReconcilePolicy string        // ReconcileTerminate or ReconcileAdopt
	EscapePolicy    string        // EscapeOwn, EscapeFail or EscapeWarn
	StateDir        string        // relative paths are resolved against the file's directory
	CgroupRoot      string        // a cgroup2 directory, or "off"
	Set             map[string]bool
}

// RunEntry is one [[run]] table (or one Procfile line).
type RunEntry struct {
	Line int // of its [[run]] header (or Procfile line), for messages
	// StopSignalLine is the line of its stop_signal key, for an unknown signal's message.
	StopSignalLine int

	Name string
	Cmd  string   // a shell command line; exactly one of Cmd and Argv is set
	Argv []string // exec'd directly
	PTY  bool
	// Parity starts the entry twice, as a PTY run and as a pipe run side by side
	// (corral parity); pty is then ignored.
	Parity bool
	Cwd    string            // relative paths are resolved against the file's directory
	Env    map[string]string // additions to the environment

	// Timeout and NoOutputTimeout apply only when their Set flag is true; otherwise
	// the defaults decide. Set to 0, either turns its deadline off for this run.
	Timeout         time.Duration
	TimeoutSet      bool
	NoOutputTimeout time.Duration
	NoOutputSet     bool
	Grace           time.Duration // 0 takes the default

	StopSignal   string // as written: "INT", "SIGTERM" or a number; "" takes the default
	EscapePolicy string // "", EscapeOwn, EscapeFail or EscapeWarn
	Autostart    bool   // start when Corral opens; true unless the file says false
	Cols, Rows   uint16 // PTY size; 0 takes the default
	// Agent names the agent whose rules tell its state (runs/agentstate), when its
	// command does not say ("claude", "codex", …; "none" for no detection).
	Agent     string
	AgentLine int
	// Restore starts a plain command again after a reboot (corral restore), as agents
	// are; false for commands, which are not restored unless they say so.
	Restore bool
	// Worktree gives the run a git worktree of its own, on Branch (""; corral/<name>)
	// made from Base ("": HEAD).
	Worktree     bool
	Branch, Base string

	// Restart is the restart policy ("" is RestartNo). Backoff is the first delay
	// before a restart, doubled per restart to BackoffMax; MaxRestarts restarts are
	// allowed within RestartWindow (0: no limit). Each Set flag says the file gave it.
	Restart        string
	Backoff        time.Duration
	BackoffSet     bool
	BackoffMax     time.Duration
	MaxRestarts    int
	MaxRestartsSet bool
	RestartWindow  time.Duration
	// Ready is its readiness probe and Alive its liveness probe; nil when it has none.
	Ready, Alive *Probe
	// DependsOn are the runs it waits for, each with its condition (depends.go);
	// OnDependencyLost is "" or DepLostRestart.
	DependsOn        []Dependency
	OnDependencyLost string
}

// Load reads and validates the config file at path. A missing file is an error
// wrapping os.ErrNotExist; an invalid one is an *Error wrapping ErrInvalid.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return Parse(path, data)
}

// Parse is Load from bytes. Relative paths in the file (cwd, state_dir) are
// resolved against the directory of path, made absolute.
func Parse(path string, data []byte) (*File, error) {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	// A UTF-8 byte order mark, as some Windows editors write: not part of the TOML.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if err := checkTOML(path, data); err != nil {
		return nil, err
	}
	tables, err := readTables(path, data)
	if err != nil {
		return nil, err
	}
	d := decoder{path: path, dir: dir, f: &File{Path: path, Notify: DefaultNotify()}, names: map[string]int{}}
	for _, t := range tables {
		d.note(d.table(t))
	}
	if len(d.errs) == 0 {
		d.checkDepends()
	}
	if len(d.errs) > 0 {
		return nil, joinErrors(d.errs)
	}
	return d.f, nil
}

// KeyLine is where in the file action is bound (0: not in the file).
func (f *File) KeyLine(action string) int {
	if f == nil {
		return 0
	}
	return f.KeyLines[action]
}

// Apply overlays the [defaults] table on d: only the keys the file set. A nil File
// changes nothing.
func (f *File) Apply(d Defaults) Defaults {
	if f == nil {
		return d
	}
	fd := f.Defaults
	set := func(key string) bool { return fd.Set[key] }
	if set(keyGrace) {
		d.Grace = fd.Grace
	}
	if set(keyTimeout) {
		d.Timeout = fd.Timeout
	}
	if set(keyNoOutput) {
		d.NoOutputTimeout = fd.NoOutputTimeout
		if d.NoOutputTimeout == 0 {
			d.NoOutputTimeout = -1 // the file's 0 is off; Defaults' 0 is derived
		}
	}
	if set(keyOutputCap) {
		d.OutputCap = fd.OutputCap
	}
	if set(keyTranscriptCap) {
		d.TranscriptCap = fd.TranscriptCap
	}
	if set(keyScrollback) {
		d.ScrollbackLines = fd.ScrollbackLines
	}
	if set(keyTTL) {
		d.FinishedTTL = fd.FinishedTTL
	}
	if set(keyLogTTL) {
		d.LogTTL = fd.LogTTL
	}
	if set(keyReconcile) {
		d.ReconcilePolicy = fd.ReconcilePolicy
	}
	if set(keyEscape) {
		d.EscapePolicy = fd.EscapePolicy
	}
	if set(keyCgroupRoot) {
		d.CgroupRoot = fd.CgroupRoot
	}
	if set(keyStateDir) {
		d.StateDir = fd.StateDir
	}
	return d
}

// User is the config file found without a flag ($CORRAL_CONFIG, ./corral.toml, the
// user's): the server, which reads no other config, takes its [notify] (how it tells
// users) and its [ui] window_size from it. No file is a File of defaults; a file that
// does not load gives the defaults and its error.
func User() (*File, error) {
	none := &File{Notify: DefaultNotify()}
	path, err := Discover("")
	if err != nil || path == "" {
		return none, err
	}
	f, err := Load(path)
	if err != nil {
		return none, err
	}
	return f, nil
}

// UserNotify is the [notify] of User.
func UserNotify() (Notify, error) {
	f, err := User()
	return f.Notify, err
}
