// Package config is the one home of every default Corral uses (grace, timeouts, caps,
// sizes, lease timings) and of the state directory's location. No other package
// hard-codes these numbers: they take them from Default().
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

	// Watchdog (DESIGN §4): no-output default = Factor × overall clamped to
	// [NoOutputMin, NoOutputMax] and at most overall − NoOutputMargin.
	NoOutputFactor float64
	NoOutputMin    time.Duration
	NoOutputMax    time.Duration
	NoOutputMargin time.Duration
	WarnFraction   float64       // the countdown warns in the last part of a deadline
	EchoWindow     time.Duration // output this soon after our own input is echo, not life

	// Registry.
	FinishedTTL    time.Duration // finished runs stay listed this long
	LeaseHeartbeat time.Duration // how often an instance renews its runs' leases
	LeaseExpiry    time.Duration // a lease not renewed for this long has expired
	EscapeScan     time.Duration // how often runs are checked for escaped processes
}

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

		Cols: 120,
		Rows: 40,
		Term: "xterm-256color",

		NoOutputFactor: 0.8,
		NoOutputMin:    180 * time.Second,
		NoOutputMax:    600 * time.Second,
		NoOutputMargin: time.Second,
		WarnFraction:   0.2,
		EchoWindow:     100 * time.Millisecond,

		FinishedTTL:    30 * time.Minute,
		LeaseHeartbeat: 2 * time.Second,
		LeaseExpiry:    10 * time.Second,
		EscapeScan:     500 * time.Millisecond,
	}
}

// StateDirEnv overrides where Corral keeps its state.
const StateDirEnv = "CORRAL_STATE_DIR"

// StateDir resolves the state directory: the flag if given, else $CORRAL_STATE_DIR,
// else $XDG_STATE_HOME/corral, else ~/.local/state/corral. It does not create it.
func StateDir(flag string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	if d := os.Getenv(StateDirEnv); d != "" {
		return filepath.Abs(d)
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
// one, since transcripts and records may hold secrets a run printed.
func EnsureStateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("state dir %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("state dir %s: %w", dir, err)
	}
	return nil
}
