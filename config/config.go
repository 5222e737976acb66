// Package config is the one home of every default Corral uses (grace, timeouts, caps,
// sizes, lease timings) and of the state directory's location. No other package
// hard-codes these numbers: they take them from Default().
//
// It also reads corral.toml (Load, Parse; File.Apply overlays its [defaults] on
// Default()), finds it (Discover), imports Procfiles (ParseProcfile) and prints the
// effective configuration (File.Effective). Every problem in a file is one *Error
// naming the file, the line, the run and the key.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Defaults holds every tunable with its default value.
type Defaults struct {
	// Termination.
	Grace      time.Duration  // stop signal to SIGKILL
	StopSignal syscall.Signal // sent to every group of a run's session
	Sweep      time.Duration  // bound on the post-SIGKILL sweep until verified empty
	Poll       time.Duration  // poll interval while waiting for a session to empty
	Drain      time.Duration  // bound on reading output after the run's processes are gone

	// Output.
	OutputCap     int   // in-memory log per run, bytes (oldest dropped, truncation marked)
	TailBytes     int   // size of a run's tail (reports, the final line of corral run --json)
	TranscriptCap int64 // transcript file per run, bytes
	WriteQueue    int   // input bytes queued for a run that is not reading

	// Terminal.
	Cols, Rows uint16 // PTY size when there is no pane to size it
	Term       string // TERM given to PTY runs
	// ScrollbackLines is how many lines that scrolled off a PTY run's screen it
	// keeps (tmux's history-limit; its default is 2000).
	ScrollbackLines int

	// Watchdog: no-output default = Factor × overall clamped to
	// [NoOutputMin, NoOutputMax] and at most overall − NoOutputMargin.
	NoOutputFactor float64
	NoOutputMin    time.Duration
	NoOutputMax    time.Duration
	NoOutputMargin time.Duration
	WarnFraction   float64       // the countdown warns in the last part of a deadline
	EchoWindow     time.Duration // output this soon after our own input is echo, not life

	// Deadlines for runs that set none themselves.
	Timeout         time.Duration // overall; 0 is none
	NoOutputTimeout time.Duration // 0 derives it from the overall timeout as above; < 0 is off

	// Registry.
	FinishedTTL time.Duration // finished runs stay listed this long
	// LogTTL: a run's transcripts and recording stay in the logs dir this long after
	// its record went (0 keeps them for ever).
	LogTTL         time.Duration
	LeaseHeartbeat time.Duration // how often an instance renews its runs' leases
	LeaseExpiry    time.Duration // a lease not renewed for this long has expired
	EscapeScan     time.Duration // how often runs are checked for escaped processes

	// Policies: what an escapee means, and what reconcile does with a live orphan.
	ReconcilePolicy string // a live orphan whose owner died: ReconcileTerminate or ReconcileAdopt
	EscapePolicy    string // a process that left its run's session: EscapeOwn (EscapeWarn) or EscapeFail

	// StateDir is the state directory named by the config file; "" leaves it to
	// ResolveStateDir's environment and XDG rules.
	StateDir string

	// CgroupRoot is where runs' cgroups are made: a cgroup2 directory,
	// "off" for sessions, "" to find one (Corral's own cgroup when delegated, else a
	// writable cgroup2 mount).
	CgroupRoot string
}

// Policy values, spelled as in the config file.
const (
	ReconcileTerminate = "terminate" // end the orphan (reason orphan-reaped)
	ReconcileAdopt     = "adopt"     // observe it and allow cancel, no terminal I/O
	EscapeOwn          = "own"       // the escapee is the run's: recorded, shown, ended with it
	EscapeWarn         = "warn"      // the old name of own, still accepted
	EscapeFail         = "fail"      // end the run with ownership-escape
)

// Default returns the defaults. It returns a fresh value so callers may adjust a copy.
func Default() Defaults {
	return Defaults{
		Grace:      5 * time.Second,
		StopSignal: syscall.SIGTERM,
		Sweep:      2 * time.Second,
		Poll:       10 * time.Millisecond,
		Drain:      time.Second,

		OutputCap:     200_000,
		TailBytes:     2_000,
		TranscriptCap: 16 << 20,
		WriteQueue:    1 << 20,

		Cols:            120,
		Rows:            40,
		Term:            "xterm-256color",
		ScrollbackLines: 10_000,

		NoOutputFactor: 0.8,
		NoOutputMin:    180 * time.Second,
		NoOutputMax:    600 * time.Second,
		NoOutputMargin: time.Second,
		WarnFraction:   0.2,
		EchoWindow:     100 * time.Millisecond,

		FinishedTTL:    30 * time.Minute,
		LogTTL:         14 * 24 * time.Hour,
		LeaseHeartbeat: 2 * time.Second,
		LeaseExpiry:    10 * time.Second,
		EscapeScan:     500 * time.Millisecond,

		ReconcilePolicy: ReconcileTerminate,
		EscapePolicy:    EscapeOwn,
	}
}

// StateDirEnv overrides where Corral keeps its state.
const StateDirEnv = "CORRAL_STATE_DIR"

// StateDir resolves the state directory: the flag if given, else $CORRAL_STATE_DIR,
// else $XDG_STATE_HOME/corral, else ~/.local/state/corral. It does not create it.
func StateDir(flag string) (string, error) { return ResolveStateDir(flag, "") }

// ResolveStateDir is StateDir with the config file's state_dir (Defaults.StateDir)
// between the environment and the XDG rules: a flag or $CORRAL_STATE_DIR set for one
// invocation beats the file a team checked in.
func ResolveStateDir(flag, configured string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	if d := os.Getenv(StateDirEnv); d != "" {
		return filepath.Abs(d)
	}
	if configured != "" {
		return filepath.Abs(configured)
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "corral"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("state dir: no --state-dir, $%s, $XDG_STATE_HOME or home: %w", StateDirEnv, err)
	}
	return filepath.Join(home, ".local", "state", "corral"), nil
}

// EnsureStateDir creates dir (and parents) with mode 0700 and tightens an existing
// one, since transcripts and records may hold secrets a run printed. A dir owned by
// another user, or one it would be created in, is refused (ErrForeignStateDir).
func EnsureStateDir(dir string) error {
	if err := checkCreateInto(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("state dir %s: %w", dir, err)
	}
	if err := checkOwned(dir); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("state dir %s: %w", dir, err)
	}
	return nil
}
