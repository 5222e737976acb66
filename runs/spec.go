package runs

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"corral/config"
)

// Spec is what to run and how. A run is either Argv (exec'd directly) or Shell (one
// command line for $SHELL -c); the two are never converted into each other, because
// joining argv into a line re-splits quoted arguments (an OpenClaw trap).
type Spec struct {
	Name  string   `json:"name"`
	Argv  []string `json:"argv,omitempty"`
	Shell string   `json:"shell,omitempty"`
	PTY   bool     `json:"pty"`
	Dir   string   `json:"cwd,omitempty"`
	Env   []string `json:"env,omitempty"` // additions, KEY=VALUE

	Cols uint16 `json:"cols,omitempty"` // PTY size; 0 takes the default
	Rows uint16 `json:"rows,omitempty"`
	// FixedSize keeps a PTY run at its own size: the UI does not fit it to the pane,
	// and a size the child sets on its terminal itself is taken up (the screen and the
	// recording follow it). corral replay uses it to play a recording at its size.
	FixedSize bool `json:"fixed_size,omitempty"`

	// Escape is what happens when a process leaves the run's session: fail (default)
	// ends the run with ownership-escape; warn records it and ends the escapee with
	// the run.
	Escape EscapePolicy `json:"escape_policy,omitempty"`

	Timeout         time.Duration  `json:"timeout,omitempty"`           // overall; 0 is off
	NoOutputTimeout time.Duration  `json:"no_output_timeout,omitempty"` // 0 is derived from Timeout; < 0 is off
	Grace           time.Duration  `json:"grace,omitempty"`             // 0 takes the default
	StopSignal      syscall.Signal `json:"stop_signal,omitempty"`       // 0 takes the default

	// Stdout and Stderr, when set, receive a copy of the run's output as it is read
	// (PTY output all goes to Stdout). They are written from the reader goroutine, so a
	// slow writer slows the run the way a slow pipe would; corral run uses them to
	// stream losslessly. Nil for runs nobody streams.
	Stdout io.Writer `json:"-"`
	Stderr io.Writer `json:"-"`
}

// EscapePolicy is fail or warn.
type EscapePolicy string

const (
	EscapeFail EscapePolicy = "fail"
	EscapeWarn EscapePolicy = "warn"
)

// RunIDEnv is set in every run's environment to its run id. It is inherited by the
// run's descendants, which lets Corral attribute a process reparented to it (a
// double-forked daemon) to the run it came from. Only Corral's own reparented
// children are ever attributed this way, so it can never select a stranger.
const RunIDEnv = "CORRAL_RUN_ID"

// Kind is "pty" or "pipe".
func (s Spec) Kind() string {
	if s.PTY {
		return "pty"
	}
	return "pipe"
}

func (s Spec) validate() error {
	switch {
	case len(s.Argv) > 0 && s.Shell != "":
		return fmt.Errorf("%w: both argv and a shell command line", ErrBadSpec)
	case len(s.Argv) == 0 && strings.TrimSpace(s.Shell) == "":
		return fmt.Errorf("%w: no command", ErrBadSpec)
	case len(s.Argv) > 0 && s.Argv[0] == "":
		return fmt.Errorf("%w: empty program name", ErrBadSpec)
	case s.Timeout < 0:
		return fmt.Errorf("%w: negative timeout", ErrBadSpec)
	case s.Grace < 0:
		return fmt.Errorf("%w: negative grace", ErrBadSpec)
	case s.Escape != "" && s.Escape != EscapeFail && s.Escape != EscapeWarn:
		return fmt.Errorf("%w: escape policy %q (want fail or warn)", ErrBadSpec, s.Escape)
	}
	return nil
}

// withDefaults fills the zero fields from d and names the run after its command.
func (s Spec) withDefaults(d config.Defaults) Spec {
	if s.Name == "" {
		s.Name = defaultName(s)
	}
	if s.Cols == 0 || s.Rows == 0 {
		s.Cols, s.Rows = d.Cols, d.Rows
	}
	if s.Grace == 0 {
		s.Grace = d.Grace
	}
	if s.StopSignal == 0 {
		s.StopSignal = d.StopSignal
	}
	if s.Escape == "" {
		s.Escape = EscapeFail
	}
	return s
}

func defaultName(s Spec) string {
	if len(s.Argv) > 0 {
		return filepath.Base(s.Argv[0])
	}
	if f := strings.Fields(s.Shell); len(f) > 0 {
		return filepath.Base(f[0])
	}
	return "run"
}

// command builds the exec.Cmd for run id. Stdio and SysProcAttr are left to the host.
func (s Spec) command(d config.Defaults, id string) *exec.Cmd {
	var cmd *exec.Cmd
	if s.Shell != "" {
		cmd = exec.Command(shell(), "-c", s.Shell)
	} else {
		cmd = exec.Command(s.Argv[0], s.Argv[1:]...)
	}
	cmd.Dir = s.Dir
	env := runEnv(os.Environ(), s.PTY, d.Term)
	cmd.Env = append(append(env, s.Env...), RunIDEnv+"="+id)
	return cmd
}

// shell is $SHELL, falling back to /bin/sh.
func shell() string {
	if sh := os.Getenv("SHELL"); sh != "" {
		return sh
	}
	return "/bin/sh"
}
